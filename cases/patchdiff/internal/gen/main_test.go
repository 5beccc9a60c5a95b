package main

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCorpusIsFresh keeps the committed corpus equal to what gen writes:
// a case edited by hand, or a gen change not run, fails here.
func TestCorpusIsFresh(t *testing.T) {
	root := filepath.Join("..", "..", "testdata", "corpus")
	want := map[string][]byte{}
	for _, c := range allCases() {
		want[c.name] = c.encode()
	}
	for name, data := range replayCases() {
		want[name] = data
	}
	seen := 0
	err := filepath.WalkDir(root, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(root, p)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".json")
		got, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		w, ok := want[name]
		switch {
		case !ok:
			t.Errorf("%s: not written by gen", name)
		case !bytes.Equal(got, w):
			t.Errorf("%s: differs from gen's output: run go run ./cases/patchdiff/internal/gen", name)
		}
		seen++
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen != len(want) {
		t.Errorf("%d files, gen writes %d: run go run ./cases/patchdiff/internal/gen", seen, len(want))
	}
}
