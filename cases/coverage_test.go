package cases_test

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/cases/internal/coverage"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// MinCorpus is the size the corpus must keep.
const MinCorpus = 300

// coverageFile is the generated table, relative to this package.
var coverageFile = filepath.Join("..", "spec", "COVERAGE.md")

func report(t *testing.T) *coverage.Report {
	t.Helper()
	cs, err := cases.LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	return coverage.Build(cs, spec.Requirements(), spec.ErrorCodes())
}

func TestCorpusSize(t *testing.T) {
	t.Parallel()
	if r := report(t); r.Cases < MinCorpus {
		t.Errorf("the corpus has %d cases, want at least %d", r.Cases, MinCorpus)
	}
}

// TestEveryRequirementHasACase is the traceability gate: a requirement that
// no case cites is untested, so adding a requirement means adding a case.
func TestEveryRequirementHasACase(t *testing.T) {
	t.Parallel()
	r := report(t)
	for _, id := range r.Uncovered() {
		q, _ := spec.Lookup(id)
		t.Errorf("%s has no case: %s", id, q.Statement)
	}
	if got, want := r.Covered(), len(spec.Requirements()); got != want {
		t.Errorf("%d of %d requirements covered", got, want)
	}
}

// TestCasesCiteKnownRequirements repeats the loader's check from the other
// side: every ID a case cites is in the spec's index.
func TestCasesCiteKnownRequirements(t *testing.T) {
	t.Parallel()
	for id, names := range report(t).Unknown {
		t.Errorf("%s is not a requirement of the spec, but %v cite it", id, names)
	}
}

// TestErrorCodesCovered requires every error code to be expected by at least
// coverage.MinCasesPerCode cases, except the codes a case cannot arrange.
func TestErrorCodesCovered(t *testing.T) {
	t.Parallel()
	r := report(t)
	for _, code := range r.ThinCodes() {
		i := slices.IndexFunc(r.Codes, func(c coverage.Code) bool { return c.Code == code })
		t.Errorf("%s is expected by %d cases %v, want at least %d", code, len(r.Codes[i].Cases), r.Codes[i].Cases, coverage.MinCasesPerCode)
	}
	for code := range coverage.Unreachable {
		if !slices.Contains(spec.ErrorCodes(), code) {
			t.Errorf("coverage.Unreachable names %q, which is not an error code of the spec", code)
		}
	}
}

// TestCoverageTableIsFresh keeps spec/COVERAGE.md equal to what
// go generate ./cases writes.
func TestCoverageTableIsFresh(t *testing.T) {
	t.Parallel()
	want := report(t).Markdown()
	got, err := os.ReadFile(coverageFile)
	if err != nil {
		t.Fatalf("%v; run go generate ./cases", err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("%s is stale; run go generate ./cases (-file +generated):\n%s", coverageFile,
			cmp.Diff(string(got), string(want)))
	}
}

// TestExpectedCodes pins which expectations count for an error code.
func TestExpectedCodes(t *testing.T) {
	t.Parallel()
	c, err := cases.Options{}.Parse("x", []byte(`{
		"expect": "pass",
		"patch": "P",
		"expected_files": {},
		"reverse": {"expect": "fail", "error_code": "parse_error"},
		"retry": {"expect": "fail", "error_code": "hash_mismatch"}
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"hash_mismatch", "parse_error"}, coverage.ExpectedCodes(c)); d != "" {
		t.Errorf("outcomes (-want +got):\n%s", d)
	}
	s, err := cases.Options{}.Parse("y", []byte(`{
		"steps": [
			{"args": ["frob"], "exit": 1, "json": {"error": {"code": "unknown_command"}}, "unchanged": true},
			{"args": ["x"], "exit": 1, "json": {"ok": false, "error": {"code": "unknown_command"}}, "unchanged": true},
			{"args": ["version"], "exit": 0, "unchanged": true}
		]
	}`))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff([]string{"unknown_command"}, coverage.ExpectedCodes(s)); d != "" {
		t.Errorf("steps (-want +got):\n%s", d)
	}
}
