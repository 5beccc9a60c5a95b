package pdfuzz

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path"
	"testing/fstest"
	"time"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// GeneratedDir is the folder of the cases Generate makes: their names are
// generated/NNN.
const GeneratedDir = "generated"

// Generate makes n cases from seed, for a certificate to run besides its
// corpus: the calls of iterations 0 … n-1 of a campaign with that seed,
// each asked of the embedded reference and written by the campaign's case
// writer, so that its expectation is the reference's result, judged as the
// campaign judges (pdcases' Compare). Case generated/K is iteration K:
// `patchdiff-fuzz --seed S --replay K -- ADAPTER` runs it as a campaign.
// The cases are returned as a folder of case files (Root "."); tempDir
// holds the reference's session folder (empty: os.TempDir()).
func Generate(ctx context.Context, seed uint64, n int, tempDir string) (fs.FS, error) {
	out := fstest.MapFS{}
	if n <= 0 {
		return out, nil
	}
	dir, err := os.MkdirTemp(tempDir, "patchdiff-generate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	ref := pdrunner.NewClient(embedded.PatchDIFF(), dir, 10*time.Second)
	defer ref.Close()
	width := max(3, len(fmt.Sprint(n-1)))
	for k := range n {
		call := Build(Random(NewRand(seed, int64(k))))
		req, err := call.Request.MarshalJSON()
		if err != nil {
			return nil, err
		}
		name := path.Join(GeneratedDir, fmt.Sprintf("%0*d", width, k))
		want, err := ref.Call(ctx, req)
		if err == nil && want.Verdict != runner.Pass {
			err = fmt.Errorf("%s: %s", want.Verdict, want.Why)
		}
		var result map[string]any
		if err == nil {
			err = json.Unmarshal(want.Result, &result)
		}
		var data []byte
		if err == nil {
			data, err = caseFile(call, req, result, fmt.Sprintf("generated from seed %d, iteration %d; the expectation is the reference's result", seed, k))
		}
		if err == nil {
			_, err = pdcases.Options{}.Parse(name, data)
		}
		if err != nil {
			return nil, fmt.Errorf("generating case %s of seed %d: %w", name, seed, err)
		}
		out[name+".json"] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return out, nil
}
