package cases

import (
	"encoding/json"
	"io/fs"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// parseOK parses a case that must load.
func parseOK(t *testing.T, data string) *Case {
	t.Helper()
	c, err := Options{}.Parse("t", []byte(data))
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return c
}

func TestParseForms(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		data   string
		check  func(t *testing.T, c *Case)
	}{
		{
			name:   "upstream pass",
			reason: "upstream's fields only: upstream-shaped, core, since 1.0, default retry and reverse",
			data:   `{"expect": "pass", "patch": "P\n", "files": {"f.txt": "a\r\nb"}, "expected_files": {}, "expected_absent": ["f.txt"]}`,
			check: func(t *testing.T, c *Case) {
				if !c.Upstream || LevelsText(c.Levels) != "core" || c.Protocol != Standard || c.Since != "1.0" || c.Expect != Pass {
					t.Errorf("got upstream=%v levels=%v protocol=%s since=%s expect=%s", c.Upstream, c.Levels, c.Protocol, c.Since, c.Expect)
				}
				if string(c.Patch) != "P\n" || string(c.Files["f.txt"].Data) != "a\r\nb" {
					t.Errorf("bytes: patch %q, file %q", c.Patch, c.Files["f.txt"].Data)
				}
				if c.ExpectedFiles == nil || len(c.ExpectedFiles) != 0 {
					t.Errorf("expected_files {} must load as an empty, non-nil tree: %#v", c.ExpectedFiles)
				}
				wantRetry := &Outcome{
					Expect:        Pass,
					Result:        map[string]any{"status": "already_applied", "changed": []any{}, "noop": true, "written": false},
					ExpectedFiles: Tree{},
				}
				if d := cmp.Diff(wantRetry, c.Retry); d != "" {
					t.Errorf("retry (-want +got):\n%s", d)
				}
				if d := cmp.Diff(&Outcome{Expect: Pass, ExpectedFiles: c.Files}, c.Reverse); d != "" {
					t.Errorf("reverse (-want +got):\n%s", d)
				}
			},
		},
		{
			name:   "parts and repeat",
			reason: "a large file stays a few lines of case file; the bytes are exact, a final newline or none",
			data:   `{"expect": "pass", "patch": {"parts": ["P\n", {"lines": ["x"], "repeat": 2}]}, "files": {"f.txt": {"parts": [{"text": "ab", "repeat": 3}, {"base64": "/w=="}, {"parts": ["c"], "repeat": 2}], "mode": "0755"}}, "expected_files": {}}`,
			check: func(t *testing.T, c *Case) {
				if string(c.Patch) != "P\nx\nx\n" {
					t.Errorf("patch %q", c.Patch)
				}
				if f := c.Files["f.txt"]; string(f.Data) != "ababab\xffcc" || f.Mode != 0o755 {
					t.Errorf("file %q, mode %o", f.Data, f.Mode)
				}
			},
		},
		{
			name:   "upstream fail",
			reason: "a failing case runs no retry or reverse",
			data:   `{"expect": "fail", "error_code": "source_ambiguous", "patch": "P", "files": {"f": "x"}}`,
			check: func(t *testing.T, c *Case) {
				if !c.Upstream || c.ErrorCode != "source_ambiguous" || c.Retry != nil || c.Reverse != nil || c.ExpectedFiles != nil {
					t.Errorf("got %+v", c)
				}
			},
		},
		{
			name:   "entry kinds",
			reason: "every entry form decodes to its bytes, mode, symlink or folder",
			data: `{"expect": "pass", "patch": {"text": "P"}, "files": {
				"plain": "s",
				"text": {"text": "t", "mode": "0755"},
				"b64": {"base64": "/wA="},
				"lines": {"lines": ["one\r", "two"], "mode": "600"},
				"empty-lines": {"lines": []},
				"link": {"symlink": "../../etc"},
				"d": {"dir": true, "mode": "0555"},
				"d/inner": "i"
			}, "expected_files": {}}`,
			check: func(t *testing.T, c *Case) {
				want := Tree{
					"plain":       {Data: []byte("s")},
					"text":        {Data: []byte("t"), Mode: 0o755},
					"b64":         {Data: []byte{0xff, 0x00}},
					"lines":       {Data: []byte("one\r\ntwo\n"), Mode: 0o600},
					"empty-lines": {Data: []byte{}},
					"link":        {Symlink: "../../etc"},
					"d":           {Dir: true, Mode: 0o555},
					"d/inner":     {Data: []byte("i")},
				}
				if d := cmp.Diff(want, c.Files); d != "" {
					t.Errorf("files (-want +got):\n%s", d)
				}
				if c.Upstream {
					t.Error("object entries are an extension")
				}
			},
		},
		{
			name:   "patch forms",
			reason: "patch as lines, CRLF and an empty line included",
			data:   `{"expect": "pass", "patch": {"lines": ["a", "", "b\r"]}, "expected_files": {}}`,
			check: func(t *testing.T, c *Case) {
				if string(c.Patch) != "a\n\nb\r\n" {
					t.Errorf("patch %q", c.Patch)
				}
			},
		},
		{
			name:   "empty patch",
			reason: "an empty patch is present, not absent",
			data:   `{"expect": "fail", "error_code": "parse_error", "patch": ""}`,
			check: func(t *testing.T, c *Case) {
				if c.Patch == nil || len(c.Patch) != 0 || c.Files == nil {
					t.Errorf("patch %#v files %#v", c.Patch, c.Files)
				}
			},
		},
		{
			name:   "metadata",
			reason: "stated metadata is kept; a standard case may add cli to the core its command lines need",
			data:   `{"description": "d", "requirements": ["MATCH-003", "FMT-010"], "since": "1.1", "levels": ["cli"], "expect": "pass", "patch": "P", "expected_files": {}, "args": ["-R"], "strip": 0}`,
			check: func(t *testing.T, c *Case) {
				if c.Description != "d" || c.Since != "1.1" || LevelsText(c.Levels) != "core+cli" || c.Protocol != Standard || c.Upstream {
					t.Errorf("got %+v", c)
				}
				if d := cmp.Diff([]string{"MATCH-003", "FMT-010"}, c.Requirements); d != "" {
					t.Error(d)
				}
				if c.Strip == nil || *c.Strip != 0 {
					t.Errorf("strip %v", c.Strip)
				}
				if d := cmp.Diff([]string{}, c.ReverseArgs()); d != "" {
					t.Errorf("reverse args of [-R] (-want +got):\n%s", d)
				}
			},
		},
		{
			name:   "error and result",
			reason: "error details become a subset with the code; result is kept as JSON",
			data: `{"expect": "fail", "error_code": "source_ambiguous", "patch": "P",
				"error": {"path": "f", "matches": 2, "ranges": [{"start": 0, "end": 4}, {"end": 6, "start": 2}], "line_ranges": [{"start": 1, "end": 2}, {"start": 2, "end": 3}]}}`,
			check: func(t *testing.T, c *Case) {
				want := map[string]any{"ok": false, "error": map[string]any{
					"code": "source_ambiguous", "path": "f", "matches": float64(2),
					"ranges":      []any{map[string]any{"start": float64(0), "end": float64(4)}, map[string]any{"start": float64(2), "end": float64(6)}},
					"line_ranges": []any{map[string]any{"start": float64(1), "end": float64(2)}, map[string]any{"start": float64(2), "end": float64(3)}},
				}}
				if d := cmp.Diff(want, c.Error.Want(c.ErrorCode)); d != "" {
					t.Errorf("Want (-want +got):\n%s", d)
				}
			},
		},
		{
			name:   "noop retry",
			reason: "a noop apply retries as noop, not already_applied",
			data:   `{"expect": "pass", "patch": "P", "expected_files": {}, "result": {"status": "noop"}}`,
			check: func(t *testing.T, c *Case) {
				if c.Retry.Result["status"] != "noop" {
					t.Errorf("retry %+v", c.Retry)
				}
			},
		},
		{
			name:   "outcomes",
			reason: "a failing reverse keeps the tree the retry left; a passing retry may state its tree",
			data: `{"expect": "pass", "patch": "P", "files": {"a": "1"}, "expected_files": {"a": "2"},
				"retry": {"expect": "pass", "result": {"status": "applied"}, "expected_files": {"a": "3"}},
				"reverse": {"expect": "fail", "error_code": "parse_error", "error": {"phase": "target"}}}`,
			check: func(t *testing.T, c *Case) {
				if got := string(c.Retry.ExpectedFiles["a"].Data); got != "3" {
					t.Errorf("retry tree %q", got)
				}
				if got := string(c.Reverse.ExpectedFiles["a"].Data); got != "3" || c.Reverse.Expect != Fail || (*c.Reverse.Error)["phase"] != "target" {
					t.Errorf("reverse %+v tree %q", c.Reverse, got)
				}
			},
		},
		{
			name:   "planner",
			reason: "request makes a planned case, whose plan and move need planner and its apply of the planned patch core; the request is compacted as written",
			data:   `{"expect": "pass", "request": {"src": "f", "x-unknown": [1, null]}, "expected_patch": "P", "expected_files": {}}`,
			check: func(t *testing.T, c *Case) {
				if c.Protocol != Planned || LevelsText(c.Levels) != "core+planner" || string(c.Request) != `{"src":"f","x-unknown":[1,null]}` || string(c.ExpectedPatch) != "P" {
					t.Errorf("got %+v request %s", c, c.Request)
				}
				if c.Retry != nil || c.Reverse != nil {
					t.Error("planner cases have no retry or reverse")
				}
			},
		},
		{
			name:   "steps",
			reason: "steps make a step case with its defaults; apply with --cwd=DIR needs core and cli, no command cli",
			data: `{"patch": "P", "files": {"f": "x"}, "steps": [
				{"args": ["apply", "{patch}", "--cwd={work}", "{}"], "stdin": {"base64": "AA=="}, "exit": 0, "stdout": "changed f\n", "files": {"f": "y"}},
				{"args": [], "dir": "inputs", "inputs": {"move.json": "{}"}, "exit": 1, "json": {"ok": false, "error": {"code": "invalid_json", "field": null}}, "unchanged": true}
			]}`,
			check: func(t *testing.T, c *Case) {
				if c.Protocol != Steps || LevelsText(c.Levels) != "core+cli" || len(c.Steps) != 2 {
					t.Fatalf("got %+v", c)
				}
				s0, s1 := c.Steps[0], c.Steps[1]
				if d := cmp.Diff([]string{"apply", "/in/" + PatchFile, "--cwd=/w", "{}"}, s0.Argv("/w", "/in")); d != "" {
					t.Errorf("Argv (-want +got):\n%s", d)
				}
				if s0.Dir != DirWork || string(s0.Stdin) != "\x00" || string(s0.Stdout) != "changed f\n" || s0.Unchanged {
					t.Errorf("step 0 %+v", s0)
				}
				if s1.Dir != DirInputs || s1.Stdin != nil || s1.Exit != 1 || !s1.Unchanged || s1.Files != nil {
					t.Errorf("step 1 %+v", s1)
				}
				if string(s1.Inputs["move.json"].Data) != "{}" {
					t.Errorf("inputs %v", s1.Inputs)
				}
				e, _ := s1.JSON["error"].(map[string]any)
				if _, ok := e["field"]; !ok || e["code"] != "invalid_json" {
					t.Errorf("json %v: null must survive as an expectation", s1.JSON)
				}
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			tt.check(t, parseOK(t, tt.data))
		})
	}
}

func TestCommandLevels(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args   string
		want   string
		reason string
	}{
		{"check {patch} --cwd {work} --json-output", "core", "the standard protocol's check"},
		{"apply {patch} -R -p1 --cwd {work} --json-output", "core", "reverse and strip as the protocol passes them"},
		{"apply {inputs}/planned.blockpatch --cwd {work} --json-output", "core", "any patch path"},
		{"plan --json - --cwd {work}", "planner", "plan prints JSON unasked"},
		{"move --json - --cwd {work} --json-output", "planner", "the planned protocol's move"},
		{"apply - --cwd {work} --json-output", "core+cli", "the patch from stdin"},
		{"apply --cwd {work} --json-output", "core+cli", "no patch argument"},
		{"check {patch} --cwd {work}", "core+cli", "human output"},
		{"apply {patch} --reverse --cwd {work} --json-output", "core+cli", "another spelling"},
		{"apply {patch} -R -R --cwd {work} --json-output", "core+cli", "an option twice"},
		{"apply {patch} --cwd={work} --json-output", "core+cli", "the equals form"},
		{"apply {patch} --json-output --cwd {work}", "core+cli", "another order"},
		{"apply {patch} --cwd --json-output", "core+cli", "--cwd without its folder"},
		{"plan --json - --cwd {work} --json-output", "planner+cli", "plan asked for JSON"},
		{"move --json {inputs}/request.json --cwd {work} --json-output", "planner+cli", "the request from a file"},
		{"move --src f --dst g --cwd {work}", "planner+cli", "move flags"},
		{"version --json-output", "cli", "not a protocol command"},
		{"", "cli", "no command at all"},
		{"APPLY {patch} --cwd {work} --json-output", "cli", "an unknown command"},
	}
	for _, tt := range tests {
		args := strings.Fields(tt.args)
		if got := LevelsText(CommandLevels(args)); got != tt.want {
			t.Errorf("%q (%s): %s, want %s", tt.args, tt.reason, got, tt.want)
		}
	}
	for _, c := range []ProtocolStep{StandardSteps[0], StandardSteps[3], PlannedSteps[0], PlannedSteps[1], PlannedSteps[3]} {
		args := c.Args([]string{"-R"}, new(int))
		if got := CommandLevels(args); len(got) != 1 {
			t.Errorf("%q, a protocol's own command line, needs %v", args, got)
		}
	}
}

func TestReverseArgs(t *testing.T) {
	t.Parallel()
	tests := []struct{ args, want []string }{
		{nil, []string{"-R"}},
		{[]string{"-p0"}, []string{"-p0", "-R"}},
		{[]string{"--reverse", "-p2"}, []string{"-p2"}},
	}
	for _, tt := range tests {
		c := &Case{Args: tt.args}
		if d := cmp.Diff(tt.want, c.ReverseArgs()); d != "" {
			t.Errorf("ReverseArgs(%q) (-want +got):\n%s", tt.args, d)
		}
	}
}

func TestErrorDetailsWantNil(t *testing.T) {
	t.Parallel()
	var d *ErrorDetails
	got, _ := json.Marshal(d.Want("io_error"))
	if string(got) != `{"error":{"code":"io_error"},"ok":false}` {
		t.Errorf("Want = %s", got)
	}
}

func TestEntryKind(t *testing.T) {
	t.Parallel()
	for e, want := range map[*Entry]string{
		{Data: []byte("x")}:            "file",
		{}:                             "file",
		{Symlink: "t"}:                 "symlink",
		{Dir: true, Mode: fs.ModePerm}: "dir",
	} {
		if got := e.Kind(); got != want {
			t.Errorf("%+v.Kind() = %q, want %q", *e, got, want)
		}
	}
}

// TestDeepNestingRefusedEarly: a case file that nests far deeper than any
// case needs is refused, naming the depth, without the memory a scan of
// every level would take (a 64 KB file of "[" once took 1.57 GB).
// Not parallel: it measures its own allocations.
func TestDeepNestingRefusedEarly(t *testing.T) {
	for _, open := range []string{"[", `{"a":`} {
		data := []byte(`{"expect": "pass", "files": ` + strings.Repeat(open, 5_000))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		_, err := Options{}.Parse("area/deep", data)
		runtime.ReadMemStats(&after)
		if err == nil || !strings.Contains(err.Error(), "nested deeper than") {
			t.Errorf("%q×5000: %v, want a nesting error", open, err)
		}
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64<<20 {
			t.Errorf("%q×5000: parsing allocated %d MB", open, grew>>20)
		}
	}
}
