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

// TestWriteResultMatchesWriteJSON: a result with a large patch, with and
// without warnings, is written byte for byte as writeJSON writes it.
func TestWriteResultMatchesWriteJSON(t *testing.T) {
	t.Parallel()
	// Runes of two, three and four bytes and invalid bytes fall on the
	// ends of the stretches the patch is written in.
	patch := strings.Repeat("diff <a> & \"b\"\n\tline\u2028é𝄞\xff\xe2\x80\n", 3*largePatch/16)
	strip, insert := 1, 7
	res := reference.Result{OK: true, Changed: []string{"a.txt"}, Affected: []string{"a.txt"}, Status: reference.StatusApplied,
		Moves:           []reference.MoveResult{{ID: "move-1", Src: "a.txt", Dst: "a.txt", InsertIndex: &insert}},
		StripComponents: &strip, Patch: &patch}
	// And a rune of four bytes, U+2028 and an invalid pair across the
	// end of the first stretch.
	cut := strings.Repeat("a", largePatch-2)
	for i, patch := range []string{patch, cut + "𝄞z", cut + "a\u2028z", cut + "\xe2\x80z", cut + "é\xe2\x80\xa8"} {
		res.Patch = &patch
		warnings := [][]reference.Warning{nil, {{Code: "adjacent_bytes", Message: "<m>"}}}[i%2]
		res.Warnings = warnings
		var got, want bytes.Buffer
		if err := writeResult(&got, res); err != nil {
			t.Fatal(err)
		}
		if err := writeJSON(&want, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got.Bytes(), want.Bytes()) {
			t.Errorf("patch %d, %d warnings: writeResult differs from writeJSON", i, len(warnings))
		}
	}
}
