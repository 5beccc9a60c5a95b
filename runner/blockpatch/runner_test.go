package blockpatch

import (
	"context"
	"errors"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// reference is the reference CLI run in process: the implementation the
// runner's tests judge, and wrap to make broken ones. (Package embedded
// wires it for the certifier; this package does not link it.)
func reference() runner.Implementation {
	return runner.InProcess{Name: "reference (in process)", Main: func(args []string, e runner.Env) int {
		return cli.Run(args, cli.Env{Stdin: e.Stdin, Stdout: e.Stdout, Stderr: e.Stderr, Dir: e.Dir, Getenv: e.Getenv})
	}}
}

// testCases is a fixed set of cases this package controls: a copy of some
// corpus cases of every protocol and an upstream-shaped case.
const testCases = "testdata/cases"

// newRunner returns a runner over testCases with settings fit for tests.
func newRunner(t *testing.T, impl runner.Implementation) *Runner {
	t.Helper()
	r := New(impl)
	r.Sources = []Source{Dir(testCases)}
	r.TempDir = t.TempDir()
	r.Timeout = 10 * time.Second
	r.Seed = 1
	return r
}

func run(t *testing.T, r *Runner) *runner.Report {
	t.Helper()
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// verdicts maps case names to verdicts.
func verdicts(rep *runner.Report) map[string]runner.Verdict {
	out := map[string]runner.Verdict{}
	for _, res := range rep.Results {
		out[res.Name] = res.Verdict
	}
	return out
}

func requireAllPass(t *testing.T, rep *runner.Report) {
	t.Helper()
	for _, res := range rep.Results {
		if res.Verdict != runner.Pass {
			t.Errorf("%s", res.Text())
		}
	}
	if !rep.OK() || rep.Certificate.Passed != len(rep.Results) {
		t.Errorf("certificate: %d passed, %d failed, %d skipped of %d", rep.Certificate.Passed, rep.Certificate.Failed, rep.Certificate.Skipped, len(rep.Results))
	}
}

func TestReferenceCertifies(t *testing.T) {
	t.Parallel()
	rep := run(t, newRunner(t, reference()))
	requireAllPass(t, rep)
	if len(rep.Certificate.Partial) != 0 {
		t.Errorf("a full run is labelled partial: %q", rep.Certificate.Partial)
	}
	for _, l := range rep.Certificate.Levels {
		if l.Verdict != "passed" {
			t.Errorf("level %s: %s, want passed", l.Level, l.Verdict)
		}
	}
}

// coreOnly is the reference with no version command, no planner and no
// command-line forms beyond core.
var coreOnly = broken(func(inv runner.Invocation) (runner.Outcome, bool) {
	switch inv.Args[0] {
	case "version", "plan", "move":
		return jsonError("unknown_command"), true
	}
	for _, a := range inv.Args {
		if a == "-d" || a == "-i" {
			return jsonError("unknown_option"), true
		}
	}
	return runner.Outcome{}, false
}, nil)

func TestLevels(t *testing.T) {
	t.Parallel()
	rep := run(t, newRunner(t, coreOnly))
	if !rep.OK() {
		t.Fatalf("a core-only implementation fails: %d failed", rep.Certificate.Failed)
	}
	for _, res := range rep.Results {
		want := runner.Pass
		if !slices.Equal(res.Levels, []string{string(cases.Core)}) {
			want = runner.Unsupported
		}
		if res.Verdict != want {
			t.Errorf("%s (levels %v): %s, want %s", res.Name, res.Levels, res.Verdict, want)
		}
	}
	got := map[cases.Level]string{}
	for _, l := range rep.Certificate.Levels {
		got[cases.Level(l.Level)] = l.Verdict
	}
	want := map[cases.Level]string{cases.Core: "passed", cases.Planner: "unsupported", cases.CLI: "unsupported"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("levels (-want +got):\n%s", d)
	}
	if rep.Certificate.Version != "" {
		t.Errorf("version %q, want none", rep.Certificate.Version)
	}

	r := newRunner(t, coreOnly)
	r.Require = []cases.Level{cases.Planner}
	rep = run(t, r)
	if rep.OK() {
		t.Error("--require planner passes an implementation without plan")
	}
	for _, res := range rep.Results {
		if slices.Equal(res.Levels, []string{string(cases.Core), string(cases.Planner)}) && !res.Verdict.Failed() {
			t.Errorf("%s: %s, want a failure when planner is required", res.Name, res.Verdict)
		}
	}
}

func TestProbe(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	f, err := Probe(ctx, reference(), t.TempDir(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(cases.Levels, f.Claimed); d != "" {
		t.Errorf("reference levels (-want +got):\n%s", d)
	}
	if !strings.Contains(f.Version, cli.Version) {
		t.Errorf("version %q", f.Version)
	}
	if !f.Warnings {
		t.Error("the reference's plan printed no adjacent_bytes warning")
	}
	f, err = Probe(ctx, coreOnly, t.TempDir(), 5*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if f.Warnings {
		t.Error("an implementation without plan prints warnings")
	}
	if d := cmp.Diff([]cases.Level{cases.Core}, f.Claimed); d != "" {
		t.Errorf("core-only levels (-want +got):\n%s\n%v", d, f.How)
	}
	nothing := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true}`)}
	})
	if f, _ = Probe(ctx, nothing, t.TempDir(), time.Second); !slices.Equal(f.Claimed, cases.Levels) {
		t.Errorf("an implementation that rejects nothing claims %v, want every level", f.Claimed)
	}
}

func TestSkipList(t *testing.T) {
	t.Parallel()
	nothing := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true}`)}
	})
	list, err := runner.ParseSkipList([]byte("# expected failures\nplain/relocate  does nothing\n\nwrite/*\tdoes nothing either\n"))
	if err != nil {
		t.Fatal(err)
	}
	r := newRunner(t, nothing)
	r.SkipList = list
	rep := run(t, r)
	got := verdicts(rep)
	for _, name := range []string{"plain/relocate", "write/create-file-mode", "write/replaced-file-keeps-mode"} {
		if got[name] != runner.Skip {
			t.Errorf("%s: %s, want skip", name, got[name])
		}
	}
	if len(rep.Certificate.Partial) == 0 {
		t.Error("a run with expected failures is not labelled partial")
	}

	r = newRunner(t, reference())
	r.SkipList = list
	rep = run(t, r)
	if got := verdicts(rep)["plain/relocate"]; got != runner.UnexpectedPass {
		t.Errorf("a listed case that passes: %s, want unexpected-pass", got)
	}
	if rep.OK() {
		t.Error("an unexpected pass does not fail the run")
	}

	r = newRunner(t, reference())
	r.SkipList, _ = runner.ParseSkipList([]byte("no/such-case reason\n"))
	rep = run(t, r)
	if rep.OK() || len(rep.Problems) != 1 || !strings.Contains(rep.Problems[0], "matches no case") {
		t.Errorf("an entry that matches no case: problems %q, want it named and the run failed", rep.Problems)
	}
	for _, bad := range []string{"name-without-reason\n", "[ bad pattern\n"} {
		if _, err := runner.ParseSkipList([]byte(bad)); err == nil {
			t.Errorf("ParseSkipList(%q) accepted it", bad)
		}
	}
}

func TestSelection(t *testing.T) {
	t.Parallel()
	r := newRunner(t, reference())
	r.RunRegexp = regexp.MustCompile(`^nothing-matches$`)
	if _, err := r.Run(context.Background()); !errors.Is(err, runner.ErrNoCases) {
		t.Errorf("zero selected: %v, want ErrNoCases", err)
	}
	r = newRunner(t, reference())
	r.RunRegexp = regexp.MustCompile(`^write/`)
	r.SkipRegexp = regexp.MustCompile(`mode$`)
	r.RunRegexp = regexp.MustCompile(`^(write|plain)/`)
	rep := run(t, r)
	if names := slices.Sorted(maps.Keys(verdicts(rep))); !slices.Equal(names, []string{"plain/relocate"}) {
		t.Errorf("selected %q", names)
	}
	if len(rep.Certificate.Partial) == 0 {
		t.Error("a narrowed run is not labelled partial")
	}
}

func TestProfile(t *testing.T) {
	t.Parallel()
	r := newRunner(t, reference())
	r.Profile = "1.0"
	rep := run(t, r)
	for _, res := range rep.Results {
		want := runner.Pass
		if res.Since == "1.1" {
			want = runner.OutOfProfile
		}
		if res.Verdict != want {
			t.Errorf("%s (since %s): %s, want %s", res.Name, res.Since, res.Verdict, want)
		}
	}
	r.Profile = "2.0"
	if _, err := r.Run(context.Background()); err == nil {
		t.Error("profile 2.0 accepted")
	}
}

func TestSeedOrder(t *testing.T) {
	t.Parallel()
	order := func(seed uint64) []string {
		var mu sync.Mutex
		var seen []string
		ref := reference()
		impl := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
			box := filepath.Base(filepath.Dir(inv.Dir))
			mu.Lock()
			if isBoxName(box) && !slices.Contains(seen, box) {
				seen = append(seen, box)
			}
			mu.Unlock()
			return ref.Exec(ctx, inv)
		})
		r := newRunner(t, impl)
		r.Parallel, r.Seed = 1, seed
		run(t, r)
		return seen
	}
	a, b, c := order(7), order(7), order(8)
	if !slices.Equal(a, b) {
		t.Errorf("seed 7 gave two orders:\n%q\n%q", a, b)
	}
	if slices.Equal(a, c) {
		t.Errorf("seeds 7 and 8 gave the same order %q", a)
	}
}

func TestDuplicateNames(t *testing.T) {
	t.Parallel()
	r := newRunner(t, reference())
	r.Sources = []Source{Dir(testCases), Dir(testCases)}
	if _, err := r.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "in both") {
		t.Errorf("two sources with the same cases: %v", err)
	}
}

func TestCorpusHash(t *testing.T) {
	t.Parallel()
	r := newRunner(t, reference())
	_, h1, err := r.Load()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.CopyFS(dir, os.DirFS(testCases)); err != nil {
		t.Fatal(err)
	}
	r.Sources = []Source{Dir(dir)}
	if _, h2, _ := r.Load(); h2 != h1 {
		t.Errorf("the same cases elsewhere hash differently: %s, %s", h1, h2)
	}
	name := filepath.Join(dir, "plain", "relocate", "case.json")
	data, _ := os.ReadFile(name)
	os.WriteFile(name, append(data, ' '), 0o644)
	if _, h3, _ := r.Load(); h3 == h1 {
		t.Error("a changed case file keeps the corpus hash")
	}
}

// TestSkipFileRoundTrip: the skip file a failing run writes makes the next
// run pass with every failure expected; once the implementation is fixed,
// the entries are stale, and pruning removes them (comments kept) and
// lets the run pass.
func TestSkipFileRoundTrip(t *testing.T) {
	t.Parallel()
	nothing := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true}`)}
	})
	file := filepath.Join(t.TempDir(), "known.skip")
	r := newRunner(t, nothing)
	r.WriteSkipFile = file
	first := run(t, r)
	if first.OK() {
		t.Fatal("an implementation that does nothing passed")
	}
	list, err := runner.ReadSkipList(file)
	if err != nil {
		t.Fatal(err)
	}
	if len(list.Entries) != first.Certificate.Failed {
		t.Errorf("%d entries for %d failures", len(list.Entries), first.Certificate.Failed)
	}

	r = newRunner(t, nothing)
	r.SkipList = list
	second := run(t, r)
	if !second.OK() || second.Certificate.Skipped != first.Certificate.Failed {
		t.Errorf("with the written list: %d failed, %d skipped; want 0 and %d", second.Certificate.Failed, second.Certificate.Skipped, first.Certificate.Failed)
	}

	// The reference fixes everything: every entry is stale.
	data, _ := os.ReadFile(file)
	os.WriteFile(file, append(data, "# kept comment\nno/such-case  renamed away\n"...), 0o644)
	if list, err = runner.ReadSkipList(file); err != nil {
		t.Fatal(err)
	}
	r = newRunner(t, reference())
	r.SkipList = list
	stale := run(t, r)
	if stale.OK() || len(stale.StaleSkips) != len(list.Entries) {
		t.Errorf("fixed implementation: ok %v, %d stale of %d entries", stale.OK(), len(stale.StaleSkips), len(list.Entries))
	}
	r = newRunner(t, reference())
	r.SkipList = list
	r.PruneSkipList = true
	pruned := run(t, r)
	if !pruned.OK() || !pruned.Pruned {
		t.Errorf("pruning: ok %v, pruned %v, problems %q", pruned.OK(), pruned.Pruned, pruned.Problems)
	}
	after, err := runner.ReadSkipList(file)
	if err != nil {
		t.Fatal(err)
	}
	text, _ := os.ReadFile(file)
	if len(after.Entries) != 0 || !strings.Contains(string(text), "# kept comment\n") {
		t.Errorf("after pruning: %d entries, text:\n%s", len(after.Entries), text)
	}
}
