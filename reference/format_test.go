package reference

import (
	"bytes"
	"errors"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// canonicalPatches are documents in the canonical layout, which Parse then
// Format must reproduce byte for byte.
func canonicalPatches(t *testing.T) map[string]string {
	t.Helper()
	out := map[string]string{
		"relocation": backToBack(relocation),
		"labels and extensions": "diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=m.1_x-y payload-sha256=" + sha("x\n") + " x-tool=t x-b=2\n--- a/f\n+++ b/f\n\n" +
			"@@ -1,2 +1,1 @@ blockpatch-source id=m.1_x-y function f() {\n a\n-x\n" +
			"@@ -9,1 +8,2 @@ blockpatch-target id=m.1_x-y\n+x\n z\n",
		"empty context line": section("a/f", "b/f", sha("x\n"), "") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n \n-x\n \r\n",
		"markers everywhere": section("a/f", "b/f", sha("XY"), "") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n ab\n" + NoNewlineMarker + "\n-XY\n" + NoNewlineMarker + "\n cd\n" +
			"@@ -2,1 +2,2 @@ blockpatch-target id=move-1\n ef\n" + NoNewlineMarker + "\n+XY\n" + NoNewlineMarker + "\n",
		"empty removal": section("a/f", "/dev/null", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-source id=move-1\n\n",
	}
	for _, c := range shapeCases {
		doc := backToBack(c.patch)
		if strings.HasSuffix(doc, " @@ blockpatch-target id=move-1\n") || strings.HasSuffix(doc, " @@ blockpatch-source id=move-1\n") {
			doc += "\n" // an empty body is written as one blank line
		}
		out["shape "+c.name] = doc
	}
	// Upstream's rendered patches are canonical.
	for _, r := range upstreamPlans(t) {
		if patch, ok := r.Plan["patch"].(string); ok {
			out["upstream plan "+r.Name] = patch
		}
	}
	return out
}

// backToBack drops the blank line that older layouts put between the
// hunks of a section.
func backToBack(doc string) string {
	lines := strings.SplitAfter(doc, "\n")
	var b strings.Builder
	for i, l := range lines {
		if l == "\n" && i > 0 && i+1 < len(lines) && strings.HasPrefix(lines[i+1], "@@ ") && !strings.HasPrefix(lines[i-1], "+++ ") {
			continue
		}
		b.WriteString(l)
	}
	return b.String()
}

// patchOpts compares patches with nil and empty byte slices as equal: the
// parser leaves empty context nil.
var patchOpts = cmpopts.EquateEmpty()

func TestFormatRoundTrip(t *testing.T) {
	t.Parallel()
	for name, doc := range canonicalPatches(t) {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(doc))
			wantCode(t, err, "")
			got := string(Format(p))
			if got != doc {
				t.Fatalf("Parse then Format changed the document (-want +got):\n%s", cmp.Diff(doc, got))
			}
			again, err := Parse([]byte(got))
			wantCode(t, err, "")
			if diff := cmp.Diff(p, again, patchOpts); diff != "" {
				t.Fatalf("Format then Parse changed the patch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestFormatCanonicalises formats documents in other accepted layouts:
// the result is canonical and parses back to the same patch.
func TestFormatCanonicalises(t *testing.T) {
	t.Parallel()
	tests := map[string]struct{ in, want string }{
		"counts omitted and extra blank lines": {
			section("a/f", "b/f", sha("x\n"), "") + "\n\n@@ -2 +2,0 @@ blockpatch-source id=move-1\n-x\n\n\n" +
				"@@ -5 +4,2 @@ blockpatch-target id=move-1\n+x\n z\n\n",
			section("a/f", "b/f", sha("x\n"), "") + "@@ -2,1 +2,0 @@ blockpatch-source id=move-1\n-x\n" +
				"@@ -5,1 +4,2 @@ blockpatch-target id=move-1\n+x\n z\n",
		},
		"marker without final newline": {
			section("a/f", "b/f", sha("x"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n" + NoNewlineMarker,
			section("a/f", "b/f", sha("x"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n" + NoNewlineMarker + "\n",
		},
		"target section first": {crossFileSwapped, crossFileSwapped},
	}
	for name, tt := range tests {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(tt.in))
			wantCode(t, err, "")
			got := string(Format(p))
			if got != tt.want {
				t.Fatalf("(-want +got):\n%s", cmp.Diff(tt.want, got))
			}
			again, err := Parse([]byte(got))
			wantCode(t, err, "")
			if diff := cmp.Diff(p, again, patchOpts); diff != "" {
				t.Fatalf("Format then Parse changed the patch (-want +got):\n%s", diff)
			}
		})
	}
}

// TestMovePatchRoundTrip checks that Move.Patch inverts Resolve(1): a
// parsed move, turned back into a patch and formatted, resolves to the
// same move.
func TestMovePatchRoundTrip(t *testing.T) {
	t.Parallel()
	for name, doc := range canonicalPatches(t) {
		p, err := Parse([]byte(doc))
		wantCode(t, err, "")
		if len(p.Sections[0].Extensions) > 0 || p.SourceHunk() != nil && p.SourceHunk().Label != "" {
			continue // Move does not carry extensions or labels
		}
		m, err := p.Resolve(1)
		wantCode(t, err, "")
		q, err := Parse(Format(m.Patch()))
		wantCode(t, err, "")
		back, err := q.Resolve(1)
		wantCode(t, err, "")
		if diff := cmp.Diff(m, back, patchOpts); diff != "" {
			t.Errorf("%s: (-want +got):\n%s", name, diff)
		}
	}
}

// TestNewHunkCounts checks that counts are body lines, a line without a
// final newline included, and that starts are kept as given.
func TestNewHunkCounts(t *testing.T) {
	t.Parallel()
	data := []byte("l1\nl2\nl3\nl4\n")
	tests := []struct {
		name                   string
		h                      *Hunk
		oldS, oldC, newS, newC int
	}{
		{"source with context", newHunk(RoleSource, 2, 2, data[3:6], data[6:9], data[9:12]), 2, 3, 2, 2},
		{"source payload only", newHunk(RoleSource, 3, 3, nil, data[6:9], nil), 3, 1, 3, 0},
		{"target", newHunk(RoleTarget, 4, 2, data[9:12], []byte("a\nb"), nil), 4, 1, 2, 3},
		{"creation", newHunk(RoleTarget, 0, 1, nil, []byte("x\n"), nil), 0, 0, 1, 1},
		{"empty creation", newHunk(RoleTarget, 0, 0, nil, []byte{}, nil), 0, 0, 0, 0},
		{"removal", newHunk(RoleSource, 1, 0, nil, data, nil), 1, 4, 0, 0},
	}
	for _, tt := range tests {
		h := tt.h
		if h.OldStart != tt.oldS || h.OldCount != tt.oldC || h.NewStart != tt.newS || h.NewCount != tt.newC {
			t.Errorf("%s: -%d,%d +%d,%d, want -%d,%d +%d,%d", tt.name,
				h.OldStart, h.OldCount, h.NewStart, h.NewCount, tt.oldS, tt.oldC, tt.newS, tt.newC)
		}
	}
}

// TestFormatMarkerInsidePayload renders a patch whose no-newline marker
// joined two payload lines: the counts follow the lines rendered, so the
// result parses to the same bytes.
func TestFormatMarkerInsidePayload(t *testing.T) {
	t.Parallel()
	in := section("a/a.txt", DevNull, sha("aa\n"), "") +
		"@@ -1,2 +0,0 @@ blockpatch-source id=move-1\n-a\n" + NoNewlineMarker + "\n-a\n"
	p, err := Parse([]byte(in))
	wantCode(t, err, "")
	q, err := Parse(Format(p))
	wantCode(t, err, "")
	if got := q.SourceHunk(); string(got.Payload) != "aa\n" || got.OldCount != 1 {
		t.Errorf("re-parsed payload %q with old count %d; want \"aa\\n\" in 1 line", got.Payload, got.OldCount)
	}
}

// pieceRecorder records each write; from its failAt-th write on (when
// failAt > 0) it fails.
type pieceRecorder struct {
	writes [][]byte
	failAt int
}

var errRecorder = errors.New("recorder: write refused")

func (r *pieceRecorder) Write(b []byte) (int, error) {
	r.writes = append(r.writes, slices.Clone(b))
	if r.failAt > 0 && len(r.writes) >= r.failAt {
		return 0, errRecorder
	}
	return len(b), nil
}

// manyLinesPatch is a deletion of n short body lines, each with a
// two-byte rune, and longLinePatch one of a single line of n two-byte
// runes.
func manyLinesPatch(n int) string {
	payload := manyLines(n)
	body := "-" + strings.ReplaceAll(payload, "\n", "\n-")
	return section("a/f", "b/f", sha(payload), "") +
		"@@ -1," + strconv.Itoa(n) + " +1,0 @@ blockpatch-source id=move-1\n" + body[:len(body)-1]
}

// manyLines is the payload of manyLinesPatch(n).
func manyLines(n int) string {
	var b strings.Builder
	for i := range n {
		b.WriteString("line " + strconv.Itoa(i) + " é\n")
	}
	return b.String()
}

func longLinePatch(n int) string {
	line := strings.Repeat("é", n) + "\n"
	return section("a/f", "b/f", sha(line), "") + "@@ -1,1 +1,0 @@ blockpatch-source id=move-1\n-" + line
}

// TestWritePatchIsFormat: WritePatch writes Format's bytes; each write
// ends where a piece does, so none splits a rune; short pieces are
// gathered into few writes, and a piece as long as the room is written
// from the patch's own bytes, not copied.
func TestWritePatchIsFormat(t *testing.T) {
	t.Parallel()
	docs := canonicalPatches(t)
	docs["many short lines"] = manyLinesPatch(20000)
	docs["long line"] = longLinePatch(gatherSize)
	long := strings.Repeat("é", gatherSize) + "\n"
	docs["two long lines"] = section("a/f", "b/f", sha(long+long), "") + "@@ -1,2 +1,0 @@ blockpatch-source id=move-1\n-" + long + "-" + long
	for name, doc := range docs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(doc))
			wantCode(t, err, "")
			var rec pieceRecorder
			if err := WritePatch(&rec, p); err != nil {
				t.Fatal(err)
			}
			if got := string(bytes.Join(rec.writes, nil)); got != string(Format(p)) {
				t.Fatalf("WritePatch differs from Format (-Format +WritePatch):\n%s", cmp.Diff(string(Format(p)), got))
			}
			for i, w := range rec.writes {
				if utf8.Valid([]byte(doc)) && !utf8.Valid(w) {
					t.Errorf("write %d splits a rune: %q", i, w)
				}
			}
			if most := len(doc)/(gatherSize/2) + 2; len(rec.writes) > most {
				t.Errorf("%d writes for %d bytes, want at most %d", len(rec.writes), len(doc), most)
			}
		})
	}
	t.Run("long line not copied", func(t *testing.T) {
		t.Parallel()
		p, err := Parse([]byte(longLinePatch(gatherSize)))
		wantCode(t, err, "")
		payload := p.Sections[0].Hunks[0].Payload
		var rec aliasRecorder
		if err := WritePatch(&rec, p); err != nil {
			t.Fatal(err)
		}
		if !slices.ContainsFunc(rec.firsts, func(b *byte) bool { return b == &payload[0] }) {
			t.Error("no write passed the payload's own bytes")
		}
	})
}

// aliasRecorder records the address of each write's first byte.
type aliasRecorder struct{ firsts []*byte }

func (r *aliasRecorder) Write(b []byte) (int, error) {
	if len(b) > 0 {
		r.firsts = append(r.firsts, &b[0])
	}
	return len(b), nil
}

// TestWritePatchStopsAtError: WritePatch returns its writer's first error
// and writes nothing after it.
func TestWritePatchStopsAtError(t *testing.T) {
	t.Parallel()
	p, err := Parse([]byte(manyLinesPatch(20000)))
	wantCode(t, err, "")
	rec := pieceRecorder{failAt: 2}
	if err := WritePatch(&rec, p); !errors.Is(err, errRecorder) {
		t.Fatalf("WritePatch = %v, want the writer's error", err)
	}
	if len(rec.writes) != 2 {
		t.Errorf("%d writes, want 2: none after the failing one", len(rec.writes))
	}
}
