package embedded

import (
	"context"
	"os"
	"regexp"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// TestReferencePassesCorpus certifies the reference over the whole
// embedded corpus, in process: every case, expectations written from the
// spec, must pass.
func TestReferencePassesCorpus(t *testing.T) {
	t.Parallel()
	r := blockpatch.New(Reference())
	r.Seed = 1
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if n := len(rep.Results); n < 300 {
		t.Errorf("%d corpus cases ran; the corpus holds at least 300", n)
	}
}

// TestReferenceProcessPasses runs the reference as a separate process, the
// way an external implementation runs, over the corpus's command-line cases
// and every tenth case of the other protocols.
func TestReferenceProcessPasses(t *testing.T) {
	t.Parallel()
	all, err := cases.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for i, c := range all {
		if c.Protocol == cases.Steps || i%10 == 0 {
			names = append(names, c.Name)
		}
	}
	impl, err := Process()
	if err != nil {
		t.Fatal(err)
	}
	r := blockpatch.New(impl)
	r.Seed = 1
	r.RunRegexp = runner.Select(names)
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if len(rep.Results) != len(names) || len(names) == 0 {
		t.Errorf("%d cases ran, want %d", len(rep.Results), len(names))
	}
}

// TestReferencePassesDerivedCases: every fail case cases.Derive makes from
// the corpus expects the code of the rule it breaks, and the reference
// reports exactly that code with the tree untouched.
func TestReferencePassesDerivedCases(t *testing.T) {
	t.Parallel()
	r := blockpatch.New(Reference())
	r.Seed, r.Derived = 1, true
	r.RunRegexp = regexp.MustCompile(`^derived/`)
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if rep.Certificate.Corpus.Derived < 300 || len(rep.Results) != rep.Certificate.Corpus.Derived {
		t.Errorf("%d derived cases ran of %d derived", len(rep.Results), rep.Certificate.Corpus.Derived)
	}
}

// upstream is the published blockpatch 1.1.0 conformance folder; it exists
// on developer machines and in CI, not in every clone.
const upstream = "../../shared/upstream-1.1.0/conformance/cases"

// TestUpstreamCases: the reference passes upstream's own ten cases.
func TestUpstreamCases(t *testing.T) {
	t.Parallel()
	if _, err := os.Stat(upstream); err != nil {
		t.Skipf("upstream cases not present: %v", err)
	}
	r := blockpatch.New(Reference())
	r.Sources = []blockpatch.Source{blockpatch.Dir(upstream)}
	r.Seed = 1
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if len(rep.Results) != 10 {
		t.Errorf("%d upstream cases, want 10", len(rep.Results))
	}
}
