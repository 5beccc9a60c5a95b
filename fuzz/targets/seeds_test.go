package targets

import (
	"encoding/base64"
	"encoding/json"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
)

// corpusPatches returns the patches of the embedded case corpus, read
// leniently: a case the loader would refuse still makes a fine seed.
func corpusPatches(tb testing.TB) [][]byte {
	var out [][]byte
	fsys := cases.Corpus()
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path.Base(p) != "case.json" {
			return err
		}
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		var c struct {
			Patch json.RawMessage `json:"patch"`
		}
		if json.Unmarshal(data, &c) != nil || c.Patch == nil {
			return nil
		}
		if b := content(c.Patch); b != nil {
			out = append(out, b)
		}
		return nil
	})
	if err != nil {
		tb.Logf("reading the corpus for seeds: %v", err)
	}
	return out
}

// content decodes the case format's content forms.
func content(raw json.RawMessage) []byte {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return []byte(s)
	}
	var o struct {
		Text   *string  `json:"text"`
		Base64 *string  `json:"base64"`
		Lines  []string `json:"lines"`
	}
	if json.Unmarshal(raw, &o) != nil {
		return nil
	}
	switch {
	case o.Text != nil:
		return []byte(*o.Text)
	case o.Base64 != nil:
		b, _ := base64.StdEncoding.DecodeString(*o.Base64)
		return b
	case o.Lines != nil:
		return []byte(strings.Join(o.Lines, "\n") + "\n")
	}
	return nil
}

// generatedPatches returns n patches from the generator, mutated or not.
func generatedPatches(n int) [][]byte {
	var out [][]byte
	for i := range uint64(n) {
		sc := gen.Build(gen.Random(gen.NewRand(20251202, i), gen.Options{Protocols: []int{gen.ProtoPatch, gen.ProtoPlanned}}))
		out = append(out, sc.Patch)
	}
	return out
}

func osWriteFile(dir, name string, data []byte) error {
	return os.WriteFile(filepath.Join(dir, name), data, 0o644)
}
