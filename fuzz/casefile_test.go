package fuzz

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
)

// TestCaseFiles writes the case of generated scenarios of every kind
// (standard pass and fail, planner pass and fail, and the step cases for
// outcomes no protocol fits, such as a request with "dry_run": true), and
// checks that each loads and passes the reference under the runner.
func TestCaseFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	sb, err := newSandbox(filepath.Join(t.TempDir(), "ref"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for i := uint64(0); i < 400 && len(kinds) < 5; i++ {
		sc := gen.Build(gen.Random(gen.NewRand(9, i), gen.Options{MutationRate: 0.2}))
		ref, err := run(context.Background(), Reference(), sb, sc, plan(sc, true), time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !fullProtocol(sc, ref) {
			steps := plan(sc, false)
			var kept []Step
			for _, s := range ref {
				if find(steps, s.Name) != nil {
					kept = append(kept, s)
				}
			}
			ref = kept
		}
		data, err := caseFile(sc, ref, "generated", "", nil)
		if err != nil {
			t.Fatal(err)
		}
		kind := "standard"
		switch {
		case bytes.Contains(data, []byte(`"steps"`)):
			kind = "steps"
		case bytes.Contains(data, []byte(`"request"`)):
			kind = "planner"
		}
		if bytes.Contains(data, []byte(`"expect": "fail"`)) {
			kind += " fail"
		}
		if kinds[kind] >= 2 {
			continue
		}
		kinds[kind]++
		if err := loadable("c", data, false); err != nil {
			t.Fatalf("%v\n%s", err, data)
		}
		name := filepath.Join(dir, kind[:4]+string(rune('a'+kinds[kind]))+"-"+string(rune('a'+i%26)))
		if err := os.MkdirAll(name, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(name, "case.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	t.Logf("case kinds written: %v", kinds)
	for _, k := range []string{"standard", "standard fail", "planner", "planner fail", "steps"} {
		if kinds[k] == 0 {
			t.Errorf("no %s case was written", k)
		}
	}
	certify(t, dir, embedded.Reference(), true)
}

func TestSubset(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		want, got any
		path      string
	}{
		{map[string]any{"a": 1.0}, map[string]any{"a": 1.0, "b": 2.0}, ""},
		{map[string]any{"a": nil}, map[string]any{}, ""},
		{map[string]any{"a": nil}, map[string]any{"a": 1.0}, "a"},
		{map[string]any{"a": []any{map[string]any{"s": 1.0}}}, map[string]any{"a": []any{map[string]any{"s": 2.0}}}, "a.s"},
		{map[string]any{"a": []any{1.0}}, map[string]any{"a": []any{1.0, 2.0}}, "a"},
		{map[string]any{"e": map[string]any{"x": "y"}}, map[string]any{}, "e"},
		{map[string]any{"warnings": []any{map[string]any{"code": "adjacent_bytes"}}}, map[string]any{}, "warnings"},
		{map[string]any{"warnings": []any{map[string]any{"code": "adjacent_bytes"}}}, map[string]any{"warnings": []any{}}, "warnings"},
		{map[string]any{"warnings": []any{map[string]any{"code": "adjacent_bytes"}}}, map[string]any{"warnings": []any{map[string]any{"code": "x"}}}, "warnings.code"},
	} {
		path, _, _, ok := subset(tc.want, tc.got, "")
		if ok != (tc.path == "") || path != tc.path {
			t.Errorf("subset(%v, %v) = %q, %v; want %q", tc.want, tc.got, path, ok, tc.path)
		}
	}
}

// TestCompareWarnings: warnings are compared both ways for an
// implementation that prints them, a warning missing or one too many
// (OUT-024), and not at all for one that prints none (1.1.0).
func TestCompareWarnings(t *testing.T) {
	t.Parallel()
	warned := map[string]any{"ok": true, "warnings": []any{map[string]any{"code": "adjacent_bytes"}}}
	quiet := map[string]any{"ok": true}
	for _, tc := range []struct {
		want, got map[string]any
		compared  bool
		kind      string
	}{
		{warned, warned, true, ""},
		{quiet, quiet, true, ""},
		{warned, quiet, true, "result.warnings"},
		{quiet, warned, true, "result.warnings"},
		{quiet, map[string]any{"ok": true, "warnings": nil}, true, ""},
		{warned, quiet, false, ""},
		{quiet, warned, false, ""},
	} {
		step := func(doc map[string]any) []Step { return []Step{{Name: "plan", Doc: doc}} }
		kind := ""
		if d := compare(step(tc.want), step(tc.got), tc.compared); len(d) > 0 {
			kind = d[0].Kind
		}
		if kind != tc.kind {
			t.Errorf("compare(%v, %v, %v): kind %q, want %q", tc.want, tc.got, tc.compared, kind, tc.kind)
		}
	}
}

// TestCompact: a request is written into a planner case only as the
// runner would send it: compact, and with no member named twice, which a
// case file refuses.
func TestCompact(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		req  string
		want bool
	}{
		{`{"src":"a.txt","dst":"b.txt"}`, true},
		{`{"src":"a.txt","selection":{"start":1,"end":2},"x":[{"a":1},{"a":2}]}`, true},
		{`{"src": "a.txt"}`, false},
		{`{"src":"a.txt","src":"b.txt"}`, false},
		{`{"selection":{"start":1,"start":2}}`, false},
		{`[{"a":1,"a":1}]`, false},
		{`{"src":`, false},
	} {
		if got := compact([]byte(tt.req)); got != tt.want {
			t.Errorf("compact(%s) = %v, want %v", tt.req, got, tt.want)
		}
	}
}

// TestErrorDetailsDropTruncatedCount: a case states exact counts, so a
// count the reference truncated is left out with its flag, and an exact
// one stays without a flag.
func TestErrorDetailsDropTruncatedCount(t *testing.T) {
	t.Parallel()
	ranges := []any{map[string]any{"start": 0.0, "end": 1.0}}
	for _, tt := range []struct {
		name string
		err  map[string]any
		want map[string]any
	}{
		{"truncated", map[string]any{"code": "source_ambiguous", "message": "m", "matches": 11.0, "matches_truncated": true, "ranges": ranges},
			map[string]any{"ranges": ranges}},
		{"exact", map[string]any{"code": "source_ambiguous", "matches": 2.0, "matches_truncated": false, "ranges": ranges},
			map[string]any{"matches": 2.0, "ranges": ranges}},
		{"no details", map[string]any{"code": "parse_error", "message": "m"}, nil},
	} {
		if diff := cmp.Diff(tt.want, errorDetails(map[string]any{"error": tt.err})); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}
