package pdcases

import (
	"bytes"
	"os"
	"testing"
)

// TestCoverageIsFresh keeps COVERAGE.md equal to what go generate writes.
func TestCoverageIsFresh(t *testing.T) {
	t.Parallel()
	want := Coverage(loadCorpus(t)).Markdown()
	got, err := os.ReadFile("COVERAGE.md")
	if err != nil || !bytes.Equal(got, want) {
		t.Errorf("COVERAGE.md is stale: run go generate ./cases/patchdiff")
	}
}

// TestEveryRequirementCovered wants MinCases cases per requirement.
func TestEveryRequirementCovered(t *testing.T) {
	t.Parallel()
	for _, r := range Coverage(loadCorpus(t)).Requirements {
		if _, ok := Untraced[r.Name]; ok {
			continue
		}
		if len(r.Cases) < MinCases {
			t.Errorf("%s: %d cases, want at least %d", r.Name, len(r.Cases), MinCases)
		}
	}
}

// TestEveryLabelCovered wants MinCases cases per runtime label, warning
// code and stage, except the labels in Unreachable, which none may expect.
func TestEveryLabelCovered(t *testing.T) {
	t.Parallel()
	r := Coverage(loadCorpus(t))
	for _, group := range [][]Traced{r.Labels, r.Warnings, r.Stages} {
		for _, l := range group {
			_, unreachable := Unreachable[l.Name]
			switch {
			case unreachable && len(l.Cases) > 0:
				t.Errorf("%s: unreachable, yet %v expect it", l.Name, l.Cases)
			case !unreachable && len(l.Cases) < MinCases:
				t.Errorf("%s: %d cases, want at least %d", l.Name, len(l.Cases), MinCases)
			}
		}
	}
}

// TestEveryProfileFormatCovered wants a case for each profile with each
// format, accepted or refused.
func TestEveryProfileFormatCovered(t *testing.T) {
	t.Parallel()
	r := Coverage(loadCorpus(t))
	for _, p := range []string{"patchdiff-mvp-0.1.0", "patchdiff-mvp-0.2.0", "patchdiff-mvp-0.2.1", "patchdiff-mvp-0.2.2", "patchdiff-mvp-0.3.0", "patchdiff-mvp-0.4.0", "patchdiff-mvp-0.5.0"} {
		for _, f := range []string{"patchdiff-tx/1", "patchdiff-tx/2", "patchdiff-tx/3"} {
			if r.ProfileFormat[[2]string{p, f}] == 0 {
				t.Errorf("no case runs %s under %s", f, p)
			}
		}
	}
}
