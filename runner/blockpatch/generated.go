package blockpatch

import (
	"context"
	"fmt"
	"io/fs"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Generator makes n cases from seed as a folder of case files (names
// generated/NNN), with tempDir for its own folders. The certifier passes
// fuzz.Generate, which judges generated scenarios by the embedded
// reference; the runner itself knows no reference.
type Generator func(ctx context.Context, seed uint64, n int, tempDir string) (fs.FS, error)

// DefaultGenerated is how many generated cases a certificate runs unless
// told otherwise: enough that an implementation which memorised the
// corpus fails some, few enough to cost a second or two of the run.
const DefaultGenerated = 30

// generated makes r.Generated cases with r.Generate from seed and loads
// them; they count apart from the corpus and its hash.
func (r *Runner) generated(ctx context.Context, seed uint64) ([]loaded, *runner.GeneratedInfo, error) {
	if r.Generated <= 0 || r.Generate == nil {
		return nil, nil, nil
	}
	fsys, err := r.Generate(ctx, seed, r.Generated, r.TempDir)
	if err != nil {
		return nil, nil, err
	}
	label := fmt.Sprintf("generated from seed %d", seed)
	out, _, err := runner.Gather(1, func(int) (string, []*cases.Case, error) {
		cs, err := cases.Options{}.Load(fsys, ".")
		return label, cs, err
	}, func(_ int, c *cases.Case) (string, []byte, error) {
		data, err := fs.ReadFile(fsys, path.Join(c.Name, cases.CaseFile))
		return c.Name, data, err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, &runner.GeneratedInfo{Seed: seed, Cases: len(out)}, nil
}

// withGenerated adds the generated cases to the loaded ones, in name
// order; a name the corpus already has is an error.
func withGenerated(all, gen []loaded) ([]loaded, error) {
	if len(gen) == 0 {
		return all, nil
	}
	out := slices.Concat(all, gen)
	slices.SortFunc(out, func(a, b loaded) int { return strings.Compare(a.Case.Name, b.Case.Name) })
	for i := 1; i < len(out); i++ {
		if out[i].Case.Name == out[i-1].Case.Name {
			return nil, fmt.Errorf("case %s is both loaded and generated: rename the loaded one or run with --generated 0", out[i].Case.Name)
		}
	}
	return out, nil
}
