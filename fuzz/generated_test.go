package fuzz

import (
	"context"
	"crypto/sha256"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// certifyGenerated certifies impl by n cases generated from seed alone.
func certifyGenerated(t *testing.T, impl runner.Implementation, seed uint64, n int) *runner.Report {
	t.Helper()
	r := blockpatch.New(impl)
	r.Generated, r.Generate = n, Generate
	r.RunRegexp = regexp.MustCompile(`^` + GeneratedDir + `/`)
	r.Seed, r.TempDir, r.Parallel = seed, t.TempDir(), 2
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if g := rep.Certificate.Generated; g == nil || g.Seed != seed || g.Cases != n || rep.Certificate.Selected != n {
		t.Fatalf("certificate: generated %+v, %d selected; want %d cases from seed %d", g, rep.Certificate.Selected, n, seed)
	}
	return rep
}

// TestGeneratedReferencePasses: the reference passes the cases generated
// from its own outcomes, for several seeds: the case writer and the
// runner judge alike.
func TestGeneratedReferencePasses(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3, 0xdecafbad} {
		rep := certifyGenerated(t, embedded.Reference(), seed, 30)
		for _, res := range rep.Results {
			if res.Verdict != runner.Pass {
				t.Errorf("seed %d: %s: %s: %s", seed, res.Name, res.Verdict, res.Reason)
			}
		}
	}
}

// memoriser is an implementation that knows every case of the corpus: it
// answers as the reference does when its input (each file named on its
// command line, and its standard input) is one a corpus case gives, and
// fails with a parse error on any input it has never seen.
type memoriser struct {
	runner.Implementation
	known map[[32]byte]bool
}

func newMemoriser(t *testing.T) *memoriser {
	cs, _, err := blockpatch.New(nil).Load()
	if err != nil {
		t.Fatal(err)
	}
	m := &memoriser{Implementation: embedded.Reference(), known: map[[32]byte]bool{}}
	for _, c := range cs {
		for _, in := range [][]byte{c.Patch, c.Request, c.ExpectedPatch} {
			m.known[sha256.Sum256(in)] = true
		}
		for _, s := range c.Steps {
			m.known[sha256.Sum256(s.Stdin)] = true
		}
	}
	return m
}

func (m *memoriser) Exec(ctx context.Context, inv runner.Invocation) runner.Outcome {
	var inputs [][]byte
	if len(inv.Stdin) > 0 {
		inputs = append(inputs, inv.Stdin)
	}
	for _, a := range inv.Args {
		p := a
		if !filepath.IsAbs(p) {
			p = filepath.Join(inv.Dir, p)
		}
		if info, err := os.Stat(p); err == nil && info.Mode().IsRegular() {
			if data, err := os.ReadFile(p); err == nil {
				inputs = append(inputs, data)
			}
		}
	}
	for _, in := range inputs {
		if !m.known[sha256.Sum256(in)] {
			return runner.Outcome{Exit: 1, Stderr: []byte(`{"ok":false,"error":{"code":"parse_error","message":"never seen"}}` + "\n")}
		}
	}
	return m.Implementation.Exec(ctx, inv)
}

// TestGeneratedCatchMemoriser: an implementation that replays the corpus
// (it answers right wherever its input is a corpus case's) passes the
// corpus cases it can recognise, yet fails generated cases.
func TestGeneratedCatchMemoriser(t *testing.T) {
	t.Parallel()
	m := newMemoriser(t)
	// It passes some generated cases by luck: its one answer, a parse
	// error, is the right one for many a damaged patch (9 of seed 7's 30).
	rep := certifyGenerated(t, m, 7, 30)
	if c := rep.Certificate; c.Failed < c.Selected/2 {
		t.Fatalf("the memoriser passed %d of %d generated cases", c.Passed, c.Selected)
	}
	t.Logf("the memoriser failed %d of %d generated cases", rep.Certificate.Failed, rep.Certificate.Selected)

	r := blockpatch.New(m)
	r.RunRegexp = regexp.MustCompile(`^apply/`)
	r.TempDir, r.Parallel = t.TempDir(), 2
	corpus, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if corpus.Certificate.Failed > 0 {
		t.Errorf("the memoriser fails %d of the corpus' %d apply/ cases: it should know them", corpus.Certificate.Failed, corpus.Certificate.Selected)
	}
}

// TestGenerateReplays: a seed makes the same case files every time, and
// another seed other ones.
func TestGenerateReplays(t *testing.T) {
	t.Parallel()
	files := func(seed uint64) map[string]string {
		fsys, err := Generate(context.Background(), seed, 5, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		out := map[string]string{}
		err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && !d.IsDir() {
				data, rerr := fs.ReadFile(fsys, p)
				out[p], err = string(data), rerr
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	a, b, c := files(11), files(11), files(12)
	if len(a) != 5 {
		t.Fatalf("%d case files, want 5", len(a))
	}
	if diff := cmp.Diff(a, b); diff != "" {
		t.Errorf("seed 11 twice (-first +second):\n%s", diff)
	}
	if cmp.Equal(a, c) {
		t.Error("seeds 11 and 12 make the same cases")
	}
}
