package reference

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

func TestParseRules(t *testing.T) {
	t.Parallel()
	shaMove := sha("move me\n")
	tests := []struct {
		name, reason string
		patch        string
		code         Code // "" for a valid patch
	}{
		{"relocation", "the upstream example parses", relocation, ""},
		{"empty", "a patch needs a section", "", ParseError},
		{"blank only", "blank lines are not a section", "\n\n", ParseError},
		{"leading blank lines", "a patch starts with its diff --blockpatch line", "\n\n" + relocation, ParseError},
		{"garbage before", "nothing but blank lines may precede a section", "hello\n" + relocation, ParseError},
		{"missing version", "version line must follow diff line",
			strings.Replace(relocation, "blockpatch version 1\n", "", 1), ParseError},
		{"version 2", "only version 1 exists",
			strings.Replace(relocation, "version 1", "version 2", 1), ParseError},
		{"missing metadata", "blockpatch move line is required",
			strings.Replace(relocation, "blockpatch move id=move-1 payload-sha256="+shaMove+"\n", "", 1), ParseError},
		{"unknown metadata key", "unknown keys are rejected",
			strings.Replace(relocation, "id=move-1 ", "id=move-1 colour=red ", 1), ParseError},
		{"x- metadata key", "x- keys are extensions",
			strings.Replace(relocation, "id=move-1 ", "id=move-1 x-tool=agent ", 1), ""},
		{"duplicate metadata key", "keys are unique",
			strings.Replace(relocation, "id=move-1 ", "id=move-1 id=move-1 ", 1), ParseError},
		{"missing id", "id is required",
			strings.Replace(relocation, "id=move-1 payload", "payload", 1), ParseError},
		{"uppercase hash", "payload-sha256 is lowercase hex",
			strings.Replace(relocation, shaMove, strings.ToUpper(shaMove), 1), ParseError},
		{"short hash", "payload-sha256 is 64 digits",
			strings.Replace(relocation, shaMove, shaMove[:63], 1), ParseError},
		{"double space in metadata", "tokens are separated by runs of blanks (upstream 1.1.0)",
			strings.Replace(relocation, "id=move-1 ", "id=move-1  ", 1), ""},
		{"id with slash", "any non-empty token is an id (upstream 1.1.0)",
			strings.ReplaceAll(relocation, "id=move-1", "id=move/1"), ""},
		{"empty id", "the id is not empty",
			strings.ReplaceAll(relocation, "id=move-1", "id="), ParseError},
		{"empty x- value", "extension values may be empty (upstream 1.1.0)",
			strings.Replace(relocation, "id=move-1 ", "id=move-1 x-note= ", 1), ""},
		{"role in single section", "role is for cross-file sections only",
			strings.Replace(relocation, "id=move-1 ", "id=move-1 role=source ", 1), ParseError},
		{"missing a/ prefix", "old path needs a/",
			strings.Replace(relocation, "a/file.txt", "file.txt", 2), ParseError},
		{"missing b/ prefix", "new path needs b/",
			strings.Replace(relocation, "b/file.txt", "x/file.txt", 2), ParseError},
		{"diff line names other paths", "diff line must repeat the header paths",
			strings.Replace(relocation, "diff --blockpatch a/file.txt", "diff --blockpatch a/other.txt", 1), ParseError},
		{"backslash path", "stripped paths are checked when the tree is read",
			strings.ReplaceAll(relocation, "file.txt", `dir\file.txt`), ""},
		{"dotdot path", "stripped paths are checked when the tree is read",
			strings.ReplaceAll(relocation, "/file.txt", "/../file.txt"), ""},
		{"dot path", "stripped paths are checked when the tree is read",
			strings.ReplaceAll(relocation, "/file.txt", "/./file.txt"), ""},
		{"empty segment", "stripped paths are checked when the tree is read",
			strings.ReplaceAll(relocation, "/file.txt", "//file.txt"), ""},
		{"prefix only", "a header names a path",
			strings.ReplaceAll(relocation, "/file.txt", "/"), ParseError},
		{"control char path", "control characters are rejected",
			strings.ReplaceAll(relocation, "file.txt", "fi\x01le.txt"), InvalidPath},
		{"header CR", "a header line may end in CRLF",
			strings.Replace(relocation, "blockpatch version 1\n", "blockpatch version 1\r\n", 1), ""},
		{"blank CR line", "a lone CR line is a blank separator",
			strings.Replace(relocation, "+++ b/file.txt\n\n", "+++ b/file.txt\n\r\n", 1), ""},
		{"blank inside hunk", "blank lines inside bodies are errors",
			strings.Replace(relocation, " alpha\n-move me\n", " alpha\n\n-move me\n", 1), ParseError},
		{"count too large", "counts must equal the body",
			strings.Replace(relocation, "@@ -1,3 +1,2 @@", "@@ -1,4 +1,3 @@", 1), ParseError},
		{"count too small", "counts must equal the body",
			strings.Replace(relocation, "@@ -1,3 +1,2 @@", "@@ -1,2 +1,1 @@", 1), ParseError},
		{"count omitted means one", "a range without count is one line",
			strings.Replace(relocation, "@@ -4,1 +4,2 @@", "@@ -4 +4,2 @@", 1), ""},
		{"hunk id differs", "hunk ids match the move id",
			strings.Replace(relocation, "blockpatch-target id=move-1", "blockpatch-target id=move-2", 1), ParseError},
		{"label", "labels follow the id",
			strings.Replace(relocation, "blockpatch-target id=move-1", "blockpatch-target id=move-1 constructor", 1), ""},
		{"plus in source hunk", "source hunks hold - lines only",
			strings.Replace(relocation, "-move me\n omega", "-move me\n+extra\n omega", 1), ParseError},
		{"payload not contiguous", "payload is one run",
			strings.Replace(relocation, "@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n alpha\n-move me\n omega\n",
				"@@ -1,4 +1,2 @@ blockpatch-source id=move-1\n alpha\n-move me\n omega\n-more\n", 1), ParseError},
		{"two source hunks", "one hunk of each kind",
			strings.Replace(relocation, "blockpatch-target id=move-1\n target\n+move me\n",
				"blockpatch-source id=move-1\n target\n-move me\n", 1), ParseError},
		{"empty in-file payload", "in-file moves carry bytes",
			section("a/f", "b/f", sha(""), "") + "@@ -1,2 +1,2 @@ blockpatch-source id=move-1\n a\n b\n", ParseError},
		{"target without context", "existing-file targets need context",
			section("a/f", "b/f", shaMove, "") + "@@ -1,0 +1,1 @@ blockpatch-target id=move-1\n+move me\n", ParseError},
		{"dev null both", "/dev/null -> /dev/null is invalid",
			section("/dev/null", "/dev/null", shaMove, "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+move me\n", ParseError},
		{"a/dev/null is a file", "prefixed dev/null is an ordinary path",
			section("a/dev/null", "b/dev/null", shaMove, "") + "@@ -1,2 +1,1 @@ blockpatch-source id=move-1\n x\n-move me\n", ""},
		{"create with context", "whole-file hunks have no context",
			section("/dev/null", "b/f", shaMove, "") + "@@ -0,1 +1,2 @@ blockpatch-target id=move-1\n ctx\n+move me\n", ParseError},
		{"create with source hunk", "creation has a target hunk only",
			section("/dev/null", "b/f", shaMove, "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-move me\n", ParseError},
		{"remove with context", "whole-file hunks have no context",
			section("a/f", "/dev/null", shaMove, "") + "@@ -1,2 +0,1 @@ blockpatch-source id=move-1\n-move me\n ctx\n", ParseError},
		{"empty create", "zero-byte creation is valid",
			section("/dev/null", "b/f", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-target id=move-1\n", ""},
		{"marker first", "a marker must follow a body line",
			section("/dev/null", "b/f", sha(""), "") + "@@ -0,0 +0,0 @@ blockpatch-target id=move-1\n" + NoNewlineMarker + "\n", ParseError},
		{"double marker", "one marker per line",
			strings.TrimSuffix(relocation, "\n") + "\n" + NoNewlineMarker + "\n" + NoNewlineMarker + "\n", ParseError},
		{"bad marker text", "the marker text is fixed",
			relocation + "\\ no newline\n", ParseError},
		{"marker at eof without newline", "the marker may end the file",
			relocation + NoNewlineMarker, ""},
		{"body line at eof without newline", "the last body line may lack its newline, and its bytes do too",
			strings.TrimSuffix(relocation, "\n"), ""},
		{"trailing blank lines", "blank lines may end the patch", relocation + "\n\n", ""},
		{"extra body line", "lines after the counts are not hunk lines", relocation + " extra\n", ParseError},
		{"three sections", "one move per patch",
			crossFile + section("a/c", "b/c", sha(payload3), "role=target") + "@@ -1,1 +1,4 @@ blockpatch-target id=move-1\n t\n+one\n+two\n+three\n", ParseError},
		{"cross-file", "two role sections", crossFile, ""},
		{"cross-file swapped", "roles decide, not order", crossFileSwapped, ""},
		{"cross-file two sources", "one of each role",
			strings.Replace(crossFile, "role=target", "role=source", 1), ParseError},
		{"cross-file no roles", "two sections need roles",
			strings.ReplaceAll(crossFile, "role=source ", ""), ParseError},
		{"cross-file hash differs", "sections share the hash",
			strings.Replace(crossFile, sha(payload3), sha("other"), 1), ParseError},
		{"cross-file id differs", "sections share the id",
			strings.Replace(strings.Replace(crossFile, "id=move-1 role=target", "id=move-2 role=target", 1), "blockpatch-target id=move-1", "blockpatch-target id=move-2", 1), ParseError},
		{"cross-file dev null", "cross-file sections name files",
			section("a/a", "b/a", sha(payload3), "role=source") + "@@ -1,4 +1,1 @@ blockpatch-source id=move-1\n s\n-one\n-two\n-three\n" +
				section("/dev/null", "b/b", sha(payload3), "role=target") + "@@ -0,0 +1,3 @@ blockpatch-target id=move-1\n+one\n+two\n+three\n", ParseError},
		{"path with space", "paths may hold spaces",
			strings.ReplaceAll(relocation, "file.txt", "my file.txt"), ""},
		{"hunk header garbage", "hunk headers have a fixed form",
			strings.Replace(relocation, "@@ -4,1 +4,2 @@ blockpatch-target", "@@ -4,1 +4,2 @@ target", 1), ParseError},
		{"section without hunk", "a section needs a hunk", section("a/f", "b/f", shaMove, ""), ParseError},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.patch))
			wantCode(t, err, tt.code)
			if err != nil && CodeOf(err) == ParseError && err.Error() == "" {
				t.Errorf("parse error without message")
			}
		})
	}
}

const payload3 = "one\ntwo\nthree\n"

var crossFile = section("a/a", "b/a", sha(payload3), "role=source") +
	"@@ -1,4 +1,1 @@ blockpatch-source id=move-1\n s\n-one\n-two\n-three\n\n" +
	section("a/b", "b/b", sha(payload3), "role=target") +
	"@@ -1,1 +1,4 @@ blockpatch-target id=move-1\n t\n+one\n+two\n+three\n"

var crossFileSwapped = section("a/b", "b/b", sha(payload3), "role=target") +
	"@@ -1,1 +1,4 @@ blockpatch-target id=move-1\n t\n+one\n+two\n+three\n\n" +
	section("a/a", "b/a", sha(payload3), "role=source") +
	"@@ -1,4 +1,1 @@ blockpatch-source id=move-1\n s\n-one\n-two\n-three\n"

func TestParseBytes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, reason           string
		body                   string // source hunk body
		before, payload, after string
	}{
		{"crlf", "CR before LF is content", " a\r\n-b\r\n c\r\n", "a\r\n", "b\r\n", "c\r\n"},
		{"bare cr", "a bare CR does not end a line", " a\rx\n-b\r\n c\n", "a\rx\n", "b\r\n", "c\n"},
		{"no newline after", "the marker strips the newline of the line before", " a\n-b\n c\n" + NoNewlineMarker + "\n", "a\n", "b\n", "c"},
		{"mid-line payload", "markers express mid-line boundaries", " a\n" + NoNewlineMarker + "\n-b\n" + NoNewlineMarker + "\n c\n", "a", "b", "c\n"},
		{"empty context line", "a lone space is an empty line", " \n-b\n \n", "\n", "b\n", "\n"},
		{"invalid utf-8", "bytes pass through", " \xff\xfe\n-\xc3\n \xe2\x82\n", "\xff\xfe\n", "\xc3\n", "\xe2\x82\n"},
		{"multibyte", "text passes through", " héllo\n-日本\n ✓\n", "héllo\n", "日本\n", "✓\n"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(section("a/f", "b/f", sha(tt.payload), "") +
				"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n" + tt.body))
			wantCode(t, err, "")
			h := p.SourceHunk()
			got := []string{string(h.Before), string(h.Payload), string(h.After)}
			want := []string{tt.before, tt.payload, tt.after}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("hunk bytes (-want +got):\n%s", diff)
			}
		})
	}
}

func TestParseShapes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		patch string
		shape Shape
	}{
		{"relocate", relocation, ShapeRelocate},
		{"cross-file", crossFile, ShapeRelocate},
		{"insert", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n", ShapeInsert},
		{"delete", section("a/f", "b/f", sha("x\n"), "") + "@@ -1,2 +1,1 @@ blockpatch-source id=move-1\n a\n-x\n", ShapeDelete},
		{"create", section("/dev/null", "b/f", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n", ShapeCreate},
		{"remove", section("a/f", "/dev/null", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n", ShapeRemove},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(tt.patch))
			wantCode(t, err, "")
			if p.Shape() != tt.shape {
				t.Errorf("shape %v, want %v", p.Shape(), tt.shape)
			}
		})
	}
}

func TestResolvePaths(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name     string
		patch    string
		strip    int
		src, dst string
		code     Code
	}{
		{"p1", relocation, 1, "file.txt", "file.txt", ""},
		{"p0 names two files", relocation, 0, "", "", ParseError},
		{"p2 strips everything", relocation, 2, "", "", ParseError},
		{"a negative count is no count", relocation, -1, "", "", InvalidOption},
		{"invalid UTF-8 is decoded as upstream reads it", strings.ReplaceAll(relocation, "/file.txt", "/f\xff\xe6\x97g\xed\xa0"), 1,
			"f\uFFFD\uFFFDg\uFFFD\uFFFD", "f\uFFFD\uFFFDg\uFFFD\uFFFD", ""},
		{"p1 keeps empty segments", strings.ReplaceAll(relocation, "/file.txt", "/d//file.txt"), 1, "d//file.txt", "d//file.txt", ""},
		{"p1 keeps a trailing slash", strings.ReplaceAll(relocation, "/file.txt", "/file.txt/"), 1, "file.txt/", "file.txt/", ""},
		{"p2 of a/ then slash", strings.ReplaceAll(relocation, "/file.txt", "//file.txt"), 2, "file.txt", "file.txt", ""},
		{"p0 same file after cleaning keeps both spellings (PATH-014)", strings.ReplaceAll(relocation, "/file.txt", "/../file.txt"), 0, "a/../file.txt", "b/../file.txt", ""},
		{"p2 nested", strings.ReplaceAll(relocation, "/file.txt", "/dir/file.txt"), 2, "file.txt", "file.txt", ""},
		{"cross-file", crossFile, 1, "a", "b", ""},
		{"cross-file swapped", crossFileSwapped, 1, "a", "b", ""},
		{"cross-file same file", strings.NewReplacer("a/b", "a/a", "b/b", "b/a").Replace(crossFile), 1, "", "", ParseError},
		{"create p0", section("/dev/null", "b/f", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n", 0, DevNull, "b/f", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			p, err := Parse([]byte(tt.patch))
			wantCode(t, err, "")
			m, err := p.Resolve(tt.strip)
			wantCode(t, err, tt.code)
			if err == nil && (m.Src != tt.src || m.Dst != tt.dst) {
				t.Errorf("src, dst = %q, %q; want %q, %q", m.Src, m.Dst, tt.src, tt.dst)
			}
		})
	}
}

func FuzzParseNoPanic(f *testing.F) {
	for _, s := range []string{relocation, crossFile, crossFileSwapped} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := Parse(data)
		if err != nil {
			if CodeOf(err) != ParseError && CodeOf(err) != InvalidPath {
				t.Fatalf("unexpected code %s", CodeOf(err))
			}
			return
		}
		if p.Shape() < ShapeRelocate || p.Shape() > ShapeRemove || bytes.Contains([]byte(p.ID), []byte(" ")) {
			t.Fatalf("accepted an invalid patch")
		}
	})
}

// TestParseLargePart: a part of many lines larger than hugeInput, copied
// into room whose huge pages are asked for (bulk), holds the lines'
// bytes without their prefixes, and formats back to the document.
func TestParseLargePart(t *testing.T) {
	t.Parallel()
	n := hugeInput/len("line 0 é\n") + 1 // no line is shorter
	doc := manyLinesPatch(n)
	p, err := Parse([]byte(doc))
	wantCode(t, err, "")
	payload := p.Sections[0].Hunks[0].Payload
	if len(payload) <= hugeInput {
		t.Fatalf("the payload holds %d bytes, want more than %d", len(payload), hugeInput)
	}
	if string(payload) != manyLines(n) {
		t.Error("the payload is not the body lines without their prefixes")
	}
	if string(Format(p)) != doc {
		t.Error("Format does not give the document back")
	}
}

// shareCase is what gopter generates for TestParseSharesEqualPayloads:
// the target hunk's payload lines (tokens, each with or without a
// no-newline marker after it), how the source hunk's lines differ from
// them, and the context lines around each payload.
type shareCase struct {
	Lines         []int
	N             int // how many of Lines
	Markers       []bool
	Change, At    int
	Before, After int
}

// shareTokens are the contents of payload lines.
var shareTokens = []string{"", "a", "bb", "é", "\r", "x\r", "-", "\\"}

// payloadLine is a payload line's content and whether a newline ends it.
type payloadLine struct {
	text string
	nl   bool
}

func joinPayload(lines []payloadLine) string {
	var b strings.Builder
	for _, l := range lines {
		b.WriteString(l.text)
		if l.nl {
			b.WriteByte('\n')
		}
	}
	return b.String()
}

// hunkText renders a hunk of before context lines, the payload lines and
// after context lines.
func hunkText(role Role, before int, lines []payloadLine, after int) string {
	context := before + after
	old, new := context+len(lines), context
	prefix := "-"
	if role == RoleTarget {
		old, new, prefix = context, context+len(lines), "+"
	}
	var b strings.Builder
	b.WriteString("@@ -1," + strconv.Itoa(old) + " +1," + strconv.Itoa(new) + " @@ blockpatch-" + string(role) + " id=move-1\n")
	b.WriteString(strings.Repeat(" c\n", before))
	for _, l := range lines {
		b.WriteString(prefix + l.text + "\n")
		if !l.nl {
			b.WriteString(NoNewlineMarker + "\n")
		}
	}
	b.WriteString(strings.Repeat(" d\n", after))
	return b.String()
}

// TestParseSharesEqualPayloads: a hunk whose payload lines give the bytes
// of an earlier hunk's payload of many lines shares that payload; any
// other payload, and every context, is its own lines' bytes. The source's lines are the
// target's, the same bytes cut into other lines by a marker, or the
// target's with one byte changed, added or taken away, a marker added or
// taken away, or a newline turned into another byte.
func TestParseSharesEqualPayloads(t *testing.T) {
	t.Parallel()
	params := gopter.DefaultTestParametersWithSeed(*propSeed)
	params.MinSuccessfulTests = 2000
	shared := 0
	props := gopter.NewProperties(params)
	props.Property("payloads are their lines' bytes, shared when equal", prop.ForAll(func(c shareCase) string {
		var tgt []payloadLine
		for i, tok := range c.Lines[:c.N] {
			tgt = append(tgt, payloadLine{shareTokens[tok], !c.Markers[i%len(c.Markers)]})
		}
		src := slices.Clone(tgt)
		i := c.At % len(src)
		switch l := &src[i]; c.Change % 7 {
		case 1: // the same bytes, one line cut in two by a marker
			if k := c.At % (len(l.text) + 1); k > 0 && k < len(l.text) {
				src = slices.Insert(src, i, payloadLine{l.text[:k], false})
				src[i+1].text = l.text[k:]
			}
		case 2:
			if l.text != "" {
				l.text = string(l.text[0]^1) + l.text[1:]
			}
		case 3:
			l.text += "z"
		case 4:
			if l.text != "" {
				l.text = l.text[1:]
			}
		case 5:
			l.nl = !l.nl
		case 6: // a newline turned into another byte
			if l.nl {
				l.text, l.nl = l.text+"n", false
			}
		}
		before, after := c.Before/3%3, c.After/3%3+1 // a target needs context
		doc := section("a/f", "b/f", sha(joinPayload(tgt)), "") +
			hunkText(RoleSource, c.Before%3, src, c.After%3) + hunkText(RoleTarget, before, tgt, after)
		p, err := Parse([]byte(doc))
		if err != nil {
			return fmt.Sprintf("Parse: %v\n%s", err, doc)
		}
		got := p.Sections[0].Hunks
		if string(got[0].Payload) != joinPayload(src) || string(got[1].Payload) != joinPayload(tgt) {
			return fmt.Sprintf("payloads %q and %q, want %q and %q", got[0].Payload, got[1].Payload, joinPayload(src), joinPayload(tgt))
		}
		contexts := []string{string(got[0].Before), string(got[0].After), string(got[1].Before), string(got[1].After)}
		want := []string{strings.Repeat("c\n", c.Before%3), strings.Repeat("d\n", c.After%3), strings.Repeat("c\n", before), strings.Repeat("d\n", after)}
		if !slices.Equal(contexts, want) {
			return fmt.Sprintf("contexts %q, want %q", contexts, want)
		}
		same := len(src) > 1 && len(tgt) > 1 && joinPayload(src) == joinPayload(tgt) && joinPayload(tgt) != ""
		if same {
			if unsafe.SliceData(got[0].Payload) != unsafe.SliceData(got[1].Payload) {
				return "equal payloads of many lines not shared"
			}
			shared++
		}
		return ""
	}, gen.Struct(reflect.TypeOf(shareCase{}), map[string]gopter.Gen{
		"Lines": gen.SliceOfN(6, gen.IntRange(0, len(shareTokens)-1)), "N": gen.IntRange(1, 6),
		"Markers": gen.SliceOfN(6, gen.Bool()),
		"Change":  gen.IntRange(0, 13), "At": gen.IntRange(0, 100),
		"Before": gen.IntRange(0, 8), "After": gen.IntRange(0, 8),
	})))
	props.TestingRun(t)
	if shared == 0 {
		t.Errorf("no payload was shared in %d cases", params.MinSuccessfulTests)
	}
}
