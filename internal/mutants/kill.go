package mutants

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"sync"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// DoNothingImpl is the do-nothing mutant: it prints {"ok":true} for every
// command and changes nothing.
func DoNothingImpl() runner.Implementation {
	return runner.Func(func(context.Context, runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true}` + "\n")}
	})
}

// Judge certifies mutant implementations over the cases its certifier
// selects.
type Judge struct {
	// Certify runs one certification of a mutant (BlockpatchCertifier,
	// PatchDIFFCertifier); each run starts from fresh settings, so case
	// sources, timeout and parallelism stay the caller's.
	Certify Certifier
	// FailFast stops at the first failing case: the judgement then names
	// one killer.
	FailFast bool
}

// Judgement is what the corpus made of one mutant.
type Judgement struct {
	// Killers are the cases that failed, sorted; with FailFast, only the
	// first that failed.
	Killers []string
	// Verdict and Reason are those of the first failing case seen.
	Verdict runner.Verdict
	Reason  string
	// PassCasesPassed lists the pass-cases that passed (full runs only).
	PassCasesPassed []string
}

// Killed reports whether some case failed.
func (j Judgement) Killed() bool { return len(j.Killers) > 0 }

// Run certifies impl. With FailFast, the cases named in first run before
// the others, so a mutant that one of them kills costs one short run.
func (j Judge) Run(ctx context.Context, impl *runner.Command, first []string) (Judgement, error) {
	if !j.FailFast {
		return j.run(ctx, impl, nil, nil)
	}
	if len(first) > 0 {
		jd, err := j.run(ctx, impl, runner.Select(first), nil)
		if err == nil && jd.Killed() {
			return jd, nil
		}
		if err != nil && !errors.Is(err, runner.ErrNoCases) {
			return jd, err
		}
		return j.run(ctx, impl, nil, runner.Select(first))
	}
	return j.run(ctx, impl, nil, nil)
}

func (j Judge) run(ctx context.Context, impl *runner.Command, run, skip *regexp.Regexp) (Judgement, error) {
	ctx, cancel := context.WithCancel(ctx)
	defer cancel()
	var (
		mu    sync.Mutex
		first *runner.Result
	)
	rep, err := j.Certify(ctx, impl, func(s *runner.Settings) {
		s.RunRegexp, s.SkipRegexp = run, skip
		if j.FailFast {
			s.Progress = func(p runner.Progress) {
				if p.Last.Verdict.Failed() {
					mu.Lock()
					if first == nil {
						first = p.Last
					}
					mu.Unlock()
					cancel()
				}
			}
		}
	})
	mu.Lock()
	defer mu.Unlock()
	if first != nil { // stopped on purpose
		return Judgement{Killers: []string{first.Name}, Verdict: first.Verdict, Reason: first.Reason}, nil
	}
	if err != nil {
		return Judgement{}, err
	}
	var jd Judgement
	for _, res := range rep.Results {
		if res.Verdict.Failed() {
			if jd.Verdict == "" {
				jd.Verdict, jd.Reason = res.Verdict, res.Reason
			}
			jd.Killers = append(jd.Killers, res.Name)
		}
		if res.Verdict == runner.Pass && res.Expect == string(cases.Pass) {
			jd.PassCasesPassed = append(jd.PassCasesPassed, res.Name)
		}
	}
	return jd, nil
}

// Matrix is the kill matrix of a corpus: which cases fail against which
// mutant.
type Matrix struct {
	Cases    []string            // every case that ran, sorted
	Mistakes map[string]string   // mutant name -> its mistake
	Kills    map[string][]string // mutant name -> killing cases, sorted
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
	names := make([]string, 0, len(mx.Kills))
	for name := range mx.Kills {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		kills := mx.Kills[name]
		total += len(kills)
		verdict := fmt.Sprintf("killed by %3d", len(kills))
		if len(kills) == 0 {
			verdict = "SURVIVES     "
		}
		fmt.Fprintf(&b, "%-30s %s  %s\n", name, verdict, strings.Join(first(kills, 3), " "))
	}
	idle := mx.Idle()
	fmt.Fprintf(&b, "\ncases that kill no mutant (%d):\n", len(idle))
	for _, c := range idle {
		fmt.Fprintf(&b, "  %s\n", c)
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
