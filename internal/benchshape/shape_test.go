package benchshape_test

import (
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/benchshape"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// TestShapesPlanAndCheck: every shape's move is unique and planned, and
// the patch rendered for it checks as applicable, so the benchmarks time
// successful runs.
func TestShapesPlanAndCheck(t *testing.T) {
	t.Parallel()
	for _, s := range benchshape.Shapes {
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			tree := s.Build(256 << 10)
			req, err := reference.DecodeRequest(tree.Request())
			if err != nil {
				t.Fatal(err)
			}
			files := reference.MapFiles(tree.Files)
			plan, err := reference.PlanRequest(req, files)
			if err != nil {
				t.Fatal(err)
			}
			checked, err := reference.Check([]byte(*plan.Result.Patch), files, reference.Options{Strip: 1})
			if err != nil || checked.Result.Status != reference.StatusApplied {
				t.Fatalf("check: %v %+v", err, checked)
			}
			if got := len(plan.Changes); got != len(tree.Touched()) {
				t.Errorf("the move changes %d files, Touched lists %d", got, len(tree.Touched()))
			}
		})
	}
}
