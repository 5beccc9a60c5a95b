package reference

import (
	"encoding/json"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// planJSON decodes a request and plans it against files.
func planJSON(t *testing.T, request string, files MapFiles) (*Plan, error) {
	t.Helper()
	req, err := DecodeRequest([]byte(request))
	if err != nil {
		return nil, err
	}
	return PlanRequest(req, files)
}

// TestPlanWalkthrough plans the move of the README walkthrough and expects
// the patch printed there, typed in here from the README.
func TestPlanWalkthrough(t *testing.T) {
	t.Parallel()
	tree := MapFiles{
		"src/foo.ts": []byte(lines(
			"export function keepThing() {",
			"  return 7;",
			"}",
			"",
			"export function movedThing() {",
			"  return 42;",
			"}")),
		"src/bar.ts": []byte(lines(`export const target = "here";`)),
	}
	request := `{
	  "src": "src/foo.ts",
	  "src_start": "\nexport function movedThing() {\n",
	  "src_end": "}\n",
	  "dst": "src/bar.ts",
	  "target_before": "export const target = \"here\";\n"
	}`
	want := lines(
		"diff --blockpatch a/src/foo.ts b/src/foo.ts",
		"blockpatch version 1",
		"blockpatch move id=move-1 role=source payload-sha256=bb03c42613e9289c043d2fced7ce2d8c87410cdb15fa48341ce79fa409d45303",
		"--- a/src/foo.ts",
		"+++ b/src/foo.ts",
		"",
		"@@ -3,5 +3,1 @@ blockpatch-source id=move-1",
		" }",
		"-",
		"-export function movedThing() {",
		"-  return 42;",
		"-}",
		"",
		"diff --blockpatch a/src/bar.ts b/src/bar.ts",
		"blockpatch version 1",
		"blockpatch move id=move-1 role=target payload-sha256=bb03c42613e9289c043d2fced7ce2d8c87410cdb15fa48341ce79fa409d45303",
		"--- a/src/bar.ts",
		"+++ b/src/bar.ts",
		"",
		"@@ -1,1 +1,5 @@ blockpatch-target id=move-1",
		` export const target = "here";`,
		"+",
		"+export function movedThing() {",
		"+  return 42;",
		"+}")
	plan, err := planJSON(t, request, tree)
	wantCode(t, err, "")
	if got := *plan.Result.Patch; got != want {
		t.Fatalf("rendered patch differs from the README (-want +got):\n%s", cmp.Diff(want, got))
	}
	after := MapFiles{
		"src/foo.ts": []byte(lines("export function keepThing() {", "  return 7;", "}")),
		"src/bar.ts": []byte(lines(`export const target = "here";`, "", "export function movedThing() {", "  return 42;", "}")),
	}
	applied, err := Check([]byte(want), tree, Options{Strip: 1})
	wantCode(t, err, "")
	if diff := treeDiff(after, tree.Apply(applied)); diff != "" {
		t.Fatalf("apply (-want +got):\n%s", diff)
	}
	if diff := treeDiff(after, tree.Apply(plan)); diff != "" {
		t.Fatalf("move (-want +got):\n%s", diff)
	}
	retry, err := Check([]byte(want), after, Options{Strip: 1})
	wantCode(t, err, "")
	if retry.Result.Status != StatusAlreadyApplied {
		t.Fatalf("retry: %s, want already_applied", retry.Result.Status)
	}
}

// sharedDir is the project's shared reference material, beside the
// checkout; tests that read it skip when it is absent.
const sharedDir = "../../shared/upstream-1.1.0"

func needShared(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(sharedDir); err != nil {
		t.Skipf("upstream material not available: %v", err)
	}
}

// readTreeDir loads a directory into a MapFiles, skipping .gitkeep.
func readTreeDir(t *testing.T, dir string) MapFiles {
	t.Helper()
	tree := MapFiles{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".gitkeep" {
			return err
		}
		data, err := os.ReadFile(path)
		rel, _ := filepath.Rel(dir, path)
		tree[filepath.ToSlash(rel)] = data
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// upstreamRequests are hand-written requests for the upstream examples and
// conformance cases whose patch a request can express; planning each must
// reproduce the published patch byte for byte.
var upstreamRequests = []struct {
	name, request string
}{
	{"examples/same-file-relocation",
		`{"src":"file.txt","src_start":"move","src_end":" me\n","target_before":"target\n"}`},
	{"examples/cross-file-relocation",
		`{"src":"source.txt","src_start":"function movedThing() {\n","src_end":"}\n","dst":"target.txt",
		  "target_before":"class Target {\n  method() {}\n","target_after":"}\n"}`},
	{"examples/insert-existing-file",
		`{"src":"/dev/null","dst":"file.txt","payload":"inserted line\n","target_before":"alpha\n","target_after":"omega\n"}`},
	{"examples/delete-existing-file",
		`{"src":"file.txt","src_start":"remove","src_end":"me\n","dst":"/dev/null"}`},
	{"examples/create-file",
		`{"src":"/dev/null","dst":"file.txt","payload":"created file\n","mode":"create_file"}`},
	{"examples/remove-file",
		`{"src":"file.txt","dst":"/dev/null","mode":"remove_file",
		  "expected_payload_sha256":"4da5a83256114db88b111676cf3b2f4a04f202d3d7fc99417cac1ba5145713e2"}`},
	{"conformance/cases/same-file-relocation",
		`{"src":"file.txt","src_start":"move me","src_end":"\n","target_before":"target\n"}`},
	{"conformance/cases/cross-file-relocation",
		`{"src":"source.txt","src_start":"function","src_end":"}\n","dst":"target.txt",
		  "target_before":"class Target {\n  method() {}\n","target_after":"}"}`},
	{"conformance/cases/crlf",
		`{"src":"file.txt","src_start":"move","src_end":"me\r\n","target_before":"target\r\n"}`},
	{"conformance/cases/no-trailing-newline",
		`{"src":"file.txt","src_start":"move","src_end":"me\n","target_after":"target"}`},
	{"conformance/cases/insert-existing-file",
		`{"src":"/dev/null","dst":"file.txt","payload":"inserted line\n","target_before":"pha\n","target_after":"om"}`},
	{"conformance/cases/delete-existing-file",
		`{"src":"file.txt","src_start":"remove me","src_end":"\n","dst":"/dev/null"}`},
	{"conformance/cases/create-file",
		`{"src":"/dev/null","dst":"file.txt","payload":"created file\n","mode":"create_file"}`},
	{"conformance/cases/remove-file",
		`{"src":"file.txt","dst":"/dev/null","mode":"remove_file"}`},
}

// upstreamCase is the part of an upstream case.json this test reads.
type upstreamCase struct {
	Patch         string            `json:"patch"`
	Files         map[string]string `json:"files"`
	ExpectedFiles map[string]string `json:"expected_files"`
}

func loadUpstream(t *testing.T, name string) (patch string, before, after MapFiles) {
	t.Helper()
	dir := filepath.Join(sharedDir, filepath.FromSlash(name))
	if strings.HasPrefix(name, "examples/") {
		data, err := os.ReadFile(filepath.Join(dir, "patch.blockpatch"))
		if err != nil {
			t.Fatal(err)
		}
		return string(data), readTreeDir(t, filepath.Join(dir, "work")), readTreeDir(t, filepath.Join(dir, "expected"))
	}
	data, err := os.ReadFile(filepath.Join(dir, "case.json"))
	if err != nil {
		t.Fatal(err)
	}
	var c upstreamCase
	if err := json.Unmarshal(data, &c); err != nil {
		t.Fatal(err)
	}
	before, after = MapFiles{}, MapFiles{}
	for k, v := range c.Files {
		before[k] = []byte(v)
	}
	for k, v := range c.ExpectedFiles {
		after[k] = []byte(v)
	}
	return c.Patch, before, after
}

func TestPlanReproducesUpstreamPatches(t *testing.T) {
	t.Parallel()
	needShared(t)
	for _, tt := range upstreamRequests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			want, before, after := loadUpstream(t, tt.name)
			plan, err := planJSON(t, tt.request, before)
			wantCode(t, err, "")
			if got := *plan.Result.Patch; got != want {
				t.Fatalf("rendered patch differs from upstream (-want +got):\n%s", cmp.Diff(want, got))
			}
			if diff := treeDiff(after, before.Apply(plan)); diff != "" {
				t.Fatalf("move (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanUpstreamAmbiguousTarget plans the move of the failure example:
// the target anchor occurs twice.
func TestPlanUpstreamAmbiguousTarget(t *testing.T) {
	t.Parallel()
	needShared(t)
	tree := readTreeDir(t, filepath.Join(sharedDir, "examples/failure-ambiguous-target/work"))
	_, err := planJSON(t, `{"src":"file.txt","src_start":"move","src_end":"me\n","target_before":"target\n"}`, tree)
	wantCode(t, err, TargetAmbiguous)
	e := err.(*Error)
	if e.Anchor != "target" || e.Matches != 2 || e.Path != "file.txt" {
		t.Fatalf("details: %+v", e)
	}
}

// shapeRequests covers each request shape. after is the tree the move
// must give; patch, when set, is the exact patch expected.
var shapeRequests = []struct {
	name, why     string
	request       string
	before, after MapFiles
	status        Status
	patch         string
	move          MoveResult // checked for the fields set
}{
	{
		name: "relocation down", why: "dst defaults to src; the target hunk's line numbers describe the file before the move",
		request: `{"src":"f","src_start":"b\n","src_end":"c\n","target_before":"e\n"}`,
		before:  MapFiles{"f": []byte("a\nb\nc\nd\ne\nf\n")},
		after:   MapFiles{"f": []byte("a\nd\ne\nb\nc\nf\n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("b\nc\n"), "") +
			"@@ -1,4 +1,2 @@ blockpatch-source id=move-1\n a\n-b\n-c\n d\n\n" +
			"@@ -5,1 +5,3 @@ blockpatch-target id=move-1\n e\n+b\n+c\n",
		move: MoveResult{Src: "f", Dst: "f", SourceRange: &Range{2, 6}, TargetRange: &Range{8, 10}, InsertIndex: ptr(10)},
	},
	{
		name: "relocation up", why: "the source hunk comes first even when the target is above it",
		request: `{"src":"f","src_start":"e","src_end":"\n","target_after":"b\n"}`,
		before:  MapFiles{"f": []byte("a\nb\nc\nd\ne\nf\n")},
		after:   MapFiles{"f": []byte("a\ne\nb\nc\nd\nf\n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("e\n"), "") +
			"@@ -4,3 +4,2 @@ blockpatch-source id=move-1\n d\n-e\n f\n\n" +
			"@@ -2,1 +2,2 @@ blockpatch-target id=move-1\n+e\n b\n",
		move: MoveResult{SourceRange: &Range{8, 10}, TargetRange: &Range{2, 4}, InsertIndex: ptr(2)},
	},
	{
		name: "relocation between both anchors", why: "with both target sides the payload goes between them",
		request: `{"src":"f","src_start":"X","src_end":"X\n","target_before":"a\n","target_after":"b\n"}`,
		before:  MapFiles{"f": []byte("XX\na\nb\n")},
		after:   MapFiles{"f": []byte("a\nXX\nb\n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("XX\n"), "") +
			"@@ -1,2 +1,1 @@ blockpatch-source id=move-1\n-XX\n a\n\n" +
			"@@ -2,2 +2,3 @@ blockpatch-target id=move-1\n a\n+XX\n b\n",
	},
	{
		name: "relocation mid-line", why: "no newline handling: cut and insert at exact byte offsets, marked lines",
		request: `{"src":"f","src_start":"<","src_end":">","target_before":"tar","target_after":"get"}`,
		before:  MapFiles{"f": []byte("ab<x>cd\ntarget\n")},
		after:   MapFiles{"f": []byte("abcd\ntar<x>get\n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("<x>"), "") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n ab\n" + NoNewlineMarker + "\n-<x>\n" + NoNewlineMarker + "\n cd\n\n" +
			"@@ -2,2 +2,3 @@ blockpatch-target id=move-1\n tar\n" + NoNewlineMarker + "\n+<x>\n" + NoNewlineMarker + "\n get\n",
	},
	{
		name: "same-line neighbours", why: "in one file the hunks never reach into each other",
		request: `{"src":"f","src_start":"1","src_end":"2","target_before":"3"}`,
		before:  MapFiles{"f": []byte("012345\n")},
		after:   MapFiles{"f": []byte("031245\n")},
		status:  StatusApplied,
	},
	{
		name: "noop relocation", why: "inserting right after the payload leaves the file as it is",
		request: `{"src":"f","src_start":"b","src_end":"\n","target_after":"c\n"}`,
		before:  MapFiles{"f": []byte("a\nb\nc\n")},
		after:   MapFiles{"f": []byte("a\nb\nc\n")},
		status:  StatusNoop,
		move:    MoveResult{SourceRange: &Range{2, 4}, InsertIndex: ptr(4)},
	},
	{
		name: "cross-file relocation", why: "two sections, source first",
		request: `{"src":"a.txt","src_start":"two","src_end":"\n","dst":"sub/b.txt","target_after":"end"}`,
		before:  MapFiles{"a.txt": []byte("one\ntwo\nthree\n"), "sub/b.txt": []byte("start\nend")},
		after:   MapFiles{"a.txt": []byte("one\nthree\n"), "sub/b.txt": []byte("start\ntwo\nend")},
		status:  StatusApplied,
		patch: section("a/a.txt", "b/a.txt", sha("two\n"), "role=source") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n one\n-two\n three\n\n" +
			section("a/sub/b.txt", "b/sub/b.txt", sha("two\n"), "role=target") +
			"@@ -2,1 +2,2 @@ blockpatch-target id=move-1\n+two\n end\n" + NoNewlineMarker + "\n",
		move: MoveResult{Src: "a.txt", Dst: "sub/b.txt", SourceRange: &Range{4, 8}, TargetRange: &Range{6, 9}, InsertIndex: ptr(6)},
	},
	{
		name: "crlf and multibyte", why: "bytes are kept exactly",
		request: `{"src":"f","src_start":"ü","src_end":"\r\n","dst":"g","target_before":"€\r"}`,
		before:  MapFiles{"f": []byte("x\r\nü1\r\ny\r\n"), "g": []byte("€\r€\n")},
		after:   MapFiles{"f": []byte("x\r\ny\r\n"), "g": []byte("€\rü1\r\n€\n")},
		status:  StatusApplied,
	},
	{
		name: "deletion", why: "dst /dev/null deletes in place; the move names the file on both sides",
		request: `{"src":"f","src_start":"b","src_end":"\n","dst":"/dev/null"}`,
		before:  MapFiles{"f": []byte("a\nb\nc\n")},
		after:   MapFiles{"f": []byte("a\nc\n")},
		status:  StatusApplied,
		patch:   section("a/f", "b/f", sha("b\n"), "") + "@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n a\n-b\n c\n",
		move:    MoveResult{Src: "f", Dst: "f", SourceRange: &Range{2, 4}},
	},
	{
		name: "deletion of all content", why: "the file stays, empty",
		request: `{"src":"f","src_start":"a","src_end":"b","dst":"/dev/null"}`,
		before:  MapFiles{"f": []byte("ab")},
		after:   MapFiles{"f": []byte("")},
		status:  StatusApplied,
		patch:   section("a/f", "b/f", sha("ab"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-ab\n" + NoNewlineMarker + "\n",
	},
	{
		name: "deletion widened", why: "after the cut the one-line contexts would occur twice; one more line each side makes retry and -R sound",
		request: `{"src":"f","src_start":"P","src_end":"\n","dst":"/dev/null"}`,
		before:  MapFiles{"f": []byte("}\n}\nA\n}\nP\n}\nB\n")},
		after:   MapFiles{"f": []byte("}\n}\nA\n}\n}\nB\n")},
		status:  StatusApplied,
		patch:   section("a/f", "b/f", sha("P\n"), "") + "@@ -3,5 +3,4 @@ blockpatch-source id=move-1\n A\n }\n-P\n }\n B\n",
	},
	{
		name: "retry over reverse", why: "no context within the stops keeps the source text out of the result, so the source context runs past the insertion point",
		request: `{"src":"f","src_start":" ","src_end":" ","target_before":"\n","target_after":"\n"}`,
		before:  MapFiles{"f": []byte("  \n\n")},
		after:   MapFiles{"f": []byte("\n  \n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("  "), "") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n-  \n" + NoNewlineMarker + "\n \n \n\n" +
			"@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n \n+  \n" + NoNewlineMarker + "\n \n",
	},
	{
		name: "insertion", why: "src /dev/null inserts the payload",
		request: `{"src":"/dev/null","dst":"f","payload":"new\n","target_before":"a\n"}`,
		before:  MapFiles{"f": []byte("a\nb\n")},
		after:   MapFiles{"f": []byte("a\nnew\nb\n")},
		status:  StatusApplied,
		patch:   section("a/f", "b/f", sha("new\n"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+new\n",
		move:    MoveResult{Src: "f", Dst: "f", TargetRange: &Range{0, 2}, InsertIndex: ptr(2)},
	},
	{
		name: "insertion already applied", why: "the request carries the payload, so its final state is provable",
		request: `{"src":"/dev/null","dst":"f","payload":"new\n","target_before":"a\n"}`,
		before:  MapFiles{"f": []byte("a\nnew\nb\n")},
		after:   MapFiles{"f": []byte("a\nnew\nb\n")},
		status:  StatusAlreadyApplied,
		patch:   section("a/f", "b/f", sha("new\n"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+new\n",
		move:    MoveResult{TargetRange: &Range{0, 6}, InsertIndex: ptr(2)},
	},
	{
		name: "insertion widened", why: "the minimal context would match twice after the move, then once before it; it grows until neither",
		request: `{"src":"/dev/null","dst":"f","payload":"X","target_before":"a","target_after":"b"}`,
		before:  MapFiles{"f": []byte("ab\naXb\naXb\n")},
		after:   MapFiles{"f": []byte("aXb\naXb\naXb\n")},
		status:  StatusApplied,
		patch: section("a/f", "b/f", sha("X"), "") + "@@ -1,4 +1,5 @@ blockpatch-target id=move-1\n a\n" + NoNewlineMarker +
			"\n+X\n" + NoNewlineMarker + "\n b\n aXb\n aXb\n",
	},
	{
		name: "create_file", why: "whole-file creation with parent directories",
		request: `{"src":"/dev/null","dst":"d/new","payload":"x\ny","mode":"create_file"}`,
		before:  MapFiles{},
		after:   MapFiles{"d/new": []byte("x\ny")},
		status:  StatusApplied,
		patch:   section("/dev/null", "b/d/new", sha("x\ny"), "") + "@@ -0,0 +1,2 @@ blockpatch-target id=move-1\n+x\n+y\n" + NoNewlineMarker + "\n",
		move:    MoveResult{Src: DevNull, Dst: "d/new", TargetRange: &Range{0, 0}, InsertIndex: ptr(0)},
	},
	{
		name: "create_file empty", why: "an empty payload creates an empty file",
		request: `{"src":"/dev/null","dst":"e","payload":"","mode":"create_file"}`,
		before:  MapFiles{},
		after:   MapFiles{"e": []byte{}},
		status:  StatusApplied,
		patch:   section("/dev/null", "b/e", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-target id=move-1\n",
	},
	{
		name: "create_file already applied", why: "the destination already holds exactly the payload",
		request: `{"src":"/dev/null","dst":"e","payload":"same\n","mode":"create_file"}`,
		before:  MapFiles{"e": []byte("same\n")},
		after:   MapFiles{"e": []byte("same\n")},
		status:  StatusAlreadyApplied,
	},
	{
		name: "remove_file", why: "the whole file is the payload",
		request: `{"src":"f","dst":"/dev/null","mode":"remove_file"}`,
		before:  MapFiles{"f": []byte("a\r\nb"), "g": []byte("g")},
		after:   MapFiles{"g": []byte("g")},
		status:  StatusApplied,
		patch:   section("a/f", "/dev/null", sha("a\r\nb"), "") + "@@ -1,2 +0,0 @@ blockpatch-source id=move-1\n-a\r\n-b\n" + NoNewlineMarker + "\n",
		move:    MoveResult{Src: "f", Dst: DevNull, SourceRange: &Range{0, 4}},
	},
	{
		name: "remove_file empty", why: "an empty file is removed with a zero-line hunk",
		request: `{"src":"f","dst":"/dev/null","mode":"remove_file"}`,
		before:  MapFiles{"f": []byte{}},
		after:   MapFiles{},
		status:  StatusApplied,
		patch:   section("a/f", "/dev/null", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-source id=move-1\n",
	},
	{
		name: "hash accepted", why: "expected_payload_sha256 equal to the payload's hash",
		request: `{"src":"f","src_start":"b","src_end":"\n","dst":"/dev/null","expected_payload_sha256":"` + sha("b\n") + `"}`,
		before:  MapFiles{"f": []byte("a\nb\nc\n")},
		after:   MapFiles{"f": []byte("a\nc\n")},
		status:  StatusApplied,
	},
}

func ptr(i int) *int { return &i }

func TestPlanRequestShapes(t *testing.T) {
	t.Parallel()
	for _, tt := range shapeRequests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plan, err := planJSON(t, tt.request, tt.before)
			wantCode(t, err, "")
			res := plan.Result
			if res.Status != tt.status {
				t.Errorf("status %s, want %s (%s)", res.Status, tt.status, tt.why)
			}
			if diff := treeDiff(tt.after, tt.before.Apply(plan)); diff != "" {
				t.Errorf("move (-want +got) (%s):\n%s", tt.why, diff)
			}
			if res.Patch == nil {
				t.Fatal("no patch")
			}
			if tt.patch != "" && *res.Patch != tt.patch {
				t.Errorf("patch (-want +got) (%s):\n%s", tt.why, cmp.Diff(tt.patch, *res.Patch))
			}
			if res.StripComponents != nil || res.Written {
				t.Errorf("strip_components %v, written %v: a plan has neither", res.StripComponents, res.Written)
			}
			got, want := res.Moves[0], tt.move
			if got.ID != MoveID || got.PayloadSHA256 != sha(string(plan.payloadOf(t))) {
				t.Errorf("move id %s, sha %s", got.ID, got.PayloadSHA256)
			}
			if want.Src != "" && (got.Src != want.Src || got.Dst != want.Dst) {
				t.Errorf("src/dst %s/%s, want %s/%s", got.Src, got.Dst, want.Src, want.Dst)
			}
			if want.SourceRange != nil && !cmp.Equal(got.SourceRange, want.SourceRange) {
				t.Errorf("source_range %v, want %v", got.SourceRange, want.SourceRange)
			}
			if want.TargetRange != nil && !cmp.Equal(got.TargetRange, want.TargetRange) {
				t.Errorf("target_range %v, want %v", got.TargetRange, want.TargetRange)
			}
			if want.InsertIndex != nil && !cmp.Equal(got.InsertIndex, want.InsertIndex) {
				t.Errorf("insert_index %v, want %v", got.InsertIndex, want.InsertIndex)
			}
			// The patch is the artifact: check gives the same plan, and a
			// retry of an applied move is already_applied.
			again, err := Check([]byte(*res.Patch), tt.before, Options{Strip: 1})
			wantCode(t, err, "")
			if diff := treeDiff(tt.after, tt.before.Apply(again)); diff != "" {
				t.Errorf("check of the patch (-want +got):\n%s", diff)
			}
			if res.Status == StatusApplied {
				retry, err := Check([]byte(*res.Patch), tt.after, Options{Strip: 1})
				wantCode(t, err, "")
				if retry.Result.Status != StatusAlreadyApplied {
					t.Errorf("retry: %s, want already_applied", retry.Result.Status)
				}
			}
		})
	}
}

// payloadOf recovers the plan's payload from its patch, for the hash check.
func (p *Plan) payloadOf(t *testing.T) []byte {
	t.Helper()
	patch, err := Parse([]byte(*p.Result.Patch))
	wantCode(t, err, "")
	m, err := patch.Resolve(1)
	wantCode(t, err, "")
	return m.Payload()
}

// errorRequests covers each planner failure; want holds the details that
// must be set (code always).
var errorRequests = []struct {
	name, why string
	request   string
	tree      MapFiles
	want      Error
}{
	{"src_start missing", "anchor says which delimiter has no occurrence",
		`{"src":"f","src_start":"zz","src_end":"\n","target_before":"a"}`, MapFiles{"f": []byte("a\nb\n")},
		Error{Code: SourceNotFound, Anchor: "src_start", Path: "f", Phase: "source"}},
	{"src_end missing", "src_start occurs but no src_end after it",
		`{"src":"f","src_start":"b","src_end":"a","target_before":"a"}`, MapFiles{"f": []byte("a\nb\n")},
		Error{Code: SourceNotFound, Anchor: "src_end", Path: "f"}},
	{"selection ambiguous", "two src_start occurrences both pair with the src_end",
		`{"src":"f","src_start":"x","src_end":"end\n","dst":"/dev/null"}`, MapFiles{"f": []byte("x\nx\nend\n")},
		Error{Code: SourceAmbiguous, Path: "f", Matches: 2,
			Ranges: []Range{{0, 8}, {2, 8}}, LineRanges: []Range{{1, 3}, {2, 3}}}},
	{"selection ambiguous overlapping", "overlapping src_start occurrences count",
		`{"src":"f","src_start":"aa","src_end":"b","dst":"/dev/null"}`, MapFiles{"f": []byte("aaab")},
		Error{Code: SourceAmbiguous, Matches: 2, Ranges: []Range{{0, 4}, {1, 4}}}},
	{"selection ambiguous truncated", "counting stops at 11, as upstream's",
		`{"src":"f","src_start":"a","src_end":"b","dst":"/dev/null"}`, MapFiles{"f": []byte(strings.Repeat("a", 150) + "b")},
		Error{Code: SourceAmbiguous, Matches: 11, MatchesTruncated: true}},
	{"target missing", "", `{"src":"f","src_start":"a","src_end":"\n","target_before":"zz"}`, MapFiles{"f": []byte("a\nb\n")},
		Error{Code: TargetNotFound, Anchor: "target", Path: "f", Phase: "target"}},
	{"target ambiguous", "ranges cover target_before+target_after",
		`{"src":"/dev/null","dst":"f","payload":"p","target_before":"t","target_after":"\n"}`, MapFiles{"f": []byte("t\nt\n")},
		Error{Code: TargetAmbiguous, Anchor: "target", Matches: 2, Ranges: []Range{{0, 2}, {2, 4}}, LineRanges: []Range{{1, 1}, {2, 2}}}},
	{"target overlaps source", "the anchor lies inside the payload",
		`{"src":"f","src_start":"a","src_end":"c\n","target_before":"b\n"}`, MapFiles{"f": []byte("a\nb\nc\nd\n")},
		Error{Code: TargetOverlapsSource, SourceRange: &Range{0, 6}, TargetRange: &Range{2, 4}}},
	{"target overlaps source edge", "target_after starting in the payload's last byte",
		`{"src":"f","src_start":"a","src_end":"b","target_after":"bc"}`, MapFiles{"f": []byte("abc")},
		Error{Code: TargetOverlapsSource}},
	{"hash mismatch", "expected_payload_sha256 is checked before anything is written",
		`{"src":"f","src_start":"a","src_end":"\n","dst":"/dev/null","expected_payload_sha256":"` + strings.Repeat("0", 64) + `"}`,
		MapFiles{"f": []byte("a\nb\n")},
		Error{Code: HashMismatch, Field: "expected_payload_sha256", PayloadSHA256: sha("a\n")}},
	{"hash mismatch before read", "a request-carried payload is hashed before any file is read",
		`{"src":"/dev/null","dst":"missing","payload":"p","target_before":"x","expected_payload_sha256":"` + strings.Repeat("0", 64) + `"}`,
		MapFiles{},
		Error{Code: HashMismatch, PayloadSHA256: sha("p")}},
	{"destination exists", "create_file onto other bytes",
		`{"src":"/dev/null","dst":"f","payload":"new","mode":"create_file"}`, MapFiles{"f": []byte("old")},
		Error{Code: DestinationExists, Path: "f"}},
	{"source file missing", "", `{"src":"nope","src_start":"a","src_end":"b","target_before":"x"}`, MapFiles{},
		Error{Code: FileNotFound, Path: "nope"}},
	{"destination file missing", "", `{"src":"f","src_start":"a","src_end":"b","dst":"g","target_before":"x"}`, MapFiles{"f": []byte("ab")},
		Error{Code: FileNotFound, Path: "g"}},
	{"remove_file missing", "a JSON removal cannot prove its final state", `{"src":"f","dst":"/dev/null","mode":"remove_file"}`, MapFiles{},
		Error{Code: FileNotFound}},
	{"insertion file missing", "", `{"src":"/dev/null","dst":"f","payload":"p","target_before":"x"}`, MapFiles{},
		Error{Code: FileNotFound}},
	{"partial applied duplicate", "cross-file: payload still in src and already at the target",
		`{"src":"a","src_start":"P","src_end":"\n","dst":"b","target_before":"t\n"}`,
		MapFiles{"a": []byte("x\nP\n"), "b": []byte("t\nP\n")},
		Error{Code: PartialAppliedDuplicate, SourceRange: &Range{2, 4}, TargetRange: &Range{2, 4}, SuggestedAction: "review_then_remove_source"}},
	{"invalid utf8 payload", "", `{"src":"f","src_start":"a","src_end":"b","target_before":"t"}`, MapFiles{"f": []byte("a\xffbt")},
		Error{Code: InvalidUTF8, Path: "f"}},
	{"invalid utf8 context", "context lines are rendered too",
		`{"src":"f","src_start":"a","src_end":"b","dst":"g","target_before":"t"}`, MapFiles{"f": []byte("ab"), "g": []byte("\xfe t\n")},
		Error{Code: InvalidUTF8, Path: "g", Phase: "target"}},
	{"invalid path src", "", `{"src":"../f","src_start":"a","src_end":"b","target_before":"t"}`, MapFiles{},
		Error{Code: InvalidPath, Field: "src"}},
}

func TestPlanRequestErrors(t *testing.T) {
	t.Parallel()
	for _, tt := range errorRequests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			before := tt.tree.copy()
			_, err := planJSON(t, tt.request, tt.tree)
			wantCode(t, err, tt.want.Code)
			got := *err.(*Error)
			want := tt.want
			// Compare only the details the row sets.
			if want.Message == "" {
				got.Message = ""
			}
			if want.Phase == "" {
				got.Phase = ""
			}
			if want.Path == "" {
				got.Path = ""
			}
			if want.Field == "" {
				got.Field = ""
			}
			if want.PayloadSHA256 == "" {
				got.PayloadSHA256 = ""
			}
			if want.LineRanges == nil {
				got.LineRanges = nil
			}
			if want.Ranges == nil {
				got.Ranges = nil
			}
			if want.SourceRange == nil {
				got.SourceRange = nil
			}
			if want.TargetRange == nil {
				got.TargetRange = nil
			}
			if want.SuggestedAction == "" {
				got.SuggestedAction = ""
			}
			got.Err = nil
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.why, diff)
			}
			if diff := treeDiff(before, tt.tree); diff != "" {
				t.Errorf("the tree changed:\n%s", diff)
			}
		})
	}
}
