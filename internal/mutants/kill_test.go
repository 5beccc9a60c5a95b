package mutants

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"os"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// killersFile records, for each mutant, a few corpus cases that killed it
// in the last full kill matrix. The test runs those first, which keeps it
// fast; it is a hint, not an expectation: if they stop killing the mutant,
// the test fails and asks for the full matrix to be run again.
const killersFile = "testdata/killers.json"

var update = flag.Bool("update", false, "run the full kill matrix and rewrite "+killersFile)

// TestMain lets the runner re-execute this test binary as the reference,
// which it does for cases that must run without root's privileges.
func TestMain(m *testing.M) {
	if embedded.AsReference(os.Args[0]) {
		os.Exit(embedded.Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

func newRunner() *runner.Runner {
	r := runner.New(nil)
	r.Seed = 1
	return r
}

// Mutants switch process-wide faults on, so these tests run one at a time.

func TestEveryMutantIsKilled(t *testing.T) {
	ctx := context.Background()
	if *update {
		mx, err := Build(ctx, All, newRunner)
		if err != nil {
			t.Fatal(err)
		}
		t.Log("\n" + mx.String())
		hints := map[string][]string{}
		for name, kills := range mx.Kills {
			if name != DoNothing {
				hints[name] = kills[:min(3, len(kills))]
			}
		}
		data, _ := json.MarshalIndent(hints, "", "  ")
		if err := os.WriteFile(killersFile, append(data, '\n'), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	data, err := os.ReadFile(killersFile)
	if err != nil {
		t.Fatal(err)
	}
	var hints map[string][]string
	if err := json.Unmarshal(data, &hints); err != nil {
		t.Fatal(err)
	}
	for _, m := range All {
		if m.Name == DoNothing {
			continue
		}
		names := hints[m.Name]
		if len(names) == 0 {
			t.Errorf("mutant %s (%s) has no recorded killer; run go test ./internal/mutants -update", m.Name, m.Mistake)
			continue
		}
		r := newRunner()
		r.RunRegexp = Select(names)
		rep, err := Run(ctx, m, r)
		switch {
		case errors.Is(err, runner.ErrNoCases):
			t.Errorf("mutant %s: its recorded killers %q are gone from the corpus; run go test ./internal/mutants -update", m.Name, names)
		case err != nil:
			t.Fatalf("mutant %s: %v", m.Name, err)
		case len(Kills(rep)) == 0:
			t.Errorf("mutant %s (%s) survives its recorded killers %q; if no case kills it any more, the corpus got weaker; run go test ./internal/mutants -update to see", m.Name, m.Mistake, names)
		}
	}
}

// TestDoNothingPassesNoPassCase runs the whole corpus against an
// implementation that does nothing and says {"ok":true}: a pass-case it
// passes would certify nothing.
func TestDoNothingPassesNoPassCase(t *testing.T) {
	rep, err := Run(context.Background(), Mutant{Name: DoNothing}, newRunner())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, res := range rep.Results {
		if res.Case != nil && res.Case.Expect == cases.Pass {
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

func TestCatalogNamesUnique(t *testing.T) {
	seen := map[string]bool{}
	for _, m := range All {
		if seen[m.Name] || (m.Fault == "") != (m.Name == DoNothing) {
			t.Errorf("mutant %s: duplicate name or fault missing", m.Name)
		}
		seen[m.Name] = true
	}
	if len(All) < 31 {
		t.Errorf("%d mutants; want at least 30 besides do-nothing", len(All)-1)
	}
}
