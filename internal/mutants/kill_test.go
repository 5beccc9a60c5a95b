package mutants

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"slices"
	"sync"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// killersFile records, for each hand-written mutant, a few corpus cases
// that killed it in the last full kill matrix. The test builds every
// mutant and runs only those cases, which keeps it fast; if they stop
// killing the mutant, the test fails and asks for the full matrix to be
// run again.
const killersFile = "testdata/killers.json"

var update = flag.Bool("update", false, "run the full kill matrix of the hand-written mutants and rewrite "+killersFile)

// TestMain lets the runner re-execute this test binary as the reference,
// which it does for cases that must run without root's privileges.
func TestMain(m *testing.M) {
	embedded.ServeIfReference()
	os.Exit(m.Run())
}

func newRunner() *blockpatch.Runner {
	r := blockpatch.New(nil)
	r.Seed = 1
	r.Parallel = 1
	return r
}

func testBuilder(t *testing.T) *Builder {
	t.Helper()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	return &Builder{Module: root, Dir: t.TempDir()}
}

func handMutants(t *testing.T) []Mutant {
	t.Helper()
	ms, err := Hand()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 30 {
		t.Fatalf("%d hand-written mutants; want at least 30", len(ms))
	}
	return ms
}

// TestHandMutantsApply checks every hand-written diff still applies to the
// reference and changes it.
func TestHandMutantsApply(t *testing.T) {
	b := testBuilder(t)
	for _, m := range handMutants(t) {
		patched, err := b.Patch(m)
		if err != nil {
			t.Errorf("%v\nrefresh %s/%s.diff against the current reference (see %s/README.md)", err, HandDir, m.Name, HandDir)
			continue
		}
		if m.Mistake == "" {
			t.Errorf("%s: the diff's first line must say what the mistake is", m.Name)
		}
		for p, data := range patched {
			orig, err := os.ReadFile(b.Module + "/" + p)
			if err != nil || string(orig) == string(data) {
				t.Errorf("%s: changes nothing in %s", m.Name, p)
			}
		}
	}
}

// TestEveryHandMutantIsKilled builds every hand-written mutant and
// certifies it, as a separate process, over its recorded killers.
func TestEveryHandMutantIsKilled(t *testing.T) {
	ctx := context.Background()
	ms := handMutants(t)
	b := testBuilder(t)
	var hints map[string][]string
	if !*update {
		data, err := os.ReadFile(killersFile)
		if err != nil {
			t.Fatal(err)
		}
		if err := json.Unmarshal(data, &hints); err != nil {
			t.Fatal(err)
		}
	}
	var mu sync.Mutex
	mx := &Matrix{Kills: map[string][]string{}}
	b.Each(ctx, ms, 2, func(m Mutant, impl *runner.Command, err error) {
		if err != nil {
			t.Errorf("%v", err)
			return
		}
		judge := Judge{Certify: BlockpatchCertifier(newRunner), FailFast: !*update}
		if *update {
			jd, err := judge.Run(ctx, impl, nil)
			if err != nil {
				t.Errorf("mutant %s: %v", m.Name, err)
				return
			}
			mu.Lock()
			mx.Kills[m.Name] = jd.Killers
			mu.Unlock()
			return
		}
		names := hints[m.Name]
		if len(names) == 0 {
			t.Errorf("mutant %s (%s) has no recorded killer; run go test ./internal/mutants -run TestEveryHandMutantIsKilled -update", m.Name, m.Mistake)
			return
		}
		jd, err := judge.run(ctx, impl, runner.Select(names), nil)
		switch {
		case errors.Is(err, runner.ErrNoCases):
			t.Errorf("mutant %s: its recorded killers %q are gone from the corpus; run go test ./internal/mutants -run TestEveryHandMutantIsKilled -update", m.Name, names)
		case err != nil:
			t.Errorf("mutant %s: %v", m.Name, err)
		case !jd.Killed():
			t.Errorf("mutant %s (%s) survives its recorded killers %q; if no case kills it any more, the corpus got weaker; run go test ./internal/mutants -run TestEveryHandMutantIsKilled -update to see", m.Name, m.Mistake, names)
		}
	})
	if !*update || t.Failed() {
		return
	}
	all, _, err := newRunner().Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range all {
		mx.Cases = append(mx.Cases, c.Name)
	}
	t.Log("\n" + mx.String())
	for _, s := range mx.Survivors() {
		t.Errorf("mutant %s survives the whole corpus", s)
	}
	hints = map[string][]string{}
	for name, kills := range mx.Kills {
		hints[name] = kills[:min(3, len(kills))]
	}
	data, _ := json.MarshalIndent(hints, "", "  ")
	if err := os.WriteFile(killersFile, append(data, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestDoNothingPassesNoPassCase runs the whole corpus against an
// implementation that does nothing and says {"ok":true}: a pass-case it
// passes would certify nothing.
func TestDoNothingPassesNoPassCase(t *testing.T) {
	r := blockpatch.New(DoNothingImpl())
	r.Seed = 1
	r.Require = slices.Clone(cases.Levels)
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range rep.Results {
		if res.Expect == string(cases.Pass) {
			n++
			if res.Verdict == runner.Pass {
				t.Errorf("%s: the do-nothing implementation passes this pass-case", res.Name)
			}
		}
	}
	all, err := cases.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	want := 0
	for _, c := range all {
		if c.Expect == cases.Pass {
			want++
		}
	}
	if n != want || n == 0 {
		t.Errorf("%d pass-cases ran; the corpus has %d", n, want)
	}
}
