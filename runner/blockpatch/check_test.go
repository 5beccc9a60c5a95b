package blockpatch

import (
	"io/fs"
	"slices"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

func file(s string, mode uint32) cases.Entry {
	return cases.Entry{Data: []byte(s), Mode: fs.FileMode(mode)}
}

func TestChangedPaths(t *testing.T) {
	t.Parallel()
	before := cases.Tree{"same": file("x", 0o644), "edited": file("a", 0o644), "removed": file("r", 0o644), "dir": {Dir: true, Mode: 0o755}}
	after := cases.Tree{"same": file("x", 0), "edited": file("b", 0), "created": file("c", 0)}
	got := changedPaths(before, after)
	if want := []string{"created", "edited", "removed"}; !slices.Equal(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

func TestCompareAfter(t *testing.T) {
	t.Parallel()
	before := cases.Tree{"run.sh": file("a", 0o755), "f": file("a", 0o644)}
	want := cases.Tree{"run.sh": file("b", 0), "new": file("n", 0)}
	tests := []struct {
		name      string
		got       cases.Tree
		profile   string
		problems  []string // substrings, one per problem
		strayOnly bool
	}{
		{"right", cases.Tree{"run.sh": file("b", 0o755), "new": file("n", 0o644)}, "1.1", nil, false},
		{"replaced file loses its mode", cases.Tree{"run.sh": file("b", 0o644), "new": file("n", 0o644)}, "1.1", []string{"WRITE-011"}, false},
		{"created file 0600", cases.Tree{"run.sh": file("b", 0o755), "new": file("n", 0o600)}, "1.1", []string{"WRITE-010"}, false},
		{"created file 0600 under 1.0", cases.Tree{"run.sh": file("b", 0o755), "new": file("n", 0o600)}, "1.0", nil, false},
		{"temp file left", cases.Tree{"run.sh": file("b", 0o755), "new": file("n", 0o644), ".run.sh.tmp": file("b", 0o600)}, "1.1", []string{"stray files"}, true},
		{"wrong bytes and a temp file", cases.Tree{"run.sh": file("c", 0o755), "new": file("n", 0o644), ".tmp": file("", 0o600)}, "1.1", []string{"differs"}, false},
		{"old file kept", cases.Tree{"run.sh": file("b", 0o755), "new": file("n", 0o644), "f": file("a", 0o644)}, "1.1", []string{"differs"}, false},
	}
	for _, tt := range tests {
		tc := compareAfter(want, before, tt.got, t.TempDir(), nil, tt.profile)
		if len(tc.problems) != len(tt.problems) || tc.strayOnly != tt.strayOnly {
			t.Errorf("%s: problems %q, stray only %v; want %d problems, stray only %v", tt.name, tc.problems, tc.strayOnly, len(tt.problems), tt.strayOnly)
			continue
		}
		for i, p := range tt.problems {
			if !strings.Contains(tc.problems[i], p) {
				t.Errorf("%s: problem %q does not mention %q", tt.name, tc.problems[i], p)
			}
		}
	}
}

func TestCompareSame(t *testing.T) {
	t.Parallel()
	before := cases.Tree{"f": file("a", 0o644), "d": {Dir: true, Mode: 0o755}}
	tests := []struct {
		name      string
		after     cases.Tree
		problem   string
		strayOnly bool
	}{
		{"same", cases.Tree{"f": file("a", 0o644), "d": {Dir: true, Mode: 0o755}}, "", false},
		{"mode changed", cases.Tree{"f": file("a", 0o600), "d": {Dir: true, Mode: 0o755}}, "WRITE-001", false},
		{"folder removed", cases.Tree{"f": file("a", 0o644)}, "WRITE-001", false},
		// An empty folder left by a failed creation is reported, not failed.
		{"folder left", cases.Tree{"f": file("a", 0o644), "d": {Dir: true, Mode: 0o755}, "e": {Dir: true, Mode: 0o755}}, "", false},
		{"temp file", cases.Tree{"f": file("a", 0o644), "d": {Dir: true, Mode: 0o755}, "d/.f.tmp": file("", 0o600)}, "WRITE-008", true},
	}
	for _, tt := range tests {
		tc := compareSame(before, tt.after, "WRITE-001")
		switch {
		case tt.problem == "" && len(tc.problems) > 0:
			t.Errorf("%s: %q", tt.name, tc.problems)
		case tt.problem != "" && (len(tc.problems) != 1 || !strings.Contains(tc.problems[0], tt.problem)):
			t.Errorf("%s: %q, want one problem naming %s", tt.name, tc.problems, tt.problem)
		case tc.strayOnly != tt.strayOnly:
			t.Errorf("%s: stray only %v", tt.name, tc.strayOnly)
		}
	}
}

func TestCheckSuccessJSON(t *testing.T) {
	t.Parallel()
	before := cases.Tree{"f": file("a", 0o644)}
	after := cases.Tree{"f": file("b", 0)}
	good := `{"ok":true,"changed":["f"],"affected":["f"],"written":true,"noop":false,"status":"applied","strip_components":1,"moves":[]}`
	tests := []struct {
		name, doc string
		w         successWant
		mentions  []string
	}{
		{"right", good, successWant{after: after, strip: 1}, nil},
		{"check writes nothing", strings.Replace(good, `"written":true`, `"written":false`, 1), successWant{after: after, dry: true, strip: 1}, nil},
		{"check claims a write", good, successWant{after: after, dry: true, strip: 1}, []string{"OUT-007"}},
		{"bare ok", `{"ok":true}`, successWant{after: after, strip: 1}, []string{"OUT-003", "OUT-010"}},
		{"wrong changed", strings.Replace(good, `"changed":["f"]`, `"changed":[]`, 1), successWant{after: after, strip: 1}, []string{"OUT-005"}},
		{"one file under two spellings (PATH-014)", strings.NewReplacer(`"changed":["f"]`, `"changed":["f","./f"]`, `"affected":["f"]`, `"affected":["./f","f"]`).Replace(good), successWant{after: after, strip: 1}, nil},
		{"one path listed twice alike", strings.Replace(good, `"changed":["f"]`, `"changed":["f","f"]`, 1), successWant{after: after, strip: 1}, []string{"OUT-005"}},
		{"noop that changes", strings.Replace(good, `"noop":false`, `"noop":true`, 1), successWant{after: after, strip: 1}, []string{"OUT-008"}},
		{"status", strings.Replace(good, `"applied"`, `"noop"`, 1), successWant{after: after, strip: 1}, []string{"OUT-009"}},
		{"strip", good, successWant{after: after, strip: 0}, []string{"OUT-010"}},
		{"result", good, successWant{after: after, strip: 1, result: map[string]any{"affected": []any{"g"}}}, []string{"result"}},
		{"plan without patch", good, successWant{after: after, strip: -1, plan: true}, []string{"OUT-011"}},
	}
	for _, tt := range tests {
		doc, raw, err := oneObject([]byte(tt.doc))
		if err != nil {
			t.Fatal(err)
		}
		got := checkSuccessJSON(doc, raw, before, tt.w)
		if len(got) != len(tt.mentions) {
			t.Errorf("%s: %q, want %d problems", tt.name, got, len(tt.mentions))
			continue
		}
		for i, m := range tt.mentions {
			if !strings.Contains(got[i], m) {
				t.Errorf("%s: %q does not mention %s", tt.name, got[i], m)
			}
		}
	}
}

func TestEffectiveStrip(t *testing.T) {
	t.Parallel()
	two := 2
	for _, tt := range []struct {
		strip *int
		args  []string
		want  int
	}{
		{nil, nil, 1},
		{&two, nil, 2},
		{nil, []string{"-p0"}, 0},
		{nil, []string{"-p", "3"}, 3},
		{nil, []string{"--strip", "4"}, 4},
		{nil, []string{"--strip=5", "-R"}, 5},
		{nil, []string{"-pX"}, -1},
	} {
		if got := effectiveStrip(&cases.Case{Strip: tt.strip}, tt.args); got != tt.want {
			t.Errorf("strip %v args %q: %d, want %d", tt.strip, tt.args, got, tt.want)
		}
	}
}
