package pdfuzz

import (
	"context"
	"encoding/json"
	"regexp"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// certifyGenerated certifies a by n cases generated from seed alone.
func certifyGenerated(t *testing.T, a pdrunner.Applier, seed uint64, n int) *runner.Report {
	t.Helper()
	r := pdrunner.New(a)
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

// TestGeneratedReferencePasses: the reference runtime passes the cases
// generated from its own results, for several seeds.
func TestGeneratedReferencePasses(t *testing.T) {
	t.Parallel()
	for _, seed := range []uint64{1, 2, 3, 0xdecafbad} {
		for _, res := range certifyGenerated(t, embedded.PatchDIFF(), seed, 30).Results {
			if res.Verdict != runner.Pass {
				t.Errorf("seed %d: %s: %s: %s", seed, res.Name, res.Verdict, res.Reason)
			}
		}
	}
}

// TestGeneratedCatchMemoriser: an applier that answers as the reference
// does every request a corpus case sends, and with an error any other,
// passes the corpus and fails every generated case.
func TestGeneratedCatchMemoriser(t *testing.T) {
	t.Parallel()
	cs, _, err := pdrunner.New(nil).Load()
	if err != nil {
		t.Fatal(err)
	}
	known := map[string]bool{}
	for _, c := range cs {
		known[string(c.RequestJSON())] = true
	}
	ref := embedded.PatchDIFF().(pdrunner.InProcess)
	memoriser := pdrunner.InProcess{Name: "memoriser", Serve: func(line []byte) []byte {
		var m pdrunner.Message
		if json.Unmarshal(line, &m) == nil && m.Request != nil && !known[string(m.Request)] {
			out, _ := json.Marshal(pdrunner.Message{ID: m.ID, Error: &pdrunner.MessageError{Message: "never seen"}})
			return out
		}
		return ref.Serve(line)
	}}
	rep := certifyGenerated(t, memoriser, 7, 30)
	if c := rep.Certificate; c.Failed != c.Selected {
		t.Errorf("the memoriser passed %d of %d generated cases", c.Passed, c.Selected)
	}
	r := pdrunner.New(memoriser)
	r.TempDir, r.Parallel = t.TempDir(), 2
	corpus, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if c := corpus.Certificate; c.Failed > 0 {
		t.Errorf("the memoriser fails %d of the corpus' %d cases: it should know them", c.Failed, c.Selected)
	}
}
