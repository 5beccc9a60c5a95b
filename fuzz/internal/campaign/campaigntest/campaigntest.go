// Package campaigntest holds the checks both suites' campaign tests make
// (fuzz and fuzz/patchdiff): a campaign that must find nothing, and case
// files the runner must see pass or fail.
package campaigntest

import (
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Run logs a campaign's report and fails the test on its harness error.
func Run(t *testing.T, r *campaign.Report, err error) {
	t.Helper()
	if r != nil {
		t.Log(r)
	}
	if err != nil {
		t.Fatal(err)
	}
}

// Agrees requires a campaign of n iterations with no disagreement: the
// reference against itself.
func Agrees(t *testing.T, n int64, r *campaign.Report, err error) {
	t.Helper()
	Run(t, r, err)
	if r.Iterations != n || r.Disagreements != 0 {
		t.Fatalf("%d iterations, %d disagreements; want %d and 0", r.Iterations, r.Disagreements, n)
	}
}

// Certified checks a runner's report on the written cases: every case
// passes (pass) or fails (!pass) on the implementation called name.
func Certified(t *testing.T, name string, rep *runner.Report, err error, pass bool) {
	t.Helper()
	if err != nil {
		t.Fatalf("runner: %v", err)
	}
	for _, res := range rep.Results {
		if res.Verdict.Failed() == pass {
			t.Errorf("case %s: verdict %s on %s, want it to %s: %s", res.Name, res.Verdict, name,
				map[bool]string{true: "pass", false: "fail"}[pass], res.Reason)
		}
	}
}
