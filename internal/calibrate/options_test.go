package calibrate

import (
	"bytes"
	"context"
	"io/fs"
	"path"
	"regexp"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/cases/known"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// TestOptionMatrix runs the option matrix (every spelling of every option
// of the spec's table, and some no release knows, in every form, on every
// command and before any) on the reference and on each release, and fails
// on any probe where they differ within the release's profile. It is how
// "which command takes which option" stays calibrated when a release
// appears (CLI-029…CLI-036). Without -calibrate.all each release runs
// every matrixSampleEvery-th probe.
// matrixSampleEvery is the share of the matrix a release runs without
// -calibrate.all: about 25 probes each.
const matrixSampleEvery = 32

func TestOptionMatrix(t *testing.T) {
	t.Parallel()
	probes := Matrix()
	ref, err := RunMatrix(context.Background(), embedded.Reference(), t.TempDir(), probes, 4)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d probes (%d commands × %d spellings and forms)", len(probes), len(matrixBases), len(probes)/len(matrixBases))
	if testing.Short() {
		t.Skip("running the matrix on upstream's releases takes minutes")
	}
	for i, rel := range known.Releases {
		t.Run(rel.Version, func(t *testing.T) {
			t.Parallel()
			impl, err := newPeer(t, rel.Version)
			if err != nil {
				t.Fatal(err)
			}
			var idx []int
			for j, p := range probes {
				if spec.Includes(rel.Profile, p.Since) && (*allCases || j%matrixSampleEvery == (3*i)%matrixSampleEvery) {
					idx = append(idx, j)
				}
			}
			sub := make([]Probe, len(idx))
			for k, j := range idx {
				sub[k] = probes[j]
			}
			got, err := RunMatrix(context.Background(), impl, t.TempDir(), sub, 2)
			if err != nil {
				t.Fatal(err)
			}
			differ := 0
			for k, j := range idx {
				if got[k] != ref[j] {
					differ++
					t.Errorf("%s %q: upstream %s: %s; reference: %s", probes[j].Name, probes[j].Args, rel.Version, got[k], ref[j])
				}
			}
			t.Logf("upstream %s at profile %s: %d probes, %d disagreements", rel.Version, rel.Profile, len(idx), differ)
		})
	}
}

// TestMatrixCoversTheTable: the matrix probes every spelling of every
// option on every command, and cites only requirements of the spec.
func TestMatrixCoversTheTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for _, p := range Matrix() {
		seen[p.Command+" "+p.Option] = true
		for _, id := range p.Requirements {
			if _, ok := spec.Lookup(id); !ok {
				t.Errorf("%s cites %s, which the spec does not define", p.Name, id)
			}
		}
		if !regexp.MustCompile(`^[a-z]+/[^/]+/[a-z-]+$`).MatchString(p.Name) {
			t.Errorf("probe name %q", p.Name)
		}
	}
	for _, b := range matrixBases {
		for _, o := range spec.Options() {
			for _, sp := range o.Spellings() {
				if !seen[b.command+" "+sp] {
					t.Errorf("no probe of %s on %q", sp, b.command)
				}
			}
		}
	}
}

// TestOptionCasesAreCurrent: the corpus's cases under OptionCasesDir are
// the ones OptionCases writes today, so the options table, the matrix and
// the cases cannot drift apart. They are generated from the canonical
// release (blockpatch-calibrate --option-cases); the reference, which
// agrees with it on the whole matrix, writes the same bytes, so the test
// runs it and needs no release. A difference in a step's expectation alone
// is a disagreement of the reference, which the corpus tests show too.
func TestOptionCasesAreCurrent(t *testing.T) {
	t.Parallel()
	want, err := OptionCases(context.Background(), embedded.Reference(), t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	corpus := cases.Corpus()
	for name, data := range want {
		got, err := fs.ReadFile(corpus, path.Join(name, "case.json"))
		if err != nil {
			t.Errorf("%s: %v (run blockpatch-calibrate --option-cases with the canonical release)", name, err)
			continue
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s differs from what the matrix gives now (run blockpatch-calibrate --option-cases with the canonical release):\n%s", name, data)
		}
	}
	err = fs.WalkDir(corpus, OptionCasesDir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "case.json" && want[path.Dir(p)] == nil {
			t.Errorf("%s: no probe of the matrix gives this case any more", path.Dir(p))
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d cases", len(want))
}
