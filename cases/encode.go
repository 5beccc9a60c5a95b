package cases

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
)

// This file writes case files: one encoder, in the layout of the
// hand-written corpus, for every tool that writes or rewrites a case.json
// (the fuzz campaign's case writer, Derive, cmd/rewrite).
//
// The layout: two-space indentation; the top-level object one member per
// line; any other object or list on one line when that line, indentation,
// key and trailing comma included, stays within LineWidth columns, else one
// member or item per line; ", " and ": " as separators; no HTML escaping; a
// final newline. Members keep the order they are given in.

// LineWidth is the widest line the encoder joins a value onto.
const LineWidth = 120

// Object is a JSON object whose members keep their order, as a case file
// writes them.
type Object []Member

// Member is one member of an Object.
type Member struct {
	Key   string
	Value any
}

// MarshalJSON writes the members in order, so an Object can sit inside a
// map or any other value encoding/json marshals.
func (o Object) MarshalJSON() ([]byte, error) {
	s, err := inline(o)
	return []byte(s), err
}

// Get returns the value of the member key.
func (o Object) Get(key string) (any, bool) {
	for _, m := range o {
		if m.Key == key {
			return m.Value, true
		}
	}
	return nil, false
}

// Set replaces the value of the member key, or adds the member: at the end,
// or, when order names key, before the first member that order names after
// it.
func (o *Object) Set(key string, v any, order ...string) {
	for i := range *o {
		if (*o)[i].Key == key {
			(*o)[i].Value = v
			return
		}
	}
	at := len(*o)
	if k := slices.Index(order, key); k >= 0 {
		for i, m := range *o {
			if j := slices.Index(order, m.Key); j > k {
				at = i
				break
			}
		}
	}
	*o = slices.Insert(*o, at, Member{key, v})
}

// Delete removes the member key and reports whether it was there.
func (o *Object) Delete(key string) bool {
	n := len(*o)
	*o = slices.DeleteFunc(*o, func(m Member) bool { return m.Key == key })
	return len(*o) != n
}

// Rename gives the member old the name new, in its place, and reports
// whether old was there. It fails when new is already a member.
func (o Object) Rename(old, new string) (bool, error) {
	if _, ok := o.Get(new); ok && old != new {
		return false, fmt.Errorf("%q is already a member", new)
	}
	for i := range o {
		if o[i].Key == old {
			o[i].Key = new
			return true, nil
		}
	}
	return false, nil
}

// Order returns the members of m as an Object: those named in names first,
// in that order, then the others by name.
func Order(m map[string]any, names ...string) Object {
	var o Object
	for _, k := range names {
		if v, ok := m[k]; ok {
			o = append(o, Member{k, v})
		}
	}
	var rest []string
	for k := range m {
		if !slices.Contains(names, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		o = append(o, Member{k, m[k]})
	}
	return o
}

// DecodeObject reads a JSON object keeping the order of its members: every
// object as an Object, lists as []any, numbers as json.Number as written.
// It does not check the case-file rules; Parse does.
func DecodeObject(data []byte) (Object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	v, err := decodeValue(dec)
	if err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the JSON object")
	}
	o, ok := v.(Object)
	if !ok {
		return nil, fmt.Errorf("a case file holds one JSON object")
	}
	return o, nil
}

func decodeValue(dec *json.Decoder) (any, error) {
	tok, err := dec.Token()
	if err != nil {
		return nil, err
	}
	switch tok {
	case json.Delim('{'):
		o := Object{}
		for dec.More() {
			k, err := dec.Token()
			if err != nil {
				return nil, err
			}
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			o = append(o, Member{k.(string), v})
		}
		_, err := dec.Token()
		return o, err
	case json.Delim('['):
		l := []any{}
		for dec.More() {
			v, err := decodeValue(dec)
			if err != nil {
				return nil, err
			}
			l = append(l, v)
		}
		_, err := dec.Token()
		return l, err
	}
	return tok, nil
}

// Encode writes doc as a case file in the corpus layout. Values may be
// Object, []any, strings, booleans, numbers, nil, json.RawMessage and
// anything else encoding/json marshals (a map's members come out sorted).
func Encode(doc Object) ([]byte, error) {
	var b bytes.Buffer
	if err := writeExpanded(&b, doc, 0); err != nil {
		return nil, err
	}
	b.WriteByte('\n')
	return b.Bytes(), nil
}

// normal turns v into Object, []any or a scalar.
func normal(v any) (any, error) {
	switch x := v.(type) {
	case Object, []any, string, bool, json.Number, nil:
		return x, nil
	case []string:
		l := make([]any, len(x))
		for i, s := range x {
			l[i] = s
		}
		return l, nil
	case int:
		return json.Number(strconv.Itoa(x)), nil
	}
	raw, ok := v.(json.RawMessage)
	if !ok {
		var err error
		if raw, err = plainjson.Marshal(v); err != nil {
			return nil, err
		}
	}
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	return decodeValue(dec)
}

// inline renders v on one line.
func inline(v any) (string, error) {
	v, err := normal(v)
	if err != nil {
		return "", err
	}
	var parts []string
	switch x := v.(type) {
	case Object:
		for _, m := range x {
			s, err := inline(m.Value)
			if err != nil {
				return "", err
			}
			parts = append(parts, quoteString(m.Key)+": "+s)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	case []any:
		for _, item := range x {
			s, err := inline(item)
			if err != nil {
				return "", err
			}
			parts = append(parts, s)
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	}
	b, err := plainjson.Marshal(v)
	return string(b), err
}

// write renders v at a line that already holds used columns and ends with
// tail more (a comma or nothing).
func write(b *bytes.Buffer, v any, indent, used, tail int) error {
	s, err := inline(v)
	if err != nil {
		return err
	}
	if used+len(s)+tail <= LineWidth || len(s) <= 2 {
		b.WriteString(s)
		return nil
	}
	v, _ = normal(v)
	return writeExpanded(b, v, indent)
}

// writeExpanded renders an object or list one member or item per line.
func writeExpanded(b *bytes.Buffer, v any, indent int) error {
	pad := strings.Repeat(" ", indent+2)
	open, close, n := byte('{'), byte('}'), 0
	switch x := v.(type) {
	case Object:
		n = len(x)
	case []any:
		open, close, n = '[', ']', len(x)
	default:
		s, err := inline(v)
		b.WriteString(s)
		return err
	}
	b.WriteByte(open)
	for i := range n {
		tail := 1
		if i == n-1 {
			tail = 0
		}
		b.WriteString("\n" + pad)
		var err error
		switch x := v.(type) {
		case Object:
			key := quoteString(x[i].Key) + ": "
			b.WriteString(key)
			err = write(b, x[i].Value, indent+2, len(pad)+len(key), tail)
		case []any:
			err = write(b, x[i], indent+2, len(pad), tail)
		}
		if err != nil {
			return err
		}
		if tail > 0 {
			b.WriteByte(',')
		}
	}
	if n > 0 {
		b.WriteString("\n" + pad[:indent])
	}
	b.WriteByte(close)
	return nil
}

func quoteString(s string) string {
	b, _ := plainjson.Marshal(s)
	return string(b)
}

// ContentValue writes bytes as case-file content: a string when they are
// UTF-8, else {"base64": ...}; with asLines, text that ends in a newline and
// holds no carriage return as {"lines": [...]}, the readable form of a
// patch.
func ContentValue(data []byte, asLines bool) any {
	if !utf8.Valid(data) {
		return Object{{"base64", base64.StdEncoding.EncodeToString(data)}}
	}
	if asLines && len(data) > 0 && bytes.HasSuffix(data, []byte("\n")) && !bytes.Contains(data, []byte("\r")) {
		var ls []any
		for l := range strings.SplitSeq(strings.TrimSuffix(string(data), "\n"), "\n") {
			ls = append(ls, l)
		}
		return Object{{"lines", ls}}
	}
	return string(data)
}

// TreeValue writes a tree as a case-file tree, its paths in order.
func TreeValue(t Tree) Object {
	o := Object{}
	for _, p := range t.Paths() {
		e := t[p]
		var v any
		switch e.Kind() {
		case "dir":
			v = Object{{"dir", true}}
		case "symlink":
			v = Object{{"symlink", e.Symlink}}
		case "hardlink":
			v = Object{{"hardlink", e.Hardlink}}
		default:
			v = ContentValue(e.Data, false)
			if s, ok := v.(string); ok && e.Mode != 0 {
				v = Object{{"text", s}}
			}
		}
		if e.Mode != 0 && e.Kind() != "symlink" && e.Kind() != "hardlink" {
			obj := v.(Object)
			v = append(obj, Member{"mode", fmt.Sprintf("%04o", e.Mode)})
		}
		o = append(o, Member{p, v})
	}
	return o
}
