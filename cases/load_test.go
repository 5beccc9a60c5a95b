package cases

import (
	"io/fs"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/google/go-cmp/cmp"
)

const okCase = `{"expect": "pass", "patch": "P", "expected_files": {}}`

func file(s string) *fstest.MapFile { return &fstest.MapFile{Data: []byte(s)} }

func names(cs []*Case) []string {
	out := []string{}
	for _, c := range cs {
		out = append(out, c.Name)
	}
	return out
}

func TestLoad(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"z/case.json":          file(okCase),
		"a/b/case.json":        file(okCase),
		"a/c/case.json":        file(okCase),
		"a/c/notes.txt":        file("ignored"),
		"a/README.md":          file("ignored"),
		"deep/x/y/z/case.json": file(okCase),
	}
	tests := []struct {
		root string
		want []string
	}{
		{".", []string{"a/b", "a/c", "deep/x/y/z", "z"}},
		{"a", []string{"b", "c"}},
		{"deep/x", []string{"y/z"}},
	}
	for _, tt := range tests {
		got, err := Load(fsys, tt.root)
		if err != nil {
			t.Fatalf("Load(%q): %v", tt.root, err)
		}
		if d := cmp.Diff(tt.want, names(got)); d != "" {
			t.Errorf("Load(%q) names (-want +got):\n%s", tt.root, d)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		fsys   fstest.MapFS
		root   string
		want   []string // one piece of each error, in order
	}{
		{
			name:   "case at root",
			reason: "a case needs a name",
			fsys:   fstest.MapFS{"case.json": file(okCase)},
			want:   []string{"case .: case.json at the root"},
		},
		{
			name:   "nested case",
			reason: "a case folder is a leaf",
			fsys:   fstest.MapFS{"a/case.json": file(okCase), "a/b/case.json": file(okCase)},
			want:   []string{"case a: a case folder holds no other folders"},
		},
		{
			name:   "folder without case",
			reason: "a misnamed case.json would vanish",
			fsys:   fstest.MapFS{"a/case.jsn": file(okCase), "b/case.json": file(okCase)},
			want:   []string{"case a: folder holds no case.json"},
		},
		{
			name:   "letter case",
			reason: "a case-insensitive checkout would merge them",
			fsys:   fstest.MapFS{"Crlf/case.json": file(okCase), "crlf/case.json": file(okCase)},
			want:   []string{"case crlf: name differs from case Crlf only in letter case"},
		},
		{
			name:   "missing root",
			reason: "a wrong path is an error, not an empty corpus",
			fsys:   fstest.MapFS{},
			root:   "nowhere",
			want:   []string{"nowhere"},
		},
		{
			name:   "every bad case",
			reason: "all problems at once, by case",
			fsys: fstest.MapFS{
				"a/case.json": file(`{"expect": "pass"}`),
				"b/case.json": file(okCase),
				"c/case.json": file(`{`),
			},
			want: []string{"case a: patch: required", "case a: expected_files: required", "case c: unexpected end"},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := tt.root
			if root == "" {
				root = "."
			}
			got, err := Load(tt.fsys, root)
			if err == nil {
				t.Fatalf("Load succeeded with %q; want errors (%s)", names(got), tt.reason)
			}
			if got != nil {
				t.Errorf("Load returned cases with an error: %q", names(got))
			}
			msg := err.Error()
			for _, w := range tt.want {
				i := strings.Index(msg, w)
				if i < 0 {
					t.Fatalf("error lacks %q (%s):\n%s", w, tt.reason, err)
				}
				msg = msg[i+len(w):]
			}
		})
	}
}

func TestLoadOptions(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{"a/case.json": file(`{"expect": "fail", "error_code": "x_error", "patch": "P", "requirements": ["NEW-001"]}`)}
	if _, err := Load(fsys, "."); err == nil {
		t.Error("default options accepted x_error")
	}
	o := Options{
		KnownCode:        func(c string) bool { return c == "x_error" },
		KnownRequirement: func(id string) bool { return id == "NEW-001" },
	}
	cs, err := o.Load(fsys, ".")
	if err != nil || len(cs) != 1 || cs[0].ErrorCode != "x_error" {
		t.Errorf("Load with validators: %v, %v", cs, err)
	}
}

func TestCaseErrors(t *testing.T) {
	t.Parallel()
	if got := CaseErrors(nil); got != nil {
		t.Errorf("CaseErrors(nil) = %v", got)
	}
	if got := CaseErrors(fs.ErrNotExist); got != nil {
		t.Errorf("CaseErrors(non-case error) = %v", got)
	}
}
