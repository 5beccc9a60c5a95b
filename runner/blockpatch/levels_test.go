package blockpatch

import (
	"bytes"
	"context"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// noPlanner wraps impl into a command-line tool without a planner: plan
// and move answer unknown_command, as a real CLI without them would, and
// version --json-output lists no planner among its features.
func noPlanner(impl runner.Implementation) runner.Implementation {
	return runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		if len(inv.Args) > 0 && (inv.Args[0] == "plan" || inv.Args[0] == "move") {
			return jsonError("unknown_command")
		}
		o := impl.Exec(ctx, inv)
		if len(inv.Args) > 0 && inv.Args[0] == "version" {
			o.Stdout = bytes.ReplaceAll(o.Stdout, []byte(`"planner",`), nil)
		}
		return o
	})
}

// cliRunner certifies impl against the embedded corpus's cli/ cases.
func cliRunner(t *testing.T, impl runner.Implementation) *Runner {
	r := newRunner(t, impl)
	r.Sources = []Source{Corpus()}
	r.RunRegexp = regexp.MustCompile(`^cli/`)
	return r
}

// TestLevelsIndependent certifies a command-line tool without a planner:
// its cli cases about check and apply run and pass (levels nested once, so
// every cli case was skipped), those about plan and move are skipped for
// want of the planner alone, and no level line is claimed and unsupported.
func TestLevelsIndependent(t *testing.T) {
	t.Parallel()
	// Without a features list in version --json-output, the probes
	// decide what is claimed.
	features := regexp.MustCompile(`,"features":\[[^]]*\]`)
	unlisted := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		o := noPlanner(reference()).Exec(ctx, inv)
		if len(inv.Args) > 0 && inv.Args[0] == "version" {
			o.Stdout = features.ReplaceAll(o.Stdout, nil)
		}
		return o
	})
	for name, tt := range map[string]struct {
		impl runner.Implementation
		why  string
	}{
		"listed": {noPlanner(reference()), "; planner not listed by version --json-output"},
		"probed": {unlisted, "; planner not claimed: plan answered unknown_command"},
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			checkNoPlanner(t, run(t, cliRunner(t, tt.impl)), tt.why)
		})
	}
}

func checkNoPlanner(t *testing.T, rep *runner.Report, why string) {
	t.Helper()
	if !rep.OK() {
		t.Errorf("a core and cli implementation fails: %d failed", rep.Certificate.Failed)
	}
	ran := 0
	for _, res := range rep.Results {
		planner := slices.Contains(res.Levels, string(cases.Planner))
		// An unprivileged case cannot bind an in-process implementation
		// run as root (unprivileged.go); it says so and is not counted.
		unprivileged := res.Verdict == runner.Unsupported && strings.Contains(res.Reason, "permission bits")
		switch {
		case unprivileged:
		case !planner && res.Verdict != runner.Pass:
			t.Errorf("%s (needs %v): %s (%s), want pass", res.Name, res.Levels, res.Verdict, res.Reason)
		case planner && (res.Verdict != runner.Unsupported || !strings.Contains(res.Reason, why)):
			t.Errorf("%s (needs %v): %s (%s), want unsupported for want of the planner", res.Name, res.Levels, res.Verdict, res.Reason)
		case !planner:
			ran++
		}
	}
	for _, name := range []string{"cli/apply-stdin-no-argument-json", "cli/check-stdin-dash", "cli/stdin-and-human-output", "cli/error-json-on-stderr"} {
		if v := verdicts(rep)[name]; v != runner.Pass {
			t.Errorf("%s: %s, want pass", name, v)
		}
	}
	if ran < 50 {
		t.Errorf("%d cli cases ran, want the 50 or more that need no planner", ran)
	}
	want := map[string]string{"core": "passed", "planner": "unsupported", "cli": "passed"}
	for _, l := range rep.Certificate.Levels {
		if l.Verdict != want[l.Level] {
			t.Errorf("level %s: %s, want %s", l.Level, l.Verdict, want[l.Level])
		}
		if l.Claimed && l.Verdict == "unsupported" {
			t.Errorf("level %s is claimed and unsupported at once (%s)", l.Level, l.How)
		}
	}
	var human bytes.Buffer
	rep.WriteHuman(&human, false)
	for line := range strings.Lines(human.String()) {
		if strings.HasPrefix(line, "level ") && strings.Contains(line, "unsupported") && strings.Contains(line, "(claimed") {
			t.Errorf("certificate line claims and refuses a level: %q", line)
		}
	}
}

// TestLevelsCatchCLIFaults breaks a core and cli implementation the ways
// nested levels let pass: each now fails the cli cases that show it.
func TestLevelsCatchCLIFaults(t *testing.T) {
	t.Parallel()
	ref := reference()
	tests := []struct {
		name, why string
		impl      runner.Implementation
		fails     []string
	}{
		{
			name: "error JSON on stdout",
			why:  "OUT-002 puts it on stderr, and the protocols only warn",
			impl: runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
				o := ref.Exec(ctx, inv)
				if o.Exit == 1 {
					o.Stdout, o.Stderr = o.Stderr, nil
				}
				return o
			}),
			fails: []string{"cli/error-json-on-stderr"},
		},
		{
			name: "stdin not read",
			why:  "commands.md reads the patch from stdin for apply - and apply with no patch",
			impl: runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
				inv.Stdin = nil
				return ref.Exec(ctx, inv)
			}),
			fails: []string{"cli/apply-stdin-no-argument-json", "cli/check-stdin-dash", "cli/stdin-and-human-output"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r := cliRunner(t, noPlanner(tt.impl))
			r.RunRegexp = runner.Select(tt.fails)
			rep := run(t, r)
			for _, name := range tt.fails {
				if v := verdicts(rep)[name]; !v.Failed() {
					t.Errorf("%s: %s, want a failure (%s)", name, v, tt.why)
				}
			}
		})
	}
}
