package patchdiff

import (
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// This file is a strict JSON reader of our own. encoding/json cannot serve:
// it keeps the last of two members of the same name, and it replaces an
// unpaired surrogate escape ("\ud800") with U+FFFD, which would hide the
// invalid text the runtime must reject (CANON-008) and that the request
// decoder must pass on (ADAPTER-003).

// jsonKind is the kind of a JSON value.
type jsonKind uint8

const (
	jsonNull jsonKind = iota
	jsonBool
	jsonNumber
	jsonString
	jsonArray
	jsonObject
)

func (k jsonKind) String() string {
	return [...]string{"null", "boolean", "number", "string", "array", "object"}[k]
}

// jsonValue is one decoded value. Objects keep their members in text order;
// numbers keep their literal, so integer checks see exactly what was written.
type jsonValue struct {
	kind    jsonKind
	boolean bool
	text    string // a string's decoded value or a number's literal
	items   []*jsonValue
	members []jsonMember
	offset  int // byte offset of the value in the text
}

type jsonMember struct {
	name  string
	value *jsonValue
}

// member returns the member called name, or nil.
func (v *jsonValue) member(name string) *jsonValue {
	for _, m := range v.members {
		if m.name == name {
			return m.value
		}
	}
	return nil
}

// jsonSyntaxError is a fault of the text's syntax or strictness.
type jsonSyntaxError struct {
	offset int
	msg    string
}

func (e *jsonSyntaxError) Error() string { return "offset " + strconv.Itoa(e.offset) + ": " + e.msg }

// jsonReader parses one JSON text. Invariant: pos is the offset of the next
// unread byte; depth counts the arrays and objects open around it.
type jsonReader struct {
	src      string
	pos      int
	depth    int
	maxDepth int
	// wtf8 makes unpaired surrogate escapes decode to their three-byte
	// (WTF-8) form instead of failing: the request decoder's mode, so that
	// the runtime receives them as invalid text.
	wtf8 bool
}

// parseJSON reads exactly one JSON value followed only by whitespace.
func parseJSON(src string, maxDepth int, wtf8 bool) (*jsonValue, *jsonSyntaxError) {
	r := &jsonReader{src: src, maxDepth: maxDepth, wtf8: wtf8}
	r.space()
	v, err := r.value()
	if err != nil {
		return nil, err
	}
	r.space()
	if r.pos < len(r.src) {
		return nil, r.fail("data after the JSON value")
	}
	return v, nil
}

func (r *jsonReader) fail(msg string) *jsonSyntaxError {
	return &jsonSyntaxError{offset: r.pos, msg: msg}
}

func (r *jsonReader) space() {
	for r.pos < len(r.src) {
		switch r.src[r.pos] {
		case ' ', '\t', '\n', '\r':
			r.pos++
		default:
			return
		}
	}
}

func (r *jsonReader) value() (*jsonValue, *jsonSyntaxError) {
	if r.pos >= len(r.src) {
		return nil, r.fail("unexpected end of JSON text")
	}
	start := r.pos
	switch c := r.src[r.pos]; {
	case c == '{':
		return r.object()
	case c == '[':
		return r.array()
	case c == '"':
		s, err := r.str()
		if err != nil {
			return nil, err
		}
		return &jsonValue{kind: jsonString, text: s, offset: start}, nil
	case c == '-' || (c >= '0' && c <= '9'):
		return r.number()
	case strings.HasPrefix(r.src[r.pos:], "true"):
		r.pos += 4
		return &jsonValue{kind: jsonBool, boolean: true, offset: start}, nil
	case strings.HasPrefix(r.src[r.pos:], "false"):
		r.pos += 5
		return &jsonValue{kind: jsonBool, offset: start}, nil
	case strings.HasPrefix(r.src[r.pos:], "null"):
		r.pos += 4
		return &jsonValue{kind: jsonNull, offset: start}, nil
	}
	return nil, r.fail("invalid character at the start of a value")
}

func (r *jsonReader) open() *jsonSyntaxError {
	r.depth++
	if r.depth > r.maxDepth {
		return r.fail("nesting deeper than " + strconv.Itoa(r.maxDepth) + " levels")
	}
	return nil
}

func (r *jsonReader) object() (*jsonValue, *jsonSyntaxError) {
	v := &jsonValue{kind: jsonObject, offset: r.pos}
	if err := r.open(); err != nil {
		return nil, err
	}
	r.pos++
	r.space()
	if r.pos < len(r.src) && r.src[r.pos] == '}' {
		r.pos++
		r.depth--
		return v, nil
	}
	seen := map[string]bool{}
	for {
		r.space()
		if r.pos >= len(r.src) || r.src[r.pos] != '"' {
			return nil, r.fail("expected a member name")
		}
		at := r.pos
		name, err := r.str()
		if err != nil {
			return nil, err
		}
		if seen[name] {
			return nil, &jsonSyntaxError{offset: at, msg: "member " + strconv.Quote(name) + " given twice"}
		}
		seen[name] = true
		r.space()
		if r.pos >= len(r.src) || r.src[r.pos] != ':' {
			return nil, r.fail("expected ':' after a member name")
		}
		r.pos++
		r.space()
		val, err := r.value()
		if err != nil {
			return nil, err
		}
		v.members = append(v.members, jsonMember{name, val})
		r.space()
		if r.pos >= len(r.src) {
			return nil, r.fail("unexpected end of JSON text in an object")
		}
		switch r.src[r.pos] {
		case ',':
			r.pos++
		case '}':
			r.pos++
			r.depth--
			return v, nil
		default:
			return nil, r.fail("expected ',' or '}' in an object")
		}
	}
}

func (r *jsonReader) array() (*jsonValue, *jsonSyntaxError) {
	v := &jsonValue{kind: jsonArray, offset: r.pos}
	if err := r.open(); err != nil {
		return nil, err
	}
	r.pos++
	r.space()
	if r.pos < len(r.src) && r.src[r.pos] == ']' {
		r.pos++
		r.depth--
		return v, nil
	}
	for {
		r.space()
		item, err := r.value()
		if err != nil {
			return nil, err
		}
		v.items = append(v.items, item)
		r.space()
		if r.pos >= len(r.src) {
			return nil, r.fail("unexpected end of JSON text in an array")
		}
		switch r.src[r.pos] {
		case ',':
			r.pos++
		case ']':
			r.pos++
			r.depth--
			return v, nil
		default:
			return nil, r.fail("expected ',' or ']' in an array")
		}
	}
}

// number checks the RFC 8259 number grammar and keeps the literal.
func (r *jsonReader) number() (*jsonValue, *jsonSyntaxError) {
	start := r.pos
	digits := func() int {
		n := 0
		for r.pos < len(r.src) && r.src[r.pos] >= '0' && r.src[r.pos] <= '9' {
			r.pos++
			n++
		}
		return n
	}
	if r.src[r.pos] == '-' {
		r.pos++
	}
	if r.pos < len(r.src) && r.src[r.pos] == '0' {
		r.pos++
	} else if digits() == 0 {
		return nil, r.fail("malformed number")
	}
	if r.pos < len(r.src) && r.src[r.pos] == '.' {
		r.pos++
		if digits() == 0 {
			return nil, r.fail("malformed number fraction")
		}
	}
	if r.pos < len(r.src) && (r.src[r.pos] == 'e' || r.src[r.pos] == 'E') {
		r.pos++
		if r.pos < len(r.src) && (r.src[r.pos] == '+' || r.src[r.pos] == '-') {
			r.pos++
		}
		if digits() == 0 {
			return nil, r.fail("malformed number exponent")
		}
	}
	return &jsonValue{kind: jsonNumber, text: r.src[start:r.pos], offset: start}, nil
}

// str reads a string literal at pos and returns its decoded value.
func (r *jsonReader) str() (string, *jsonSyntaxError) {
	r.pos++ // opening quote
	start := r.pos
	// Fast path: no escape before the closing quote.
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		if c == '"' {
			s := r.src[start:r.pos]
			r.pos++
			return s, nil
		}
		if c == '\\' || c < 0x20 {
			break
		}
		r.pos++
	}
	var b strings.Builder
	b.WriteString(r.src[start:r.pos])
	for r.pos < len(r.src) {
		c := r.src[r.pos]
		switch {
		case c == '"':
			r.pos++
			return b.String(), nil
		case c < 0x20:
			return "", r.fail("control character in a string")
		case c != '\\':
			b.WriteByte(c)
			r.pos++
			continue
		}
		if r.pos+1 >= len(r.src) {
			break
		}
		esc := r.src[r.pos+1]
		r.pos += 2
		switch esc {
		case '"', '\\', '/':
			b.WriteByte(esc)
		case 'b':
			b.WriteByte('\b')
		case 'f':
			b.WriteByte('\f')
		case 'n':
			b.WriteByte('\n')
		case 'r':
			b.WriteByte('\r')
		case 't':
			b.WriteByte('\t')
		case 'u':
			r.pos -= 2
			cp, n, ok := readEscape(r.src, r.pos)
			if !ok {
				return "", r.fail("malformed \\u escape")
			}
			if cp < 0 { // unpaired surrogate
				if !r.wtf8 {
					return "", r.fail("unpaired surrogate escape")
				}
				s := -cp
				b.Write([]byte{byte(0xE0 | s>>12), byte(0x80 | (s>>6)&0x3F), byte(0x80 | s&0x3F)})
			} else {
				b.WriteRune(rune(cp))
			}
			r.pos += n
		default:
			return "", r.fail("unknown escape")
		}
	}
	return "", r.fail("unterminated string")
}

// readEscape decodes the \uXXXX escape at src[i:] and, for a high
// surrogate, the low surrogate escape that must follow. It returns the code
// point and the bytes used; an unpaired surrogate comes back negated, and
// ok is false when the escape is not four hexadecimal digits.
func readEscape(src string, i int) (cp, n int, ok bool) {
	hex4 := func(at int) (int, bool) {
		if at+6 > len(src) || src[at] != '\\' || src[at+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(src[at+2:at+6], 16, 16)
		return int(v), err == nil
	}
	hi, ok := hex4(i)
	if !ok {
		return 0, 0, false
	}
	switch {
	case hi >= 0xD800 && hi < 0xDC00:
		if lo, ok := hex4(i + 6); ok && lo >= 0xDC00 && lo < 0xE000 {
			return int(utf16.DecodeRune(rune(hi), rune(lo))), 12, true
		}
		return -hi, 6, true
	case hi >= 0xDC00 && hi < 0xE000:
		return -hi, 6, true
	}
	return hi, 6, true
}

// firstInvalidText returns the byte offset of the first fault that makes a
// transaction text invalid submission text (CANON-008), or -1: bytes that
// are not UTF-8, a raw NUL, and, inside what a lexical scan takes for a
// string literal, a NUL escape or an unpaired surrogate escape. It runs
// before any syntax check (CANON-009), so it must not rely on the text
// being JSON: it only follows quotes and backslashes.
func firstInvalidText(src string) int {
	first := -1
	keep := func(at int) {
		if at >= 0 && (first < 0 || at < first) {
			first = at
		}
	}
	if !utf8.ValidString(src) {
		for i := 0; i < len(src); {
			r, size := utf8.DecodeRuneInString(src[i:])
			if r == utf8.RuneError && size <= 1 {
				keep(i)
				break
			}
			i += size
		}
	}
	keep(strings.IndexByte(src, 0))
	keep(escapeFault(src))
	return first
}

// escapeFault scans src for a NUL or unpaired surrogate escape inside a
// string literal and returns its offset, else -1.
func escapeFault(src string) int {
	in := false
	for i := 0; i < len(src); i++ {
		switch c := src[i]; {
		case !in:
			if c == '"' {
				in = true
			}
		case c == '"':
			in = false
		case c == '\\':
			if i+1 < len(src) && src[i+1] == 'u' {
				if cp, n, ok := readEscape(src, i); ok {
					if cp <= 0 {
						return i
					}
					i += n - 1
					continue
				}
			}
			i++ // skip the escaped byte
		}
	}
	return -1
}
