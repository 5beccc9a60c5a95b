package cases

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

func TestCorpus(t *testing.T) {
	t.Parallel()
	cs, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	if len(cs) == 0 {
		t.Fatal("empty corpus")
	}
	for _, c := range cs {
		if c.Upstream || c.Description == "" || len(c.Requirements) == 0 || !strings.Contains(c.Name, "/") {
			t.Errorf("%s: our cases carry metadata and live in an area folder", c.Name)
		}
	}
}

// TestCorpusEmbedded catches folders that go:embed leaves out (names
// starting with . or _): the embedded corpus must be the folder on disk.
func TestCorpusEmbedded(t *testing.T) {
	t.Parallel()
	embedded, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	disk, err := CorpusOptions.Load(os.DirFS(CorpusRoot), ".")
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(names(disk), names(embedded)); d != "" {
		t.Errorf("embedded corpus differs from %s (-disk +embedded):\n%s", CorpusRoot, d)
	}
}

// TestCorpusFeatures keeps one example case of each extension in the corpus.
func TestCorpusFeatures(t *testing.T) {
	t.Parallel()
	cs, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	features := map[string]func(c *Case) bool{
		"bytes that are not UTF-8": func(c *Case) bool {
			return anyEntry(c.Files, func(e Entry) bool { return !utf8.Valid(e.Data) })
		},
		"a stated mode": func(c *Case) bool {
			return anyEntry(c.Files, func(e Entry) bool { return e.Mode != 0 })
		},
		"a symlink in files": func(c *Case) bool {
			return anyEntry(c.Files, func(e Entry) bool { return e.Symlink != "" })
		},
		"a folder entry": func(c *Case) bool {
			return anyEntry(c.Files, func(e Entry) bool { return e.Dir })
		},
		"steps":                    func(c *Case) bool { return c.Protocol == Steps },
		"a planner request":        func(c *Case) bool { return c.Protocol == Planned },
		"error details":            func(c *Case) bool { return c.Error != nil },
		"a result":                 func(c *Case) bool { return c.Result != nil },
		"strip":                    func(c *Case) bool { return c.Strip != nil },
		"a reverse that is stated": func(c *Case) bool { return c.Reverse != nil && c.Reverse.Expect == Fail },
	}
	for name, has := range features {
		if !slices.ContainsFunc(cs, has) {
			t.Errorf("no corpus case shows %s", name)
		}
	}
}

func anyEntry(t Tree, f func(Entry) bool) bool {
	for _, e := range t {
		if f(e) {
			return true
		}
	}
	return false
}

// upstreamCases returns upstream's conformance folder, which lives in
// ../shared beside the repository, or skips the test without it.
func upstreamCases(t testing.TB) string {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Fatal("no go.mod above the test")
		}
		dir = parent
	}
	cases := filepath.Join(dir, "..", "shared", "upstream-1.1.0", "conformance", "cases")
	if _, err := os.Stat(cases); err != nil {
		t.Skipf("upstream cases not here: %v", err)
	}
	return cases
}

func TestUpstream(t *testing.T) {
	t.Parallel()
	cs, err := LoadDir(upstreamCases(t))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		"ambiguous-source", "ambiguous-target", "create-file", "crlf", "cross-file-relocation",
		"delete-existing-file", "insert-existing-file", "no-trailing-newline", "remove-file", "same-file-relocation",
	}
	if d := cmp.Diff(want, names(cs)); d != "" {
		t.Fatalf("names (-want +got):\n%s", d)
	}
	byName := map[string]*Case{}
	for _, c := range cs {
		byName[c.Name] = c
		if !c.Upstream || LevelsText(c.Levels) != "core" || c.Protocol != Standard || c.Since != DefaultSince {
			t.Errorf("%s: upstream=%v levels=%v protocol=%s since=%s", c.Name, c.Upstream, c.Levels, c.Protocol, c.Since)
		}
		if c.Expect == Pass && (c.Retry == nil || c.Reverse == nil) {
			t.Errorf("%s: a passing upstream case runs retry and reverse", c.Name)
		}
	}
	if got := string(byName["crlf"].Files["file.txt"].Data); got != "alpha\r\nmove me\r\nomega\r\ntarget\r\n" {
		t.Errorf("crlf bytes: %q", got)
	}
	if got := string(byName["no-trailing-newline"].ExpectedFiles["file.txt"].Data); !strings.HasSuffix(got, "target") {
		t.Errorf("no-trailing-newline bytes: %q", got)
	}
	rm := byName["remove-file"]
	if len(rm.ExpectedFiles) != 0 || !slices.Equal(rm.ExpectedAbsent, []string{"file.txt"}) {
		t.Errorf("remove-file: expected_files %v, expected_absent %v", rm.ExpectedFiles, rm.ExpectedAbsent)
	}
	if c := byName["ambiguous-source"]; c.Expect != Fail || c.ErrorCode != "source_ambiguous" {
		t.Errorf("ambiguous-source: %s %s", c.Expect, c.ErrorCode)
	}
	// Upstream's cases are not ours: they lack our metadata.
	if _, err := CorpusOptions.Load(os.DirFS(upstreamCases(t)), "."); err == nil {
		t.Error("upstream cases passed the corpus rules")
	}
}

// TestREADMEDocumentsFields keeps README.md and the decoder in step: every
// JSON field the loader accepts is documented.
func TestREADMEDocumentsFields(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, table := range []struct {
		name   string
		fields []Field
	}{
		{"case", CaseFields}, {"step", StepFields}, {"entry", EntryFields}, {"outcome", OutcomeFields},
		{"error", ErrorFields}, {"result", ResultFields}, {"move", MoveFields},
	} {
		for _, f := range table.fields {
			if !strings.Contains(string(readme), "`"+f.Name+"`") {
				t.Errorf("README.md does not document %s field %q", table.name, f.Name)
			}
		}
	}
}

func FuzzParse(f *testing.F) {
	_ = fs.WalkDir(Corpus(), ".", func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == CaseFile {
			data, _ := fs.ReadFile(Corpus(), p)
			f.Add(data)
		}
		return nil
	})
	f.Add([]byte(`{"expect": "pass", "patch": "P", "expected_files": {"a": {"lines": ["x"]}}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Options{}.Parse("fuzz", data)
		if err != nil {
			for _, e := range CaseErrors(err) {
				if e.Case != "fuzz" {
					t.Errorf("error names case %q", e.Case)
				}
			}
			if len(CaseErrors(err)) == 0 {
				t.Errorf("error is no *CaseError: %v", err)
			}
			return
		}
		if c.Files == nil || (c.Expect == Pass && c.Protocol != Steps && c.ExpectedFiles == nil) {
			t.Errorf("loaded an incomplete case: %+v", c)
		}
	})
}

// TestCorpusSince keeps each case's since at or above the profile of every
// requirement it cites: a case citing a 1.1 requirement cannot hold for 1.0.
func TestCorpusSince(t *testing.T) {
	t.Parallel()
	cs, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cs {
		for _, id := range c.Requirements {
			r, ok := spec.Lookup(id)
			if !ok {
				t.Errorf("%s: %s is not in the spec", c.Name, id)
				continue
			}
			if !spec.InProfile(r, c.Since) {
				t.Errorf("%s: since %s, but %s is in profile %s", c.Name, c.Since, id, r.Since)
			}
		}
	}
}
