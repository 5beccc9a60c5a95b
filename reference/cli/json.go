package cli

import (
	"encoding/json"
	"io"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// largePatch is the length from which writeResult writes the patch of a
// result itself rather than through encoding/json.
const largePatch = 1 << 20

// writeResult writes res as writeJSON does, byte for byte. A large patch
// (plan on a file as large as the patch) is escaped here, eight bytes at
// a time past the bytes that need no escape, and written a stretch at a
// time: encoding/json looks at each byte in turn and builds the whole
// document in a buffer grown by copying, several times the cost of the
// plan itself and more memory than the file (issue 23). patch is the last
// member but warnings, so the rest is marshalled without both and they are
// written after it.
func writeResult(w io.Writer, res reference.Result) error {
	if res.Patch == nil || len(*res.Patch) < largePatch {
		return writeJSON(w, res)
	}
	widenPipe(w)
	patch, warnings := *res.Patch, res.Warnings
	res.Patch, res.Warnings = nil, nil
	head, err := json.Marshal(res)
	if err != nil {
		return err
	}
	out := make([]byte, 0, largePatch+largePatch/8+len(head)+64)
	out = append(out, head[:len(head)-1]...) // without its "}"
	out = append(out, `,"patch":"`...)
	for len(patch) > 0 {
		// A stretch ends before the start of a rune (or an invalid
		// byte), so no rune is cut and each escapes as in the whole.
		end := min(len(patch), largePatch)
		for end < len(patch) && !utf8.RuneStart(patch[end]) {
			end--
		}
		out = appendJSONBody(out, patch[:end])
		patch = patch[end:]
		if len(patch) > 0 {
			if _, err := w.Write(out); err != nil {
				return err
			}
			out = out[:0]
		}
	}
	out = append(out, '"')
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
