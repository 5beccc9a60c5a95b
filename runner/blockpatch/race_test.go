package blockpatch

import (
	"context"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// TestRaceCasesNeedTheHoldFeature: an implementation that does not list
// hold-before-commit gets the race cases as unsupported, not failed.
func TestRaceCasesNeedTheHoldFeature(t *testing.T) {
	t.Parallel()
	quiet := runner.Func(func(_ context.Context, inv runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true,"version":"0"}` + "\n")}
	})
	all, err := cases.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	var races []string
	for _, c := range all {
		if c.NeedsHold() {
			races = append(races, c.Name)
		}
	}
	r := New(quiet)
	r.Seed = 1
	r.RunRegexp = runner.Select(races)
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if len(races) == 0 || len(rep.Results) != len(races) {
		t.Fatalf("%d race cases ran of %d in the corpus", len(rep.Results), len(races))
	}
	for _, res := range rep.Results {
		if res.Verdict != runner.Unsupported {
			t.Errorf("%s: %s (%s), want unsupported", res.Name, res.Verdict, res.Reason)
		}
	}
}
