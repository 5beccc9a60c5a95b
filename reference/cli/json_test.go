package cli

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// TestAppendJSONStringMatchesEncodingJSON: the patch's own escaping writes
// what encoding/json writes, on strings made of the bytes and runes it
// treats apart (controls, quotes, HTML bytes, U+2028/2029, invalid UTF-8,
// multi-byte runes), at every alignment of the eight-byte steps.
func TestAppendJSONStringMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "plain text ", "\n", "\r\n", "\t", "\b", "\f", "\x00", "\x1f", "\x7f", `"`, `\`, "<", ">", "&",
		"é", "€", "𝄞", "\u2028", "\u2029", "\xe2\x80", "\xff", "\xc3", "\xed\xa0\x80"}
	rng := rand.New(rand.NewPCG(23, 12))
	for i := range 3000 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		s := b.String()
		if i%2 == 0 {
			s = strings.Repeat("x", i%9) + s
		}
		want, _ := json.Marshal(s)
		if got := appendJSONString(nil, s); !bytes.Equal(got, want) {
			t.Fatalf("appendJSONString(%q) = %s, want %s", s, got, want)
		}
	}
}

// TestAppendJSONBodyEveryByte: each byte value, at each position of the
// vector loop's 32-byte blocks and of the 8-byte steps after them, is
// escaped or kept as encoding/json does.
func TestAppendJSONBodyEveryByte(t *testing.T) {
	t.Parallel()
	for b := range 256 {
		for k := range 72 {
			s := []byte(strings.Repeat("a", 75))
			s[k] = byte(b)
			want, _ := json.Marshal(string(s))
			if got := appendJSONString(nil, string(s)); !bytes.Equal(got, want) {
				t.Fatalf("byte %#x at %d: %s, want %s", b, k, got, want)
			}
		}
	}
}

// TestJSONStreamMatchesEncodingJSON: a string written to a jsonStream in
// pieces of any length, cutting runes anywhere, comes out as encoding/json
// escapes it whole, also when pieces are longer than a stretch and runes
// of two, three and four bytes, U+2028 and invalid bytes fall on a
// stretch's end.
func TestJSONStreamMatchesEncodingJSON(t *testing.T) {
	t.Parallel()
	pieces := []string{"a", "plain text ", "\n", "\t", "\x00", `"`, `\`, "<", "&", "é", "€", "𝄞", "\u2028", "\xe2\x80", "\xff", "\xed\xa0\x80", "\x80\x80\x80\x80"}
	cut := strings.Repeat("a", largePatch-2)
	rng := rand.New(rand.NewPCG(23, 5))
	var inputs []string
	for range 500 {
		var b strings.Builder
		for range rng.IntN(60) {
			b.WriteString(pieces[rng.IntN(len(pieces))])
		}
		inputs = append(inputs, b.String())
	}
	for _, end := range []string{"𝄞z", "a\u2028z", "\xe2\x80z", "é\xe2\x80\xa8", "\x80\x80\x80\x80\x80", "\xe2"} {
		inputs = append(inputs, cut+end, cut+end+cut+end)
	}
	// A stretch's end on each byte of a four-byte rune: the stretch
	// backs up to its start, up to three bytes.
	for k := 1; k <= 4; k++ {
		inputs = append(inputs, strings.Repeat("a", largePatch-k)+"𝄞z")
	}
	for i, in := range inputs {
		var got bytes.Buffer
		s := &jsonStream{w: &got}
		for rest := in; len(rest) > 0; {
			n := min(len(rest), 1+rng.IntN(8))
			if i%3 == 0 || i >= len(inputs)-4 { // whole, or nearly, so stretches are cut
				n = min(len(rest), largePatch+1+rng.IntN(3))
			}
			if k, err := s.Write([]byte(rest[:n])); k != n || err != nil {
				t.Fatalf("input %d: Write returned %d, %v", i, k, err)
			}
			rest = rest[n:]
		}
		got.Write(s.finish())
		want, _ := json.Marshal(in)
		if !bytes.Equal(got.Bytes(), want[1:len(want)-1]) {
			t.Fatalf("input %d (%d bytes): the stream differs from encoding/json", i, len(in))
		}
	}
}

// docOf is a one-hunk patch with the given parts.
func docOf(before, payload, after string) *reference.Patch {
	return &reference.Patch{ID: "move-1", PayloadSHA256: strings.Repeat("0", 64), Sections: []*reference.Section{{
		OldPath: "a/a.txt", NewPath: "b/a.txt", Hunks: []*reference.Hunk{{Role: reference.RoleSource,
			OldStart: 1, NewStart: 1, Before: []byte(before), Payload: []byte(payload), After: []byte(after)}}}}}
}

// TestWriteResultMatchesWriteJSON: a result with a patch, small or large,
// with and without warnings, is written byte for byte as writeJSON writes
// it with the rendered patch.
func TestWriteResultMatchesWriteJSON(t *testing.T) {
	t.Parallel()
	lines := strings.Repeat("diff <a> & \"b\"\n\tline\u2028é𝄞\xff\xe2\x80\n", 3*largePatch/16)
	cut := strings.Repeat("a", largePatch-4)
	docs := []*reference.Patch{
		docOf("small\n", "x\n", "y"),
		docOf(lines, "payload\n", lines),
		// One line longer than a stretch, with a rune across its end.
		docOf(cut+"𝄞z", "\u2028", cut+"é\xe2\x80\xa8"),
	}
	strip, insert := 1, 7
	for i, doc := range docs {
		for _, warnings := range [][]reference.Warning{nil, {{Code: "adjacent_bytes", Message: "<m>"}}} {
			res := reference.Result{OK: true, Changed: []string{"a.txt"}, Affected: []string{"a.txt"}, Status: reference.StatusApplied,
				Moves:           []reference.MoveResult{{ID: "move-1", Src: "a.txt", Dst: "a.txt", InsertIndex: &insert}},
				StripComponents: &strip, Warnings: warnings}
			var got, want bytes.Buffer
			if err := writeResult(&got, res, doc); err != nil {
				t.Fatal(err)
			}
			text := string(reference.Format(doc))
			res.Patch = &text
			if err := writeJSON(&want, res); err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got.Bytes(), want.Bytes()) {
				t.Errorf("patch %d, %d warnings: writeResult differs from writeJSON", i, len(warnings))
			}
		}
	}
}

// BenchmarkAppendJSONBody: escaping a patch of long plain lines, the
// one-line shape's, and of code with tabs and quotes.
func BenchmarkAppendJSONBody(b *testing.B) {
	for _, in := range []struct{ name, text string }{
		{"plain", strings.Repeat("item00000000 ", 1<<16)},
		{"code", strings.Repeat("\tif err != nil {\n\t\treturn fmt.Errorf(\"x: %w\", err)\n\t}\n", 1<<14)},
	} {
		b.Run(in.name, func(b *testing.B) {
			b.SetBytes(int64(len(in.text)))
			dst := make([]byte, 0, 2*len(in.text))
			for b.Loop() {
				dst = appendJSONBody(dst[:0], in.text)
			}
		})
	}
}
