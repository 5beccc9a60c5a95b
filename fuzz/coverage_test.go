package fuzz

import (
	"flag"
	"os"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var update = flag.Bool("update", false, "rewrite "+CoverageFile+" from the generators")

// TestCoverageTableIsCurrent: the committed generator coverage table is
// what the generators draw now.
func TestCoverageTableIsCurrent(t *testing.T) {
	t.Parallel()
	want := Coverage()
	if *update {
		if err := os.WriteFile(CoverageFile, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(CoverageFile)
	if err != nil {
		t.Fatal(err)
	}
	if string(got) != want {
		t.Errorf("%s is stale; run go test ./fuzz -run TestCoverageTableIsCurrent -update (-want +got):\n%s", CoverageFile, cmp.Diff(want, string(got)))
	}
}
