package patchdiff

import (
	"crypto/sha256"
	"encoding/hex"
	"strings"
	"unicode/utf8"
)

// Canonicalize returns text with every CRLF pair and then every remaining
// CR replaced by LF, and nothing else changed (CANON-001, CANON-003,
// CANON-004).
func Canonicalize(text string) string {
	if strings.IndexByte(text, '\r') < 0 {
		return text
	}
	return strings.ReplaceAll(strings.ReplaceAll(text, "\r\n", "\n"), "\r", "\n")
}

// Hash is the hex SHA-256 of text's UTF-8 bytes (HASH-001).
func Hash(text string) string {
	sum := sha256.Sum256([]byte(text))
	return hex.EncodeToString(sum[:])
}

// ValidText reports whether text is representable submission text
// (CANON-007): valid UTF-8 without NUL.
func ValidText(text string) bool { return validText(text) }

// validText reports whether text is representable submission text: valid
// UTF-8 (so no surrogate code point) and no NUL (CANON-007).
func validText(text string) bool {
	return utf8.ValidString(text) && strings.IndexByte(text, 0) < 0
}

// buffer is canonical text addressed in code points. Invariant: n is the
// code-point length of s, and ascii says every byte is below 0x80, in which
// case byte and code-point offsets coincide and conversions are free.
type buffer struct {
	s     string
	n     int
	ascii bool
}

func newBuffer(s string) buffer {
	n := utf8.RuneCountInString(s)
	return buffer{s: s, n: n, ascii: n == len(s)}
}

// byteAt returns the byte offset of code point cp (0 <= cp <= n).
func (b buffer) byteAt(cp int) int {
	if b.ascii || cp <= 0 {
		return cp
	}
	if cp >= b.n {
		return len(b.s)
	}
	return byteOffset(b.s, 0, cp)
}

// byteOffset advances from byte offset from by cps code points of s.
func byteOffset(s string, from, cps int) int {
	i := from
	for ; cps > 0 && i < len(s); cps-- {
		if s[i] < utf8.RuneSelf {
			i++
			continue
		}
		_, size := utf8.DecodeRuneInString(s[i:])
		i += size
	}
	return i
}

// slice returns the text of code points [from, to), clamped to the buffer.
func (b buffer) slice(from, to int) string {
	from, to = max(0, min(from, b.n)), max(0, min(to, b.n))
	if from >= to {
		return ""
	}
	if b.ascii {
		return b.s[from:to]
	}
	i := byteOffset(b.s, 0, from)
	return b.s[i:byteOffset(b.s, i, to-from)]
}

// cpCount is the code-point length of s.
func cpCount(s string) int { return utf8.RuneCountInString(s) }

// prefixCP returns the first n code points of s.
func prefixCP(s string, n int) string { return s[:byteOffset(s, 0, n)] }

// suffixCP returns the last n code points of s.
func suffixCP(s string, n int) string {
	i := len(s)
	for ; n > 0 && i > 0; n-- {
		_, size := utf8.DecodeLastRuneInString(s[:i])
		i -= size
	}
	return s[i:]
}
