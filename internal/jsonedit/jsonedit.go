// Package jsonedit changes one value of a JSON document in place, keeping
// every other byte (layout, member order, escapes) as it was written, so a
// mechanical rewrite of hand-written case files leaves a reviewable diff.
package jsonedit

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// Path addresses a value: object member names and list indexes (as decimal
// strings), from the root.
type Path []string

func (p Path) String() string { return strings.Join(p, ".") }

// span is where a value, or an object member, sits in the document.
type span struct {
	// start and end bound the value.
	start, end int
	// memberStart is where the member's key starts (objects only); -1 for
	// list items and the root.
	memberStart int
}

// Replace returns data with the value at path replaced by the JSON text raw.
func Replace(data []byte, path Path, raw []byte) ([]byte, error) {
	s, err := find(data, path)
	if err != nil {
		return nil, err
	}
	return splice(data, s.start, s.end, raw), nil
}

// Delete returns data without the object member at path, together with the
// comma that separated it from a neighbour.
func Delete(data []byte, path Path) ([]byte, error) {
	if len(path) == 0 {
		return nil, fmt.Errorf("jsonedit: cannot delete the root")
	}
	s, err := find(data, path)
	if err != nil {
		return nil, err
	}
	if s.memberStart < 0 {
		return nil, fmt.Errorf("jsonedit: %s is not an object member", path)
	}
	// Take the comma after the member, or else the one before it, with the
	// space up to it.
	end := skipSpace(data, s.end)
	if end < len(data) && data[end] == ',' {
		next := skipSpace(data, end+1)
		return splice(data, s.memberStart, next, nil), nil
	}
	start := s.memberStart
	j := start - 1
	for j >= 0 && isSpace(data[j]) {
		j--
	}
	if j >= 0 && data[j] == ',' {
		start = j
	}
	return splice(data, start, s.end, nil), nil
}

// Insert returns data with the member key: raw appended to the object at
// path. A key that is already there is an error.
func Insert(data []byte, path Path, key string, raw []byte) ([]byte, error) {
	s, err := find(data, path)
	if err != nil {
		return nil, err
	}
	if data[s.start] != '{' {
		return nil, fmt.Errorf("jsonedit: %s is not an object", path)
	}
	if _, err := find(data, append(append(Path{}, path...), key)); err == nil {
		return nil, fmt.Errorf("jsonedit: %s already has %q", path, key)
	}
	k, _ := json.Marshal(key)
	last := s.end - 1 // the closing brace
	j := last - 1
	for j > s.start && isSpace(data[j]) {
		j--
	}
	empty := j == s.start
	// Follow the object's layout: one member a line when it spans lines.
	if nl := bytes.LastIndexByte(data[s.start:last], '\n'); nl >= 0 && !empty {
		indent := lineIndent(data, s.start+nl+1)
		for _, m := range memberIndents(data, s) {
			indent = m
		}
		member := fmt.Sprintf(",\n%s%s: %s", indent, k, raw)
		return splice(data, j+1, j+1, []byte(member)), nil
	}
	member := fmt.Sprintf("%s: %s", k, raw)
	if !empty {
		member = ", " + member
	}
	return splice(data, j+1, j+1, []byte(member)), nil
}

// memberIndents lists the indentation of each member of an object that
// starts its own line.
func memberIndents(data []byte, s span) []string {
	var out []string
	for i := s.start + 1; i < s.end-1; i++ {
		if data[i] == '\n' {
			k := i + 1
			for k < s.end && (data[k] == ' ' || data[k] == '\t') {
				k++
			}
			if k < s.end && data[k] == '"' {
				out = append(out, string(data[i+1:k]))
			}
		}
	}
	return out
}

func lineIndent(data []byte, i int) string {
	k := i
	for k < len(data) && (data[k] == ' ' || data[k] == '\t') {
		k++
	}
	return string(data[i:k]) + "  "
}

func splice(data []byte, start, end int, raw []byte) []byte {
	out := make([]byte, 0, len(data)-(end-start)+len(raw))
	out = append(out, data[:start]...)
	out = append(out, raw...)
	return append(out, data[end:]...)
}

// find locates the value at path.
func find(data []byte, path Path) (span, error) {
	sc := &scanner{data: data}
	i := skipSpace(data, 0)
	cur := span{start: i, memberStart: -1}
	for depth := 0; ; depth++ {
		end, err := sc.value(cur.start)
		if err != nil {
			return span{}, err
		}
		cur.end = end
		if depth == len(path) {
			return cur, nil
		}
		next, ok, err := sc.child(cur, path[depth])
		if err != nil {
			return span{}, err
		}
		if !ok {
			return span{}, fmt.Errorf("jsonedit: no %s", path[:depth+1])
		}
		cur = next
	}
}

type scanner struct{ data []byte }

func (sc *scanner) errAt(i int) error {
	return fmt.Errorf("jsonedit: malformed JSON at byte %d", i)
}

// child finds the member or item named by key inside the object or list v.
func (sc *scanner) child(v span, key string) (span, bool, error) {
	d := sc.data
	switch d[v.start] {
	case '{':
		i := skipSpace(d, v.start+1)
		for i < v.end-1 {
			kEnd, err := sc.value(i)
			if err != nil || d[i] != '"' {
				return span{}, false, sc.errAt(i)
			}
			var name string
			if err := json.Unmarshal(d[i:kEnd], &name); err != nil {
				return span{}, false, sc.errAt(i)
			}
			j := skipSpace(d, kEnd)
			if j >= len(d) || d[j] != ':' {
				return span{}, false, sc.errAt(j)
			}
			vs := skipSpace(d, j+1)
			ve, err := sc.value(vs)
			if err != nil {
				return span{}, false, err
			}
			if name == key {
				return span{start: vs, end: ve, memberStart: i}, true, nil
			}
			i = skipSpace(d, ve)
			if i < len(d) && d[i] == ',' {
				i = skipSpace(d, i+1)
			}
		}
		return span{}, false, nil
	case '[':
		n, err := strconv.Atoi(key)
		if err != nil {
			return span{}, false, nil
		}
		i := skipSpace(d, v.start+1)
		for k := 0; i < v.end-1; k++ {
			ve, err := sc.value(i)
			if err != nil {
				return span{}, false, err
			}
			if k == n {
				return span{start: i, end: ve, memberStart: -1}, true, nil
			}
			i = skipSpace(d, ve)
			if i < len(d) && d[i] == ',' {
				i = skipSpace(d, i+1)
			}
		}
		return span{}, false, nil
	}
	return span{}, false, nil
}

// value returns the end of the JSON value that starts at i.
func (sc *scanner) value(i int) (int, error) {
	d := sc.data
	if i >= len(d) {
		return 0, sc.errAt(i)
	}
	switch d[i] {
	case '"':
		for j := i + 1; j < len(d); j++ {
			switch d[j] {
			case '\\':
				j++
			case '"':
				return j + 1, nil
			}
		}
		return 0, sc.errAt(i)
	case '{', '[':
		depth := 0
		for j := i; j < len(d); j++ {
			switch d[j] {
			case '"':
				e, err := sc.value(j)
				if err != nil {
					return 0, err
				}
				j = e - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return j + 1, nil
				}
			}
		}
		return 0, sc.errAt(i)
	default:
		j := i
		for j < len(d) && !isSpace(d[j]) && !bytes.ContainsRune([]byte(",]}:"), rune(d[j])) {
			j++
		}
		if j == i {
			return 0, sc.errAt(i)
		}
		return j, nil
	}
}

func skipSpace(d []byte, i int) int {
	for i < len(d) && isSpace(d[i]) {
		i++
	}
	return i
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// keyOrder puts the members of case files and JSON output in the order our
// case files write them; other keys follow alphabetically.
var keyOrder = []string{
	"expect", "error_code", "ok", "code", "status", "noop", "written", "changed", "affected",
	"strip_components", "id", "src", "dst", "payload_sha256", "payload_bytes",
	"source_range", "target_range", "insert_index", "start", "end",
	"path", "phase", "field", "anchor", "matches", "matches_truncated", "ranges", "line_ranges",
	"suggested_action", "moves", "error", "result", "expected_files",
}

// Marshal writes v on one line in the style of our case files: a space
// after each colon and comma, known keys in keyOrder, no HTML escaping.
func Marshal(v any) []byte {
	var b bytes.Buffer
	write(&b, v)
	return b.Bytes()
}

func write(b *bytes.Buffer, v any) {
	switch x := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortKeys(keys)
		b.WriteByte('{')
		for i, k := range keys {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, k)
			b.WriteString(": ")
			write(b, x[k])
		}
		b.WriteByte('}')
	case []any:
		b.WriteByte('[')
		for i, item := range x {
			if i > 0 {
				b.WriteString(", ")
			}
			write(b, item)
		}
		b.WriteByte(']')
	default:
		var e bytes.Buffer
		enc := json.NewEncoder(&e)
		enc.SetEscapeHTML(false)
		_ = enc.Encode(x)
		b.Write(bytes.TrimSuffix(e.Bytes(), []byte("\n")))
	}
}

func sortKeys(keys []string) {
	rank := func(k string) int {
		for i, o := range keyOrder {
			if o == k {
				return i
			}
		}
		return len(keyOrder)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0; j-- {
			a, b := keys[j-1], keys[j]
			ra, rb := rank(a), rank(b)
			if ra < rb || (ra == rb && a <= b) {
				break
			}
			keys[j-1], keys[j] = b, a
		}
	}
}
