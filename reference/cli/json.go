package cli

import (
	"encoding/json"
	"io"
	"unicode/utf8"
	"unsafe"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/runes"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// largePatch is the length of the stretches in which writeResult writes
// a patch: past the first, it asks for a wider pipe (widenPipe).
const largePatch = 1 << 20

// writeResult writes res with doc, plan's patch, as its patch member, as
// writeJSON writes the result whose Patch is Format(doc), byte for byte;
// with no doc it is writeJSON. The patch is escaped as it is rendered
// (WritePatch), eight bytes at a time past the bytes that need no escape,
// and written a stretch at a time: it is never held whole, so plan on a
// file of one long line holds the file and not also a document as large
// as it, and encoding/json's escaping, a byte at a time into a buffer
// grown by copying, is not paid (issue 23). patch is the last member but
// warnings, so the rest is marshalled without both and they are written
// after it.
func writeResult(w io.Writer, res reference.Result, doc *reference.Patch) error {
	if doc == nil {
		return writeJSON(w, res)
	}
	warnings := res.Warnings
	res.Patch, res.Warnings = nil, nil
	head, err := json.Marshal(res)
	if err != nil {
		return err
	}
	s := &jsonStream{w: w, out: make([]byte, 0, largePatch+largePatch/8+len(head)+64)}
	s.out = append(s.out, head[:len(head)-1]...) // without its "}"
	s.out = append(s.out, `,"patch":"`...)
	if err := reference.WritePatch(s, doc); err != nil {
		return err
	}
	out := append(s.finish(), '"')
	if len(warnings) > 0 {
		tail, err := json.Marshal(warnings)
		if err != nil {
			return err
		}
		out = append(append(out, `,"warnings":`...), tail...)
	}
	_, err = w.Write(append(out, '}', '\n'))
	return err
}

// jsonStream escapes what is written to it as the inside of a JSON string
// (appendJSONBody) into out, and writes out to w before it would hold
// more than largePatch bytes of input, so out never grows. A write that
// ends inside a rune leaves the rune's start in cut, to be escaped with
// the bytes that complete it.
type jsonStream struct {
	w       io.Writer
	out     []byte
	cut     []byte
	widened bool
}

func (s *jsonStream) Write(p []byte) (int, error) {
	n := len(p)
	if len(s.cut) > 0 {
		p = append(s.cut, p...) // only after a write that split a rune
		s.cut = nil
	}
	if i := runes.Cut(p); i < len(p) {
		s.cut = append([]byte(nil), p[i:]...)
		p = p[:i]
	}
	for len(p) > 0 {
		// A stretch ends before the start of a rune, or within a run
		// of continuation bytes longer than any rune's, so no rune is
		// cut and each escapes as in the whole.
		end := min(len(p), largePatch)
		for k := 0; k < utf8.UTFMax-1 && end < len(p) && !utf8.RuneStart(p[end]); k++ {
			end--
		}
		if len(s.out) > 0 && len(s.out)+end > largePatch {
			if err := s.flush(); err != nil {
				return 0, err
			}
		}
		s.out = appendJSONBody(s.out, unsafe.String(unsafe.SliceData(p), end))
		p = p[end:]
	}
	return n, nil
}

// flush writes out to w, widening a pipe the first time: the output
// holds more than a stretch.
func (s *jsonStream) flush() error {
	if !s.widened {
		widenPipe(s.w)
		s.widened = true
	}
	_, err := s.w.Write(s.out)
	s.out = s.out[:0]
	return err
}

// finish escapes what is left of a rune cut by the last write, which no
// write completed, and returns the bytes not yet written.
func (s *jsonStream) finish() []byte {
	s.out, s.cut = appendJSONBody(s.out, string(s.cut)), nil
	return s.out
}

// appendJSONString appends s as encoding/json writes a string with HTML
// escaping on (its default): quoted; '"' and '\\' escaped by a backslash;
// \b, \f, \n, \r and \t by name; other control bytes and '<', '>', '&' as
// \u00XX; invalid UTF-8 as \ufffd; U+2028 and U+2029 as \u2028, \u2029.
func appendJSONString(dst []byte, s string) []byte {
	return append(appendJSONBody(append(dst, '"'), s), '"')
}

// appendJSONBody is appendJSONString without the quotes.
func appendJSONBody(dst []byte, s string) []byte {
	const hex = "0123456789abcdef"
	start := 0
	for i := 0; i < len(s); {
		i = skipPlain(s, i)
		for i+8 <= len(s) && plain8(load64(s, i)) {
			i += 8
		}
		if i == len(s) {
			break
		}
		b := s[i]
		if b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			dst = append(dst, s[start:i]...)
			switch b {
			case '"', '\\':
				dst = append(dst, '\\', b)
			case '\b':
				dst = append(dst, '\\', 'b')
			case '\f':
				dst = append(dst, '\\', 'f')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			case '\t':
				dst = append(dst, '\\', 't')
			default:
				dst = append(dst, '\\', 'u', '0', '0', hex[b>>4], hex[b&0xf])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(append(dst, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(append(dst, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xf])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	return append(dst, s[start:]...)
}

// plain8 reports whether none of the eight bytes of x needs escaping: no
// control byte, none at or above 0x80, no '"', '\\', '<', '>' or '&'.
func plain8(x uint64) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	zero := func(y uint64) uint64 { return (y - ones) &^ y & highs } // a zero byte
	bad := (x-0x20*ones)&^x&highs | x&highs |
		zero(x^'"'*ones) | zero(x^'\\'*ones) | zero(x^'<'*ones) | zero(x^'>'*ones) | zero(x^'&'*ones)
	return bad == 0
}

// load64 is the eight bytes of s from i, little-endian (one load).
func load64(s string, i int) uint64 {
	s = s[i : i+8]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}
