package mutants

import (
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// A survivor is judged by its file's twin tests where the file has them,
// by its whole package where it has none, and then by the suite's other
// test packages.
func TestOpinionRuns(t *testing.T) {
	t.Parallel()
	root, err := ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		suite    Suite
		file     string
		pkgs     []string
		twinTest string // a test of the twin the first run selects; "" for every test
	}{
		{PatchDIFF, "reference/patchdiff/json.go", []string{"reference/patchdiff", "fuzz/patchdiff"}, ""},
		{PatchDIFF, "reference/patchdiff/request.go", []string{"reference/patchdiff", "fuzz/patchdiff"}, "TestRequestMarshalJSON"},
		{Blockpatch, "reference/cli/move.go", []string{"reference/cli"}, ""},
		{Blockpatch, "reference/cli/json.go", []string{"reference/cli"}, "TestAppendJSONBodyEveryByte"},
	} {
		runs := opinionRuns(root, tt.suite, tt.file)
		var pkgs []string
		for i, r := range runs {
			pkgs = append(pkgs, r.pkg)
			if i > 0 && r.pattern != "" {
				t.Errorf("%s: run %d of %s selects %q, want every test", tt.file, i+1, r.pkg, r.pattern)
			}
		}
		if diff := cmp.Diff(tt.pkgs, pkgs); diff != "" {
			t.Errorf("%s: packages (-want +got):\n%s", tt.file, diff)
		}
		first := runs[0].pattern
		switch {
		case tt.twinTest == "" && first != "":
			t.Errorf("%s has no twin, but its package's run selects %q", tt.file, first)
		case tt.twinTest != "" && !slices.Contains(strings.Split(strings.Trim(first, "^()$"), "|"), tt.twinTest):
			t.Errorf("%s: its package's run selects %q, want its twin's tests, %s among them", tt.file, first, tt.twinTest)
		}
	}
}
