package mutants

import (
	"context"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/fault"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Implementation returns the broken implementation of m. Mutants of the
// reference share the in-process reference; their fault is switched on by
// Run for the duration of the mutant's run.
func (m Mutant) Implementation() runner.Implementation {
	if m.Name == DoNothing {
		return runner.Func(func(context.Context, runner.Invocation) runner.Outcome {
			return runner.Outcome{Stdout: []byte(`{"ok":true}` + "\n")}
		})
	}
	return embedded.Reference()
}

// Run runs the cases r selects against mutant m, with every feature level
// required so that nothing counts as unsupported, and returns the results.
// r's Impl and Require are overwritten; the rest of its settings stand.
func Run(ctx context.Context, m Mutant, r *runner.Runner) (*runner.Report, error) {
	r.Impl = m.Implementation()
	r.Require = slices.Clone(cases.Levels)
	if m.Fault != "" {
		defer fault.Activate(m.Fault)()
	}
	return r.Run(ctx)
}

// Kills returns the names of the cases that fail in a report: the cases
// that kill the mutant the report is about.
func Kills(rep *runner.Report) []string {
	var out []string
	for _, res := range rep.Results {
		if res.Verdict.Failed() {
			out = append(out, res.Name)
		}
	}
	return out
}

// Matrix is the kill matrix of a corpus: which cases fail against which
// mutant.
type Matrix struct {
	Cases []string            // every case that ran, sorted
	Kills map[string][]string // mutant name -> killing cases, sorted
	// PassCasesPassed lists the pass-cases the do-nothing mutant passed;
	// any is a hole in the suite.
	PassCasesPassed []string
}

// Build runs every mutant over the cases that newRunner's runners select.
// newRunner makes a fresh runner for each mutant, so settings such as the
// case sources and parallelism stay the caller's.
func Build(ctx context.Context, all []Mutant, newRunner func() *runner.Runner) (*Matrix, error) {
	mx := &Matrix{Kills: map[string][]string{}}
	for _, m := range all {
		rep, err := Run(ctx, m, newRunner())
		if err != nil {
			return nil, fmt.Errorf("mutant %s: %w", m.Name, err)
		}
		if mx.Cases == nil {
			for _, res := range rep.Results {
				mx.Cases = append(mx.Cases, res.Name)
			}
		}
		mx.Kills[m.Name] = Kills(rep)
		if m.Name == DoNothing {
			for _, res := range rep.Results {
				if res.Verdict == runner.Pass && res.Case != nil && res.Case.Expect == cases.Pass {
					mx.PassCasesPassed = append(mx.PassCasesPassed, res.Name)
				}
			}
		}
	}
	return mx, nil
}

// Survivors lists the mutants no case kills.
func (mx *Matrix) Survivors() []string {
	var out []string
	for name, kills := range mx.Kills {
		if len(kills) == 0 {
			out = append(out, name)
		}
	}
	slices.Sort(out)
	return out
}

// Idle lists the cases that kill no mutant: they add no strength the
// mutants can measure.
func (mx *Matrix) Idle() []string {
	killing := map[string]bool{}
	for _, kills := range mx.Kills {
		for _, c := range kills {
			killing[c] = true
		}
	}
	var out []string
	for _, c := range mx.Cases {
		if !killing[c] {
			out = append(out, c)
		}
	}
	return out
}

// String prints the matrix: one line per mutant with its killers, then the
// idle cases and a summary.
func (mx *Matrix) String() string {
	var b strings.Builder
	total := 0
	for _, m := range All {
		kills, ok := mx.Kills[m.Name]
		if !ok {
			continue
		}
		total += len(kills)
		verdict := fmt.Sprintf("killed by %3d", len(kills))
		if len(kills) == 0 {
			verdict = "SURVIVES     "
		}
		fmt.Fprintf(&b, "%-30s %s  %s\n", m.Name, verdict, strings.Join(first(kills, 3), " "))
	}
	idle := mx.Idle()
	fmt.Fprintf(&b, "\ncases that kill no mutant (%d):\n", len(idle))
	for _, c := range idle {
		fmt.Fprintf(&b, "  %s\n", c)
	}
	if len(mx.PassCasesPassed) > 0 {
		fmt.Fprintf(&b, "\npass-cases the do-nothing implementation passes (%d): %s\n", len(mx.PassCasesPassed), strings.Join(mx.PassCasesPassed, " "))
	}
	fmt.Fprintf(&b, "\n%d mutants, %d killed, %d survive; %d kills over %d cases; %d cases kill nothing\n",
		len(mx.Kills), len(mx.Kills)-len(mx.Survivors()), len(mx.Survivors()), total, len(mx.Cases), len(idle))
	return b.String()
}

func first(s []string, n int) []string {
	if len(s) > n {
		return append(slices.Clone(s[:n]), "…")
	}
	return s
}

// Select returns a pattern for runner.RunRegexp that selects exactly the
// named cases.
func Select(names []string) *regexp.Regexp {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
}
