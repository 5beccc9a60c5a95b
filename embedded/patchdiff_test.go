package embedded

import (
	"context"
	"testing"

	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// TestPatchDIFFReferencePassesCorpus certifies the reference PatchDIFF
// runtime over the whole embedded PatchDIFF corpus, in process: every case,
// expectations written from the seed, must pass.
func TestPatchDIFFReferencePassesCorpus(t *testing.T) {
	t.Parallel()
	r := pdrunner.New(PatchDIFF())
	r.Seed = 1
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	requireAllPass(t, rep)
	if n := len(rep.Results); n < 400 {
		t.Errorf("%d PatchDIFF cases ran; the corpus holds at least 400", n)
	}
}
