package blockpatch

import (
	"context"
	"fmt"
	"io/fs"
	"path"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

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
