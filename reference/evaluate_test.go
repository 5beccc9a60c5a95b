package reference

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// shapeCases covers every shape with the awkward bytes: CRLF, bare CR, no
// final newline, multibyte and invalid UTF-8. Each after tree is written by
// hand from the spec's rules.
var shapeCases = []struct {
	name          string
	patch         string
	before, after MapFiles
}{
	{"same-file relocation", relocation,
		MapFiles{"file.txt": []byte("alpha\nmove me\nomega\ntarget\n")},
		MapFiles{"file.txt": []byte("alpha\nomega\ntarget\nmove me\n")}},
	{"relocation upwards", section("a/f", "b/f", sha("p\n"), "") +
		"@@ -3,2 +3,1 @@ blockpatch-source id=move-1\n y\n-p\n\n@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n+p\n x\n",
		MapFiles{"f": []byte("x\ny\np\n")},
		MapFiles{"f": []byte("p\nx\ny\n")}},
	{"crlf relocation", strings.ReplaceAll(relocation, "\n", "\r\n"), nil, nil}, // replaced in init: headers must stay LF
	{"cross-file", crossFile,
		MapFiles{"a": []byte("s\none\ntwo\nthree\n"), "b": []byte("t\n")},
		MapFiles{"a": []byte("s\n"), "b": []byte("t\none\ntwo\nthree\n")}},
	{"cross-file swapped sections", crossFileSwapped,
		MapFiles{"a": []byte("s\none\ntwo\nthree\n"), "b": []byte("t\n"), "other": []byte("untouched")},
		MapFiles{"a": []byte("s\n"), "b": []byte("t\none\ntwo\nthree\n"), "other": []byte("untouched")}},
	{"insert", section("a/f", "b/f", sha("ins\r\n"), "") + "@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n a\r\n+ins\r\n b\r\n",
		MapFiles{"f": []byte("a\r\nb\r\n")},
		MapFiles{"f": []byte("a\r\nins\r\nb\r\n")}},
	{"insert after only", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n",
		MapFiles{"f": []byte("a\nb\n")},
		MapFiles{"f": []byte("a\nx\nb\n")}},
	{"insert at end without newline", section("a/f", "b/f", sha("z"), "") +
		"@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+z\n" + NoNewlineMarker + "\n",
		MapFiles{"f": []byte("a\n")},
		MapFiles{"f": []byte("a\nz")}},
	{"delete", section("a/f", "b/f", sha("b\rc\n"), "") + "@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n a\n-b\rc\n d\n",
		MapFiles{"f": []byte("a\nb\rc\nd\n")},
		MapFiles{"f": []byte("a\nd\n")}},
	{"delete everything keeps empty file", section("a/f", "b/f", sha("x\n"), "") +
		"@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
		MapFiles{"f": []byte("x\n")},
		nil}, // payload-only: its reverse has no anchor; covered in TestReverseNeedsContext
	{"create", section("/dev/null", "b/dir/new.txt", sha("日本\xff\n"), "") +
		"@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+日本\xff\n",
		MapFiles{},
		MapFiles{"dir/new.txt": []byte("日本\xff\n")}},
	{"create empty", section("/dev/null", "b/empty", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-target id=move-1\n",
		MapFiles{},
		MapFiles{"empty": []byte{}}},
	{"remove", section("a/f", "/dev/null", sha("last"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-last\n" + NoNewlineMarker + "\n",
		MapFiles{"f": []byte("last"), "g": []byte("stays\n")},
		MapFiles{"g": []byte("stays\n")}},
	{"mid-line move", section("a/f", "b/f", sha("XY"), "") +
		"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n ab\n" + NoNewlineMarker + "\n-XY\n" + NoNewlineMarker + "\n cd\n\n" +
		"@@ -2,1 +2,2 @@ blockpatch-target id=move-1\n ef\n" + NoNewlineMarker + "\n+XY\n" + NoNewlineMarker + "\n",
		MapFiles{"f": []byte("abXYcd\nef")},
		MapFiles{"f": []byte("abcd\nefXY")}},
}

// oneWayRetry names the cases whose reverse cannot be retried: reversing an
// insertion with only a before-anchor is a deletion, and its final state is
// provable only when that anchor ends the file.
var oneWayRetry = map[string]bool{"insert after only": true}

func init() {
	// The CRLF relocation keeps LF headers and CRLF body bytes.
	for i := range shapeCases {
		if shapeCases[i].name == "crlf relocation" {
			shapeCases[i].patch = section("a/file.txt", "b/file.txt", sha("move me\r\n"), "") +
				"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n alpha\r\n-move me\r\n omega\r\n\n" +
				"@@ -4,1 +4,2 @@ blockpatch-target id=move-1\n target\r\n+move me\r\n"
			shapeCases[i].before = MapFiles{"file.txt": []byte("alpha\r\nmove me\r\nomega\r\ntarget\r\n")}
			shapeCases[i].after = MapFiles{"file.txt": []byte("alpha\r\nomega\r\ntarget\r\nmove me\r\n")}
		}
	}
}

func treeDiff(want, got MapFiles) string {
	w, g := map[string]string{}, map[string]string{}
	for k, v := range want {
		w[k] = string(v)
	}
	for k, v := range got {
		g[k] = string(v)
	}
	return cmp.Diff(w, g)
}

// TestShapes runs each shape forward, retries it, reverses it and retries
// the reverse, comparing whole trees.
func TestShapes(t *testing.T) {
	t.Parallel()
	for _, tt := range shapeCases {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			fwd, err := Check([]byte(tt.patch), tt.before, Options{Strip: 1})
			wantCode(t, err, "")
			if fwd.Result.Status != StatusApplied {
				t.Fatalf("status %s, want applied", fwd.Result.Status)
			}
			got := tt.before.Apply(fwd)
			want := tt.after
			if want == nil {
				want = MapFiles{"f": []byte{}}
			}
			if diff := treeDiff(want, got); diff != "" {
				t.Fatalf("after apply (-want +got):\n%s", diff)
			}
			retry, err := Check([]byte(tt.patch), got, Options{Strip: 1})
			wantCode(t, err, "")
			if retry.Result.Status != StatusAlreadyApplied || len(retry.Changes) != 0 || !retry.Result.Noop {
				t.Fatalf("retry: status %s with %d changes, want already_applied", retry.Result.Status, len(retry.Changes))
			}
			if tt.after == nil {
				return
			}
			rev, err := Check([]byte(tt.patch), got, Options{Strip: 1, Reverse: true})
			wantCode(t, err, "")
			if diff := treeDiff(tt.before, got.Apply(rev)); diff != "" {
				t.Fatalf("after reverse (-want +got):\n%s", diff)
			}
			again, err := Check([]byte(tt.patch), tt.before, Options{Strip: 1, Reverse: true})
			if oneWayRetry[tt.name] {
				wantCode(t, err, SourceNotFound)
				return
			}
			wantCode(t, err, "")
			if again.Result.Status != StatusAlreadyApplied {
				t.Fatalf("reverse retry: status %s, want already_applied", again.Result.Status)
			}
		})
	}
}

// TestReverseNeedsContext: a payload-only source hunk reversed has an
// empty target anchor, which is never found (upstream 1.1.0: -R is
// already_applied while the payload is there once, target_not_found once it
// is gone).
func TestReverseNeedsContext(t *testing.T) {
	t.Parallel()
	patch := section("a/f", "b/f", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n"
	_, err := Check([]byte(patch), MapFiles{"f": []byte("")}, Options{Strip: 1, Reverse: true})
	wantCode(t, err, TargetNotFound)
	plan, err := Check([]byte(patch), MapFiles{"f": []byte("a\nx\n")}, Options{Strip: 1, Reverse: true})
	wantCode(t, err, "")
	if plan.Result.Status != StatusAlreadyApplied || *plan.Result.Moves[0].TargetRange != (Range{2, 4}) {
		t.Errorf("status %s, target_range %v; want already_applied at {2 4}", plan.Result.Status, plan.Result.Moves[0].TargetRange)
	}
}

// TestResultFields checks the ApplyResult of each shape against upstream
// 1.1.0's answers: target_range is the matched anchor before the move, or
// context + payload + context when already applied.
func TestResultFields(t *testing.T) {
	t.Parallel()
	ptr := func(n int) *int { return &n }
	tests := []struct {
		name  string
		patch string
		files MapFiles
		want  Result
	}{
		{"same-file", relocation, MapFiles{"file.txt": []byte("alpha\nmove me\nomega\ntarget\n")}, Result{
			OK: true, Changed: []string{"file.txt"}, Affected: []string{"file.txt"}, Status: StatusApplied, StripComponents: ptr(1),
			Moves: []MoveResult{{ID: "move-1", Src: "file.txt", Dst: "file.txt", PayloadSHA256: sha("move me\n"), PayloadBytes: 8,
				SourceRange: &Range{6, 14}, TargetRange: &Range{20, 27}, InsertIndex: ptr(27)}}}},
		{"already applied", relocation, MapFiles{"file.txt": []byte("alpha\nomega\ntarget\nmove me\n")}, Result{
			OK: true, Changed: []string{}, Affected: []string{"file.txt"}, Noop: true, Status: StatusAlreadyApplied, StripComponents: ptr(1),
			Moves: []MoveResult{{ID: "move-1", Src: "file.txt", Dst: "file.txt", PayloadSHA256: sha("move me\n"), PayloadBytes: 8,
				TargetRange: &Range{12, 27}, InsertIndex: ptr(19)}}}},
		{"noop", section("a/f", "b/f", sha("p\n"), "") +
			"@@ -1,2 +1,1 @@ blockpatch-source id=move-1\n a\n-p\n\n@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+p\n",
			MapFiles{"f": []byte("a\np\n")}, Result{
				OK: true, Changed: []string{}, Affected: []string{"f"}, Noop: true, Status: StatusNoop, StripComponents: ptr(1),
				Moves: []MoveResult{{ID: "move-1", Src: "f", Dst: "f", PayloadSHA256: sha("p\n"), PayloadBytes: 2,
					SourceRange: &Range{2, 4}, TargetRange: &Range{0, 2}, InsertIndex: ptr(2)}}}},
		{"cross-file", crossFile, MapFiles{"a": []byte("s\none\ntwo\nthree\n"), "b": []byte("t\n")}, Result{
			OK: true, Changed: []string{"a", "b"}, Affected: []string{"a", "b"}, Status: StatusApplied, StripComponents: ptr(1),
			Moves: []MoveResult{{ID: "move-1", Src: "a", Dst: "b", PayloadSHA256: sha(payload3), PayloadBytes: 14,
				SourceRange: &Range{2, 16}, TargetRange: &Range{0, 2}, InsertIndex: ptr(2)}}}},
		{"remove", section("a/f", "/dev/null", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
			MapFiles{"f": []byte("x\n")}, Result{
				OK: true, Changed: []string{"f"}, Affected: []string{"f"}, Status: StatusApplied, StripComponents: ptr(1),
				Moves: []MoveResult{{ID: "move-1", Src: "f", Dst: DevNull, PayloadSHA256: sha("x\n"), PayloadBytes: 2,
					SourceRange: &Range{0, 2}}}}},
		{"remove already", section("a/f", "/dev/null", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
			MapFiles{}, Result{
				OK: true, Changed: []string{}, Affected: []string{"f"}, Noop: true, Status: StatusAlreadyApplied, StripComponents: ptr(1),
				Moves: []MoveResult{{ID: "move-1", Src: "f", Dst: DevNull, PayloadSHA256: sha("x\n"), PayloadBytes: 2}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plan, err := Check([]byte(tt.patch), tt.files, Options{Strip: 1})
			wantCode(t, err, "")
			if diff := cmp.Diff(tt.want, plan.Result); diff != "" {
				t.Errorf("result (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPlanErrors covers every error Evaluate returns, with the details
// upstream 1.1.0 gives.
func TestPlanErrors(t *testing.T) {
	t.Parallel()
	twice := "alpha\nmove me\nomega\ntarget\nalpha\nmove me\nomega\n"
	tests := []struct {
		name  string
		patch string
		files MapFiles
		want  Error // Code and the details to compare; Message is ignored
	}{
		{"source ambiguous", relocation, MapFiles{"file.txt": []byte(twice)}, Error{Code: SourceAmbiguous, Path: "file.txt", Phase: "source", Anchor: anchorSource,
			Matches: counted(2), Ranges: []Range{{0, 20}, {27, 47}}, LineRanges: []Range{{1, 3}, {5, 7}}}},
		{"source absent", relocation, MapFiles{"file.txt": []byte("nothing\n")}, Error{Code: SourceNotFound, Path: "file.txt", Phase: "source", Anchor: anchorSource, Matches: counted(0)}},
		{"payload mismatch envelope", relocation, MapFiles{"file.txt": []byte("alpha\nmoved me\nomega\ntarget\n")}, Error{Code: PayloadMismatch,
			Path: "file.txt", Phase: "payload", Anchor: anchorSource}},
		{"envelopes ambiguous", relocation, MapFiles{"file.txt": []byte("alpha\nx\nomega\nalpha\ny\nomega\ntarget\n")}, Error{Code: SourceAmbiguous,
			Path: "file.txt", Phase: "source", Anchor: anchorSource, Matches: counted(2), Ranges: []Range{{6, 8}, {20, 22}}, LineRanges: []Range{{2, 2}, {5, 5}}}},
		{"target absent", relocation, MapFiles{"file.txt": []byte("alpha\nmove me\nomega\n")}, Error{Code: TargetNotFound, Path: "file.txt", Phase: "target", Anchor: anchorTarget, Matches: counted(0)}},
		{"target ambiguous", relocation, MapFiles{"file.txt": []byte("alpha\nmove me\nomega\ntarget\ntarget\n")}, Error{Code: TargetAmbiguous,
			Path: "file.txt", Phase: "target", Anchor: anchorTarget, Matches: counted(2), Ranges: []Range{{20, 27}, {27, 34}}, LineRanges: []Range{{4, 4}, {5, 5}}}},
		{"target overlaps source", section("a/f", "b/f", sha("p\n"), "") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n a\n-p\n b\n\n@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n p\n+p\n b\n",
			MapFiles{"f": []byte("a\np\nb\n")}, Error{Code: TargetOverlapsSource, Path: "f", Phase: "target", Anchor: anchorTarget}},
		{"hash mismatch", strings.Replace(relocation, sha("move me\n"), sha("other"), 1),
			MapFiles{"file.txt": []byte("alpha\nmove me\nomega\ntarget\n")}, Error{Code: HashMismatch, Phase: "payload", Anchor: anchorHash}},
		{"paired payloads differ", strings.Replace(relocation, "+move me\n", "+move mE\n", 1),
			MapFiles{"file.txt": []byte("alpha\nmove me\nomega\ntarget\n")}, Error{Code: PayloadMismatch, Phase: "payload", Anchor: anchorTarget}},
		{"missing file", relocation, MapFiles{}, Error{Code: FileNotFound, Path: "file.txt", Phase: "path"}},
		{"missing target file", crossFile, MapFiles{"a": []byte("s\none\ntwo\nthree\n")}, Error{Code: FileNotFound, Path: "b", Phase: "path"}},
		{"destination exists", section("/dev/null", "b/f", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n",
			MapFiles{"f": []byte("y\n")}, Error{Code: DestinationExists, Path: "f", Phase: "target", Anchor: anchorTarget}},
		{"removal bytes differ", section("a/f", "/dev/null", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
			MapFiles{"f": []byte("x\ny\n")}, Error{Code: SourceNotFound, Path: "f", Phase: "source", Anchor: anchorSource, Matches: counted(0)}},
		{"partial applied duplicate", crossFile,
			MapFiles{"a": []byte("s\none\ntwo\nthree\n"), "b": []byte("t\none\ntwo\nthree\n")}, Error{Code: PartialAppliedDuplicate, Path: "b", Phase: "target", Anchor: anchorTarget,
				SourceRange: &Range{2, 16}, TargetRange: &Range{0, 16}, PayloadSHA256: sha(payload3), SuggestedAction: "review_then_remove_source"}},
		{"insert target absent", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n a\n+x\n b\n",
			MapFiles{"f": []byte("b\na\n")}, Error{Code: TargetNotFound, Path: "f", Phase: "target", Anchor: anchorTarget, Matches: counted(0)}},
		{"delete ambiguous", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
			MapFiles{"f": []byte("x\nx\n")}, Error{Code: SourceAmbiguous, Path: "f", Phase: "source", Anchor: anchorSource,
				Matches: counted(2), Ranges: []Range{{0, 2}, {2, 4}}, LineRanges: []Range{{1, 1}, {2, 2}}}},
		{"truncated count", section("a/f", "b/f", sha("x"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n" + NoNewlineMarker + "\n",
			MapFiles{"f": []byte(strings.Repeat("x", 150))}, Error{Code: SourceAmbiguous, Path: "f", Phase: "source", Anchor: anchorSource,
				Matches: counted(MatchCountLimit), MatchesTruncated: true,
				Ranges:     []Range{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 10}},
				LineRanges: []Range{{1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}, {1, 1}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Check([]byte(tt.patch), tt.files, Options{Strip: 1})
			wantCode(t, err, tt.want.Code)
			got := *err.(*Error)
			got.Message, got.Err = "", nil
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("error details (-want +got):\n%s", diff)
			}
		})
	}
}

// TestIdempotenceRules covers the already_applied rules of the one-sided
// shapes (D20, D26).
func TestIdempotenceRules(t *testing.T) {
	t.Parallel()
	del := func(body string, payload string) string { // a source-only hunk with counts from its body
		ctx, minus := strings.Count("\n"+body, "\n "), strings.Count("\n"+body, "\n-")
		return section("a/f", "b/f", sha(payload), "") +
			fmt.Sprintf("@@ -1,%d +1,%d @@ blockpatch-source id=move-1\n", ctx+minus, ctx) + body
	}
	tests := []struct {
		name, patch, file string
		status            Status
		code              Code
	}{
		{"anchors adjacent", del(" a\n-x\n b\n", "x\n"), "a\nb\n", StatusAlreadyApplied, ""},
		{"anchors adjacent twice", del(" a\n-x\n b\n", "x\n"), "a\nb\na\nb\n", "", SourceAmbiguous},
		{"after anchor at start", del("-x\n b\n", "x\n"), "b\nc\n", StatusAlreadyApplied, ""},
		{"after anchor not at start", del("-x\n b\n", "x\n"), "c\nb\n", "", SourceNotFound},
		{"before anchor at end", del(" a\n-x\n", "x\n"), "c\na\n", StatusAlreadyApplied, ""},
		{"before anchor not at end", del(" a\n-x\n", "x\n"), "a\nc\n", "", SourceNotFound},
		{"anchorless absent", del("-x\n", "x\n"), "a\n", StatusAlreadyApplied, ""},
		{"insert final present", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n",
			"a\nx\na\n", StatusAlreadyApplied, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			plan, err := Check([]byte(tt.patch), MapFiles{"f": []byte(tt.file)}, Options{Strip: 1})
			wantCode(t, err, tt.code)
			if err == nil && plan.Result.Status != tt.status {
				t.Errorf("status %s, want %s", plan.Result.Status, tt.status)
			}
		})
	}
}

// TestSameBytes cuts two strings into random slices, some of them sharing
// memory, and compares sameBytes with comparing the joined strings.
func TestSameBytes(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	cut := func(data []byte) [][]byte {
		var out [][]byte
		for len(data) > 0 {
			n := rng.IntN(len(data) + 1)
			out = append(out, data[:n])
			data = data[n:]
		}
		return out
	}
	for i := 0; i < 5000; i++ {
		base := []byte("ab\nab\nba")[:rng.IntN(9)]
		other := base
		switch rng.IntN(3) {
		case 0: // a copy: equal bytes, other memory
			other = bytes.Clone(base)
		case 1: // a copy with one byte changed, or a prefix
			other = bytes.Clone(base)
			if len(other) > 0 && rng.IntN(2) == 0 {
				other[rng.IntN(len(other))] ^= 1
			} else {
				other = other[:rng.IntN(len(other)+1)]
			}
		}
		want := bytes.Equal(base, other)
		if got := sameBytes(cut(base), cut(other)); got != want {
			t.Fatalf("sameBytes of %q and %q = %v, want %v", base, other, got, want)
		}
	}
}

// TestCheckParseError: Check of a patch that does not parse returns
// Parse's error and reads no file.
func TestCheckParseError(t *testing.T) {
	t.Parallel()
	_, err := Check([]byte("not a patch\n"), MapFiles{}, Options{Strip: 1})
	wantCode(t, err, ParseError)
}

// TestHashJudgedFirst: a payload whose hash differs is hash_mismatch
// whatever its file holds, whether it is hashed before the file is read
// (under splitMin: no file is read) or while it is (from splitMin on);
// with the hash right, the file's own errors come through.
func TestHashJudgedFirst(t *testing.T) {
	t.Parallel()
	for _, n := range []int{3, splitMin/len("line 0 é\n") + 1} {
		doc := manyLinesPatch(n)
		payload := manyLines(n)
		wrong := strings.Replace(doc, sha(payload), sha("other"), 1)
		twice := MapFiles{"f": []byte(payload + payload)}
		for _, tt := range []struct {
			name  string
			doc   string
			files MapFiles
			code  Code
		}{
			{"wrong hash, no file", wrong, MapFiles{}, HashMismatch},
			{"wrong hash, source twice in the file", wrong, twice, HashMismatch},
			{"right hash, no file", doc, MapFiles{}, FileNotFound},
			{"right hash, source twice in the file", doc, twice, SourceAmbiguous},
			{"right hash, source in the file", doc, MapFiles{"f": []byte("a\n" + payload + "b\n")}, ""},
		} {
			t.Run(strconv.Itoa(len(payload))+" bytes, "+tt.name, func(t *testing.T) {
				files := &readCounter{Files: tt.files}
				_, err := Check([]byte(tt.doc), files, Options{Strip: 1})
				wantCode(t, err, tt.code)
				if tt.code == HashMismatch && len(payload) < splitMin && files.reads > 0 {
					t.Errorf("%d files read before a payload under splitMin was found not to give its hash", files.reads)
				}
			})
		}
	}
}

// TestHashedSumOf: a known hash is taken for the very bytes it was made
// of, and for no copy of them.
func TestHashedSumOf(t *testing.T) {
	t.Parallel()
	payload := []byte("x\n")
	known := func() string { return "known" }
	k := &hashed{payload: payload, sum: known}
	for _, tt := range []struct {
		name string
		k    *hashed
		in   []byte
		want string
	}{
		{"the bytes themselves", k, payload, "known"},
		{"a copy", k, []byte("x\n"), sha("x\n")},
		{"a shorter slice", k, payload[:1], sha("x")},
		{"a later slice", k, payload[1:], sha("\n")},
		{"empty, known empty", &hashed{sum: known}, []byte{}, "known"},
		{"empty, known not", k, nil, sha("")},
		{"nothing known", nil, payload, sha("x\n")},
	} {
		if got := tt.k.sumOf(tt.in); got != tt.want {
			t.Errorf("%s: sumOf = %s, want %s", tt.name, got, tt.want)
		}
	}
}

// readCounter is Files counting the files read.
type readCounter struct {
	Files
	reads int
}

func (r *readCounter) ReadFile(path string) ([]byte, error) {
	r.reads++
	return r.Files.ReadFile(path)
}

// TestOneFileTwoSpellingsReadOnce: a relocation whose src and dst spell one
// file two ways is planned from the one read of src (PATH-016). The tree
// gives the second spelling other bytes, as only a file changed between
// the two reads could; planning from both would cut one read at offsets
// found in the other, or look for the moved text in the wrong one.
func TestOneFileTwoSpellingsReadOnce(t *testing.T) {
	t.Parallel()
	patch := strings.NewReplacer("a/file.txt", "a/d/f.txt", "b/file.txt", "b/d//f.txt").Replace(relocation)
	req, err := DecodeRequest([]byte(`{"src":"d/f.txt","dst":"d//f.txt","src_start":"move","src_end":"me\n","target_before":"target\n"}`))
	wantCode(t, err, "")
	for _, tt := range []struct {
		before, after string
		status        Status
	}{
		{"alpha\nmove me\nomega\ntarget\n", "alpha\nomega\ntarget\nmove me\n", StatusApplied},
		{"alpha\nomega\ntarget\nmove me\n", "", StatusAlreadyApplied},
	} {
		tree := MapFiles{"d/f.txt": []byte(tt.before), "d//f.txt": []byte("x\n")}
		var want []Change
		if tt.after != "" {
			want = []Change{{Path: "d/f.txt", Data: [][]byte{[]byte(tt.after)}}}
		}
		checked, err := Check([]byte(patch), tree, Options{Strip: 1})
		wantCode(t, err, "")
		planned, err := PlanRequest(req, tree)
		if tt.status == StatusAlreadyApplied {
			planned, err = nil, nil // a request has nothing to find once moved
		}
		wantCode(t, err, "")
		for name, plan := range map[string]*Plan{"check": checked, "plan": planned} {
			if plan == nil {
				continue
			}
			var got []Change
			for _, c := range plan.Changes {
				got = append(got, Change{Path: c.Path, Data: [][]byte{c.Bytes()}})
			}
			if plan.Result.Status != tt.status {
				t.Errorf("%s of %q: status %s, want %s", name, tt.before, plan.Result.Status, tt.status)
			}
			if d := cmp.Diff(want, got); d != "" {
				t.Errorf("%s of %q: changes (-want +got):\n%s", name, tt.before, d)
			}
		}
	}
}
