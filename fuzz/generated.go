package fuzz

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"
	"testing/fstest"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
)

// generatedSince is the profile generated cases hold from. The
// reference's outcomes are 1.1's, which the differential campaign holds
// against upstream 1.1.0 by default; 1.0 differs from them in ways no
// generator can tell apart (whole files, the mode member, warnings, which
// check comes first): at profile 1.0 upstream 1.0.0 failed 12 generated
// cases of seeds 1 to 10, while 1.1.0 and 1.1.1 passed all 180 of seeds 1
// to 6 at theirs.
const generatedSince = "1.1"

// maxTries bounds the iterations Generate tries per case it makes.
const maxTries = 4

// GeneratedDir is the folder of the cases Generate makes: their names are
// generated/NNN.
const GeneratedDir = "generated"

// Generate makes n cases from seed, for a certificate to run besides its
// corpus: the scenarios of iterations 0 … n-1 of a campaign with that
// seed, each run on the reference exactly as a campaign runs it and
// written by the campaign's case writer, so that its expectations are the
// reference's outcomes. Case generated/K is iteration K: `blockpatch-fuzz
// --seed S --replay K -- IMPL` runs it as a campaign, shrinking included.
// An implementation that has memorised the corpus meets these for the
// first time. Every case holds since generatedSince. An iteration whose case would not load (a move request
// naming a member twice, which case files refuse) is passed over, so the
// names may skip a number. The cases are returned as a folder of case files (Root ".");
// tempDir holds the reference's folders while they are made (empty:
// os.TempDir()).
func Generate(ctx context.Context, seed uint64, n int, tempDir string) (fs.FS, error) {
	out := fstest.MapFS{}
	if n <= 0 {
		return out, nil
	}
	root, err := os.MkdirTemp(tempDir, "blockpatch-generate-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(root)
	sb, err := newSandbox(root)
	if err != nil {
		return nil, err
	}
	ref := Reference()
	// The names leave room for the iterations passed over.
	width := max(3, len(fmt.Sprint(maxTries*n-1)))
	for k := 0; len(out) < n; k++ {
		if k == maxTries*n {
			return nil, fmt.Errorf("seed %d: only %d of %d iterations make a case that loads", seed, len(out), k)
		}
		sc := gen.Build(gen.Random(gen.NewRand(seed, uint64(k)), gen.Options{}))
		steps, err := referenceSteps(ctx, ref, sb, sc)
		if err != nil {
			return nil, fmt.Errorf("generating case %d of seed %d: %w", k, seed, err)
		}
		name := path.Join(GeneratedDir, fmt.Sprintf("%0*d", width, k))
		desc := fmt.Sprintf("Generated from seed %d, iteration %d (%s); the expectations are the reference's outcomes.",
			seed, k, strings.Join(sc.Notes, ", "))
		data, err := caseFile(sc, steps, desc, "", &caseMeta{since: generatedSince})
		if err != nil {
			return nil, fmt.Errorf("generating case %s of seed %d: %w", name, seed, err)
		}
		if loadable(name, data, false) != nil {
			continue // a request that names a member twice, which case files refuse
		}
		out[path.Join(name, cases.CaseFile)] = &fstest.MapFile{Data: data, Mode: 0o644}
	}
	return out, nil
}

// referenceSteps runs a scenario's protocol on the reference as
// worker.Run does: the full protocol when the reference passes it, else
// only the steps of a failing one.
func referenceSteps(ctx context.Context, ref Impl, sb *sandbox, sc *gen.Scenario) ([]Step, error) {
	steps := plan(sc, true)
	got, err := run(ctx, ref, sb, sc, steps, 10*time.Second)
	if err != nil {
		return nil, err
	}
	if !fullProtocol(sc, got) {
		steps = plan(sc, false)
		got = slices.DeleteFunc(got, func(s Step) bool { return find(steps, s.Name) == nil })
	}
	return got, nil
}
