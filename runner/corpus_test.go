package runner

import (
	"context"
	"regexp"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

// TestReferencePassesCorpus certifies the reference over the whole
// embedded corpus, in process: every case, expectations written from the
// spec, must pass.
func TestReferencePassesCorpus(t *testing.T) {
	t.Parallel()
	r := New(Reference())
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

// TestReferenceProcessPassesStepCases runs the corpus's command-line
// cases through the reference as a separate process, the way an external
// implementation runs.
func TestReferenceProcessPassesStepCases(t *testing.T) {
	t.Parallel()
	all, err := cases.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var names []string
	for _, c := range all {
		if c.Protocol == cases.Steps {
			names = append(names, regexp.QuoteMeta(c.Name))
		}
	}
	impl, err := ReferenceExec()
	if err != nil {
		t.Fatal(err)
	}
	r := New(impl)
	r.Seed = 1
	r.RunRegexp = regexp.MustCompile("^(" + strings.Join(names, "|") + ")$")
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if len(rep.Results) != len(names) || len(names) == 0 {
		t.Errorf("%d step cases ran, want %d", len(rep.Results), len(names))
	}
}

// TestReferencePassesDerivedCases: every fail case cases.Derive makes from
// the corpus expects the code of the rule it breaks, and the reference
// reports exactly that code with the tree untouched.
func TestReferencePassesDerivedCases(t *testing.T) {
	t.Parallel()
	r := New(Reference())
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

// TestRaceCasesNeedTheHoldFeature: an implementation that does not list
// hold-before-commit gets the race cases as unsupported, not failed.
func TestRaceCasesNeedTheHoldFeature(t *testing.T) {
	t.Parallel()
	quiet := Func(func(_ context.Context, inv Invocation) Outcome {
		return Outcome{Stdout: []byte(`{"ok":true,"version":"0"}` + "\n")}
	})
	r := New(quiet)
	r.Seed = 1
	r.RunRegexp = regexp.MustCompile(`^write/race-`)
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Results) == 0 {
		t.Fatal("no race case in the corpus")
	}
	for _, res := range rep.Results {
		if res.Verdict != Unsupported {
			t.Errorf("%s: %s (%s), want unsupported", res.Name, res.Verdict, res.Reason)
		}
	}
}
