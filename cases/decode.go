package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file reads JSON: the checks on the raw text that encoding/json does
// not make (valid UTF-8, paired surrogates, duplicate keys, stray nulls), the
// strict decoder, and the translation of its errors into field names.
//
// Field names follow the JSON: top-level keys as they are ("expect"), members
// after a dot ("error.ranges"), list items by index ("steps[2]"), and the
// path keys of trees and quoted keys in brackets (`files["a/b.txt"]`).

// fieldName names member key of the object at parent.
func fieldName(parent, key string) string {
	if parent == "" {
		return key
	}
	return parent + "." + key
}

// fieldKey names the entry key of the map at parent.
func fieldKey(parent, key string) string { return parent + "[" + strconv.Quote(key) + "]" }

// fieldIndex names item i of the list at parent.
func fieldIndex(parent string, i int) string { return parent + "[" + strconv.Itoa(i) + "]" }

// isPathMap reports whether the object at field maps paths to entries, so
// its keys print in brackets.
func isPathMap(field string) bool {
	i := strings.LastIndexAny(field, ".]")
	last := field[i+1:]
	return last == "files" || last == "expected_files" || last == "inputs"
}

var identifier = regexp.MustCompile(`^[a-z_][a-z0-9_]*$`)

func childField(parent, key string) string {
	if isPathMap(parent) || !identifier.MatchString(key) {
		return fieldKey(parent, key)
	}
	return fieldName(parent, key)
}

// nullHome matches the fields under which JSON null is data: subsets of
// JSON output (where null means "absent or null") and move requests.
var nullHome = regexp.MustCompile(`^(result|request|(retry|reverse)\.result|steps\[[0-9]+\]\.json)$`)

// checkText checks what encoding/json would silently repair: invalid UTF-8
// and unpaired surrogate escapes both decode to U+FFFD, which would change
// the bytes a case means.
func checkText(data []byte) error {
	if !utf8.Valid(data) {
		i := 0
		for i < len(data) {
			r, n := utf8.DecodeRune(data[i:])
			if r == utf8.RuneError && n == 1 {
				break
			}
			i += n
		}
		return fmt.Errorf("line %d: not valid UTF-8; put such bytes in a base64 entry", lineOf(data, i))
	}
	inString := false
	for i := 0; i < len(data); i++ {
		switch b := data[i]; {
		case b == '"':
			inString = !inString
		case b == '\\' && inString:
			i++
			if i >= len(data) || data[i] != 'u' {
				continue
			}
			r, ok := hex4(data, i+1)
			i += 4
			if !ok {
				continue // the decoder reports it
			}
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return fmt.Errorf("line %d: unpaired surrogate escape \\u%04x; put such bytes in a base64 entry", lineOf(data, i), r)
			case r >= 0xD800 && r <= 0xDBFF:
				lo, ok := rune(0), false
				if i+2 < len(data) && data[i+1] == '\\' && data[i+2] == 'u' {
					lo, ok = hex4(data, i+3)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return fmt.Errorf("line %d: unpaired surrogate escape \\u%04x; put such bytes in a base64 entry", lineOf(data, i), r)
				}
				i += 6
			}
		}
	}
	return nil
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(data[i:i+4]), 16, 32)
	return rune(v), err == nil
}

func lineOf(data []byte, offset int) int {
	return bytes.Count(data[:min(offset, len(data))], []byte("\n")) + 1
}

// scanJSON checks the shape of the whole document before it is decoded: one
// JSON object and nothing after it, no key twice in any object (the decoder
// would keep the last silently), and no null outside the fields where null is
// data. It returns the field at fault.
func scanJSON(data []byte) (string, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	tok, err := dec.Token()
	if err != nil {
		return "", syntaxError(data, err)
	}
	if tok != json.Delim('{') {
		return "", errors.New("a case file holds one JSON object")
	}
	if f, err := scanObject(dec, data, "", false, 1); err != nil {
		return f, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return "", errors.New("data after the JSON object")
	}
	return "", nil
}

// maxDepth bounds how deep a case file may nest its objects and arrays:
// the deepest field a case has is a few levels down, and scanning a deeper
// document would cost memory with the square of its depth.
const maxDepth = 32

func scanObject(dec *json.Decoder, data []byte, field string, nullOK bool, depth int) (string, error) {
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return field, syntaxError(data, err)
		}
		key := tok.(string)
		child := childField(field, key)
		if seen[key] {
			return child, errors.New("key appears twice in the same object")
		}
		seen[key] = true
		if f, err := scanValue(dec, data, child, nullOK || nullHome.MatchString(child), depth); err != nil {
			return f, err
		}
	}
	if _, err := dec.Token(); err != nil {
		return field, syntaxError(data, err)
	}
	return "", nil
}

func scanValue(dec *json.Decoder, data []byte, field string, nullOK bool, depth int) (string, error) {
	tok, err := dec.Token()
	if err != nil {
		return field, syntaxError(data, err)
	}
	if (tok == json.Delim('{') || tok == json.Delim('[')) && depth >= maxDepth {
		return field, fmt.Errorf("nested deeper than %d levels", maxDepth)
	}
	switch tok {
	case nil:
		if !nullOK {
			return field, errors.New("null is not a value here; leave the field out")
		}
	case json.Delim('{'):
		return scanObject(dec, data, field, nullOK, depth+1)
	case json.Delim('['):
		for i := 0; dec.More(); i++ {
			if f, err := scanValue(dec, data, fieldIndex(field, i), nullOK, depth+1); err != nil {
				return f, err
			}
		}
		if _, err := dec.Token(); err != nil {
			return field, syntaxError(data, err)
		}
	}
	return "", nil
}

func syntaxError(data []byte, err error) error {
	if se, ok := errors.AsType[*json.SyntaxError](err); ok {
		return fmt.Errorf("line %d: %v", lineOf(data, int(se.Offset)), se)
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return errors.New("unexpected end of JSON")
	}
	return err
}

// strictUnmarshal decodes one JSON value into v, rejecting unknown fields.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// decodeError turns an error of strictUnmarshal at field into a field name
// and a reason an author can act on.
func decodeError(field string, err error) (string, error) {
	if name, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		if n, uerr := strconv.Unquote(name); uerr == nil {
			name = n
		}
		return childField(field, name), errors.New("unknown field")
	}
	if te, ok := errors.AsType[*json.UnmarshalTypeError](err); ok {
		f := field
		if te.Field != "" {
			f = fieldName(field, te.Field)
		}
		return f, fmt.Errorf("got JSON %s, want %s", te.Value, describeType(te.Type))
	}
	return field, err
}

func describeType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Int, reflect.Int64, reflect.Int32:
		return "an integer"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.String {
			return "a list of strings"
		}
		return "a list"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return t.String()
}

func isNull(raw json.RawMessage) bool { return string(bytes.TrimSpace(raw)) == "null" }

// firstByte is the first byte of a JSON value: '"', '{', '[', 't', 'n', a
// digit or '-'.
func firstByte(raw json.RawMessage) byte {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return 0
	}
	return raw[0]
}
