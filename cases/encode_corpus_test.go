package cases

import (
	"bytes"
	"io/fs"
	"path"
	"testing"
)

// TestEncodeRoundTripsCorpus is the encoder's round-trip proof: every case
// file of the corpus, decoded and encoded again, gives its bytes back, so a
// rewrite without a migration changes nothing.
func TestEncodeRoundTripsCorpus(t *testing.T) {
	t.Parallel()
	n := 0
	err := fs.WalkDir(Corpus(), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != CaseFile {
			return err
		}
		n++
		data, err := fs.ReadFile(Corpus(), p)
		if err != nil {
			return err
		}
		doc, err := DecodeObject(data)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		got, err := Encode(doc)
		if err != nil {
			t.Errorf("%s: %v", p, err)
			return nil
		}
		if !bytes.Equal(got, data) {
			t.Errorf("%s: encoding differs from the file; first difference at line %d:\n%s", path.Dir(p), diffLine(data, got), got)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if n == 0 {
		t.Fatal("no case files in the corpus")
	}
}

func diffLine(a, b []byte) int {
	la, lb := bytes.Split(a, []byte("\n")), bytes.Split(b, []byte("\n"))
	for i := range min(len(la), len(lb)) {
		if !bytes.Equal(la[i], lb[i]) {
			return i + 1
		}
	}
	return min(len(la), len(lb)) + 1
}
