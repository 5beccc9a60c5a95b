package cases

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

const rewriteCase = `{
  "description": "d",
  "expect": "pass",
  "patch": "P",
  "files": {},
  "expected_files": {},
  "result": {"moves": [{"id": "m", "target_range": {"start": 1, "end": 2}}, {"id": "n"}]}
}
`

func writeCase(t *testing.T, dir, name, data string) string {
	t.Helper()
	file := filepath.Join(dir, name, CaseFile)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	return file
}

func TestRewrite(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		edits []Edit
		want  string // the file afterwards; "" when unchanged
	}{
		{"no edit", nil, ""},
		{"rename inside list items", []Edit{RenameField("result.moves.*.target_range", "source_range")},
			`  "result": {"moves": [{"id": "m", "source_range": {"start": 1, "end": 2}}, {"id": "n"}]}`},
		{"drop", []Edit{DropField("result.moves.*.id")},
			`  "result": {"moves": [{"target_range": {"start": 1, "end": 2}}, {}]}`},
		{"set adds a top-level member in field order", []Edit{SetField("since", []byte(`"1.1"`))},
			"  \"description\": \"d\",\n  \"since\": \"1.1\",\n  \"expect\": \"pass\","},
		{"set replaces in place", []Edit{SetField("result.moves.*.id", []byte(`"x"`))},
			`  "result": {"moves": [{"id": "x", "target_range": {"start": 1, "end": 2}}, {"id": "x"}]}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			file := writeCase(t, dir, "area/c", rewriteCase)
			changed, err := Rewrite(dir, Options{}, false, tt.edits...)
			if err != nil {
				t.Fatal(err)
			}
			got, _ := os.ReadFile(file)
			if tt.want == "" {
				if len(changed) != 0 || string(got) != rewriteCase {
					t.Errorf("changed %v:\n%s", changed, got)
				}
				return
			}
			if !slices.Equal(changed, []string{"area/c"}) || !strings.Contains(string(got), tt.want+"\n") {
				t.Errorf("changed %v; file\n%s\nwant it to hold\n%s", changed, got, tt.want)
			}
		})
	}
}

func TestRewriteWritesNothingOnError(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	good := writeCase(t, dir, "a", rewriteCase)
	writeCase(t, dir, "b", strings.Replace(rewriteCase, `"files": {},`, `"files": {}, "steps": [],`, 1))
	// Renaming description makes every case fail to load: nothing is written.
	if _, err := Rewrite(dir, Options{}, false, RenameField("description", "desc")); err == nil {
		t.Fatal("a rewrite to unknown fields succeeded")
	}
	if got, _ := os.ReadFile(good); string(got) != rewriteCase {
		t.Errorf("a failed rewrite wrote\n%s", got)
	}
	if _, err := Rewrite(dir, Options{}, true, DropField("a..b")); err == nil {
		t.Error("a malformed path was accepted")
	}
}
