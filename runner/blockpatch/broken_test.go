package blockpatch

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// This file judges implementations broken on purpose: each mistake must
// get its own verdict, so that doing something wrong never passes.

// cwdOf returns the --cwd (or -d) argument of a command line.
func cwdOf(args []string) string {
	for i, a := range args {
		if (a == "--cwd" || a == "-d") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return ""
}

// broken wraps the reference: before runs first and may answer instead;
// after may change the outcome.
func broken(before func(inv runner.Invocation) (runner.Outcome, bool), after func(inv runner.Invocation, o runner.Outcome) runner.Outcome) runner.Implementation {
	ref := reference()
	return runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		if before != nil {
			if o, answered := before(inv); answered {
				return o
			}
		}
		o := ref.Exec(ctx, inv)
		if after != nil {
			o = after(inv, o)
		}
		return o
	})
}

func isApply(inv runner.Invocation) bool { return len(inv.Args) > 0 && inv.Args[0] == "apply" }

func jsonError(code string) runner.Outcome {
	return runner.Outcome{Exit: 1, Stderr: []byte(`{"ok":false,"error":{"code":"` + code + `","message":"no"}}` + "\n")}
}

// TestBrokenImplementations runs deliberately broken implementations and
// checks that each is caught with the right verdict.
func TestBrokenImplementations(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		why  string
		impl runner.Implementation
		// want maps case names to verdicts; "*pass" stands for every case
		// that expects pass, "*" for every case.
		want map[string]runner.Verdict
	}{
		{
			name: "does nothing",
			why:  "prints {\"ok\":true} and writes nothing: no case may pass",
			impl: runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
				return runner.Outcome{Stdout: []byte(`{"ok":true}` + "\n")}
			}),
			want: map[string]runner.Verdict{"*": runner.Fail},
		},
		{
			name: "leaves a temp file",
			why:  "a correct apply that leaves its temp file behind",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if isApply(inv) && o.Exit == 0 {
					os.WriteFile(filepath.Join(cwdOf(inv.Args), ".blockpatch-tmp-1"), []byte("x"), 0o644)
				}
				return o
			}),
			want: map[string]runner.Verdict{"plain/relocate": runner.Stray, "write/create-file-mode": runner.Stray, "match/overlapping-source-ambiguous": runner.Pass},
		},
		{
			name: "writes outside the work tree",
			why:  "touches the sentinel in the sibling folder",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if isApply(inv) {
					os.WriteFile(filepath.Join(cwdOf(inv.Args), "..", "outside", "sentinel.txt"), []byte("mine\n"), 0o644)
				}
				return o
			}),
			want: map[string]runner.Verdict{"plain/relocate": runner.Escape, "match/overlapping-source-ambiguous": runner.Escape, "planner/relocate-after-target-before": runner.Escape},
		},
		{
			name: "writes into the parent",
			why:  "creates a file next to the work tree, as an implementation ignoring --cwd would",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if isApply(inv) {
					os.WriteFile(filepath.Join(inv.Dir, "file.txt"), []byte("oops\n"), 0o644)
				}
				return o
			}),
			want: map[string]runner.Verdict{"plain/relocate": runner.Escape},
		},
		{
			name: "wrong error code",
			why:  "reports source_not_found for every error",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if o.Exit == 1 && inv.Args[0] != "version" {
					return jsonError("source_not_found")
				}
				return o
			}),
			want: map[string]runner.Verdict{"match/overlapping-source-ambiguous": runner.Fail, "paths/symlink-component": runner.Fail, "plain/relocate": runner.Pass},
		},
		{
			name: "crashes on errors",
			why:  "exits 2 where it should reject: a crash is never the expected rejection",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if o.Exit == 1 && inv.Args[0] != "version" && inv.Args[0] != "plan" && inv.Args[0] != "move" {
					o.Exit = 2
				}
				return o
			}),
			want: map[string]runner.Verdict{"match/overlapping-source-ambiguous": runner.Crash, "plain/relocate": runner.Pass},
		},
		{
			name: "panics",
			why:  "an in-process panic is a crash",
			impl: broken(func(inv runner.Invocation) (runner.Outcome, bool) {
				if isApply(inv) {
					return runner.Outcome{Exit: -1, Signal: "panic: boom"}, true
				}
				return runner.Outcome{}, false
			}, nil),
			want: map[string]runner.Verdict{"plain/relocate": runner.Crash},
		},
		{
			name: "killed by a signal",
			why:  "a signal is its own verdict",
			impl: broken(func(inv runner.Invocation) (runner.Outcome, bool) {
				if isApply(inv) {
					return runner.Outcome{Exit: -1, Signal: "segmentation fault"}, true
				}
				return runner.Outcome{}, false
			}, nil),
			want: map[string]runner.Verdict{"plain/relocate": runner.Signal, "match/overlapping-source-ambiguous": runner.Signal},
		},
		{
			name: "hangs",
			why:  "a timed-out invocation",
			impl: broken(func(inv runner.Invocation) (runner.Outcome, bool) {
				if isApply(inv) {
					return runner.Outcome{Exit: -1, TimedOut: true}, true
				}
				return runner.Outcome{}, false
			}, nil),
			want: map[string]runner.Verdict{"plain/relocate": runner.Timeout},
		},
		{
			name: "forgets the retry",
			why:  "applies again instead of reporting already_applied",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				return runner.Outcome{Exit: o.Exit, Stdout: bytes.ReplaceAll(o.Stdout, []byte(`"already_applied"`), []byte(`"applied"`)), Stderr: o.Stderr}
			}),
			want: map[string]runner.Verdict{"plain/relocate": runner.Fail},
		},
		{
			name: "chmods created files",
			why:  "creates files with mode 0600",
			impl: broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
				if isApply(inv) && o.Exit == 0 {
					filepath.WalkDir(cwdOf(inv.Args), func(p string, d os.DirEntry, err error) error {
						if err == nil && d.Type().IsRegular() {
							if info, _ := d.Info(); info.Mode().Perm() == 0o644 {
								os.Chmod(p, 0o600)
							}
						}
						return nil
					})
				}
				return o
			}),
			want: map[string]runner.Verdict{"write/create-file-mode": runner.Fail, "plain/relocate": runner.Fail, "write/replaced-file-keeps-mode": runner.Pass},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := run(t, newRunner(t, tt.impl))
			got := verdicts(rep)
			for _, res := range rep.Results {
				want, ok := tt.want[res.Name]
				if !ok && res.Expect == string(cases.Pass) {
					want, ok = tt.want["*pass"]
				}
				if !ok {
					want, ok = tt.want["*"]
				}
				if ok && res.Verdict != want {
					t.Errorf("%s (%s): %s is %s, want %s\n%s", tt.name, tt.why, res.Name, res.Verdict, want, res.Text())
				}
			}
			for name := range tt.want {
				if _, ok := got[name]; !ok && !strings.HasPrefix(name, "*") {
					t.Errorf("no result for %s", name)
				}
			}
			if rep.OK() {
				t.Errorf("%s: the run passed", tt.name)
			}
		})
	}
}

func TestErrorJSONOnStdoutIsAccepted(t *testing.T) {
	t.Parallel()
	impl := broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
		if o.Exit == 1 && inv.Args[0] != "version" {
			o.Stdout, o.Stderr = o.Stderr, nil
		}
		return o
	})
	r := newRunner(t, impl)
	r.RunRegexp = regexp.MustCompile(`^(match|paths|planner)/`)
	rep := run(t, r)
	requireAllPass(t, rep)
	warned := false
	for _, res := range rep.Results {
		for _, w := range res.Warnings {
			warned = warned || strings.Contains(w, "OUT-002")
		}
	}
	if !warned {
		t.Error("no warning about error JSON on stdout")
	}
}

func TestNotOneJSONDocument(t *testing.T) {
	t.Parallel()
	for name, out := range map[string]string{
		"two documents": `{"ok":true}{"ok":true}`,
		"text":          "done\n",
		"a list":        `[{"ok":true}]`,
	} {
		impl := broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
			if inv.Args[0] == "check" {
				o.Stdout = []byte(out)
			}
			return o
		})
		r := newRunner(t, impl)
		r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
		res := run(t, r).Results[0]
		if res.Verdict != runner.Fail || !strings.Contains(res.Reason, "one JSON object") {
			t.Errorf("%s: %s %q, want a failure about one JSON object", name, res.Verdict, res.Reason)
		}
	}
}
