package patchdiff

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// requestDepth bounds the nesting of a request document, which has two
// levels (the request and its scope_bounds).
const requestDepth = 8

// DecodeRequest reads a request document (ADAPTER-001). Its error is a
// protocol error of the adapter, not a runtime label (ADAPTER-002): the
// document is not JSON, is not an object, names a member twice or names an
// unknown one, or gives a member the wrong type. An unpaired surrogate
// escape or a NUL in a string is kept, in its three-byte form, so that the
// runtime rejects it as invalid text (ADAPTER-003).
func DecodeRequest(data []byte) (Request, error) {
	return decodeRequest(data, "transaction", true)
}

// DecodeBatchRequest reads an observed batch's request document (BATCH-002):
// DecodeRequest's document with the envelope's text in the member batch,
// returned in Transaction, and no scope_bounds. Its errors are DecodeRequest's.
func DecodeBatchRequest(data []byte) (Request, error) {
	return decodeRequest(data, "batch", false)
}

// decodeRequest reads a request whose transaction text is the member
// textMember, with scope_bounds when scoped.
func decodeRequest(data []byte, textMember string, scoped bool) (Request, error) {
	req := Request{CollectWarnings: true}
	if !utf8.Valid(data) {
		return req, fmt.Errorf("request: not UTF-8")
	}
	v, serr := parseJSON(string(data), requestDepth, true)
	if serr != nil {
		return req, fmt.Errorf("request: %v", serr)
	}
	if v.kind != jsonObject {
		return req, fmt.Errorf("request: a JSON %s, not an object", v.kind)
	}
	var haveTarget, haveTx bool
	for _, m := range v.members {
		val := m.value
		wrong := func(want string) error { return fmt.Errorf("request: %s: want %s, not a %s", m.name, want, val.kind) }
		switch m.name {
		case "runtime_version":
			if val.kind == jsonNull {
				continue
			}
			if val.kind != jsonString {
				return req, wrong("a string")
			}
			req.RuntimeVersion = val.text
		case "target":
			if val.kind != jsonString {
				return req, wrong("a string")
			}
			req.Target, haveTarget = val.text, true
		case textMember:
			if val.kind != jsonString {
				return req, wrong("a string")
			}
			req.Transaction, haveTx = val.text, true
		case "target_version":
			if val.kind == jsonNull {
				continue
			}
			n, err := requestInt(val)
			if err != nil {
				return req, fmt.Errorf("request: target_version: %v", err)
			}
			req.TargetVersion = &n
		case "collect_warnings":
			if val.kind != jsonBool {
				return req, wrong("a boolean")
			}
			req.CollectWarnings = val.boolean
		case "scope_bounds":
			if !scoped {
				return req, fmt.Errorf("request: unknown member %q", m.name)
			}
			if val.kind == jsonNull {
				continue
			}
			if val.kind != jsonObject || len(val.members) != 2 || val.member("scope_start") == nil || val.member("scope_end") == nil {
				return req, fmt.Errorf("request: scope_bounds: want an object of scope_start and scope_end")
			}
			var sc Scope
			var err error
			if sc.Start, err = requestInt(val.member("scope_start")); err == nil {
				sc.End, err = requestInt(val.member("scope_end"))
			}
			if err != nil {
				return req, fmt.Errorf("request: scope_bounds: %v", err)
			}
			req.Scope = &sc
		default:
			return req, fmt.Errorf("request: unknown member %q", m.name)
		}
	}
	if !haveTarget || !haveTx {
		return req, fmt.Errorf("request: target and %s are required", textMember)
	}
	return req, nil
}

// requestInt reads an integer member of a request; the runtime judges its
// range (SCOPE-008, GUARD-002).
func requestInt(v *jsonValue) (int64, error) {
	if v.kind != jsonNumber {
		return 0, fmt.Errorf("want an integer, not a %s", v.kind)
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("want an integer, not %s", v.text)
	}
	return n, nil
}

// MarshalJSON writes the request document that DecodeRequest reads back to
// the same Request: text that is not UTF-8 is written as the escapes it
// came from (a three-byte surrogate as \udXXX; any other stray byte as
// U+FFFD, which no escape can carry).
func (r Request) MarshalJSON() ([]byte, error) {
	b := []byte(`{"runtime_version":`)
	b = appendString(b, r.RuntimeVersion)
	b = append(b, `,"target":`...)
	b = appendString(b, r.Target)
	if r.TargetVersion != nil {
		b = append(b, `,"target_version":`...)
		b = strconv.AppendInt(b, *r.TargetVersion, 10)
	}
	b = append(b, `,"transaction":`...)
	b = appendString(b, r.Transaction)
	if r.Scope != nil {
		b = fmt.Appendf(b, `,"scope_bounds":{"scope_start":%d,"scope_end":%d}`, r.Scope.Start, r.Scope.End)
	}
	b = fmt.Appendf(b, `,"collect_warnings":%t}`, r.CollectWarnings)
	return b, nil
}

// appendString appends s as a JSON string literal, escaping quotes,
// backslashes, control characters and the three-byte surrogate forms.
func appendString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
			i++
			continue
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			i++
			continue
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			if c == 0xED && i+2 < len(s) && s[i+1]&0xE0 == 0xA0 && s[i+2]&0xC0 == 0x80 {
				sur := 0xD000 | int(s[i+1]&0x3F)<<6 | int(s[i+2]&0x3F)
				b = fmt.Appendf(b, `\u%04x`, sur)
				i += 3
				continue
			}
			b = append(b, "\ufffd"...)
			i++
			continue
		}
		b = append(b, s[i:i+size]...)
		i += size
	}
	return append(b, '"')
}
