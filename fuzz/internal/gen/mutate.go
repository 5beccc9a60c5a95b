package gen

import (
	"bytes"
	"regexp"
	"strconv"
)

// PatchMutators name the patch mutators in Mutation.Op order.
var PatchMutators = []string{
	"flip-byte", "drop-line", "duplicate-line", "change-count", "change-hash",
	"blank-line-in-hunk", "swap-sections", "change-role", "crlf-header",
	"flip-payload-byte", "toggle-no-newline-marker", "flip-context-byte",
	"change-hunk-id", "add-metadata", "swap-hunks", "drop-final-newline",
}

// NumPatchMutators is len(PatchMutators).
var NumPatchMutators = len(PatchMutators)

// RequestMutators name the request mutators in Mutation.Op order.
var RequestMutators = []string{
	"unknown-member", "number-member", "drop-member", "duplicate-member",
	"truncate-json", "not-an-object", "empty-member", "bad-mode",
	"lone-surrogate", "trailing-garbage", "null-endpoint",
}

// NumRequestMutators is len(RequestMutators).
var NumRequestMutators = len(RequestMutators)

// lines splits data after each "\n"; the last item lacks one when data
// does not end in "\n".
func lines(data []byte) [][]byte {
	out := bytes.SplitAfter(data, []byte{'\n'})
	if len(out) > 0 && len(out[len(out)-1]) == 0 {
		out = out[:len(out)-1]
	}
	return out
}

func join(ls [][]byte) []byte { return bytes.Join(ls, nil) }

// pickLine returns the index of the at-th line (cyclically) among those
// for which ok holds, or -1.
func pickLine(ls [][]byte, at int, ok func(i int, l []byte) bool) int {
	var idx []int
	for i, l := range ls {
		if ok(i, l) {
			idx = append(idx, i)
		}
	}
	if len(idx) == 0 {
		return -1
	}
	return idx[abs(at)%len(idx)]
}

func isHeader(l []byte) bool {
	for _, p := range []string{"diff --blockpatch ", "blockpatch ", "--- ", "+++ ", "@@ "} {
		if bytes.HasPrefix(l, []byte(p)) {
			return true
		}
	}
	return false
}

func isBody(l []byte) bool {
	return len(l) > 0 && (l[0] == ' ' || l[0] == '-' || l[0] == '+') && !isHeader(l)
}

var countRE = regexp.MustCompile(`[0-9]+`)

// MutatePatch applies one mutation to a patch and names it. A mutation
// that finds nothing to change returns the patch as it is, named with a
// "(no-op)" suffix.
func MutatePatch(patch []byte, m Mutation) ([]byte, string) {
	op := abs(m.Op) % len(PatchMutators)
	name := PatchMutators[op]
	out := mutatePatch(bytes.Clone(patch), op, m.At)
	if out == nil {
		return patch, name + " (no-op)"
	}
	return out, name
}

func mutatePatch(p []byte, op, at int) []byte {
	ls := lines(p)
	any := func(int, []byte) bool { return true }
	switch PatchMutators[op] {
	case "flip-byte":
		if len(p) == 0 {
			return nil
		}
		i := abs(at) % len(p)
		p[i] ^= 1 << (abs(at>>12) % 7)
		return p
	case "drop-line":
		i := pickLine(ls, at, any)
		if i < 0 {
			return nil
		}
		return join(append(ls[:i:i], ls[i+1:]...))
	case "duplicate-line":
		i := pickLine(ls, at, any)
		if i < 0 {
			return nil
		}
		return join(append(ls[:i+1:i+1], ls[i:]...))
	case "change-count":
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("@@ ")) })
		if i < 0 {
			return nil
		}
		end := bytes.Index(ls[i][3:], []byte(" @@"))
		if end < 0 {
			return nil
		}
		ranges := ls[i][:3+end]
		nums := countRE.FindAllIndex(ranges, -1)
		if len(nums) == 0 {
			return nil
		}
		loc := nums[abs(at>>8)%len(nums)]
		v, _ := strconv.Atoi(string(ranges[loc[0]:loc[1]]))
		if at&1 == 0 || v == 0 {
			v++
		} else {
			v--
		}
		line := append(append(bytes.Clone(ls[i][:loc[0]]), strconv.Itoa(v)...), ls[i][loc[1]:]...)
		ls[i] = line
		return join(ls)
	case "change-hash":
		key := []byte("payload-sha256=")
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.Contains(l, key) })
		if i < 0 {
			return nil
		}
		j := bytes.Index(ls[i], key) + len(key)
		if j >= len(ls[i]) {
			return nil
		}
		k := j + abs(at>>8)%max(1, min(64, len(ls[i])-j-1))
		c := ls[i][k]
		switch {
		case at&1 == 0 && c >= 'a' && c <= 'f':
			c -= 'a' - 'A' // upper case: not a valid hash spelling
		case c == '0':
			c = '1'
		default:
			c = '0'
		}
		ls[i][k] = c
		return join(ls)
	case "blank-line-in-hunk":
		i := pickLine(ls, at, func(i int, l []byte) bool {
			return isBody(l) && i+1 < len(ls) && isBody(ls[i+1])
		})
		if i < 0 {
			return nil
		}
		return join(append(ls[:i+1:i+1], append([][]byte{{'\n'}}, ls[i+1:]...)...))
	case "swap-sections":
		var starts []int
		for i, l := range ls {
			if bytes.HasPrefix(l, []byte("diff --blockpatch ")) {
				starts = append(starts, i)
			}
		}
		if len(starts) != 2 {
			return nil
		}
		first, second := join(ls[:starts[1]]), join(ls[starts[1]:])
		if !bytes.HasSuffix(second, []byte{'\n'}) {
			second = append(second, '\n')
		}
		return append(append(second, '\n'), first...)
	case "change-role":
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("blockpatch move ")) })
		if i < 0 {
			return nil
		}
		l := ls[i]
		switch {
		case bytes.Contains(l, []byte(" role=source")):
			l = bytes.Replace(l, []byte(" role=source"), []byte(" role=target"), 1)
		case bytes.Contains(l, []byte(" role=target")):
			if at&2 == 0 {
				l = bytes.Replace(l, []byte(" role=target"), []byte(" role=source"), 1)
			} else {
				l = bytes.Replace(l, []byte(" role=target"), nil, 1)
			}
		default:
			l = bytes.Replace(l, []byte("blockpatch move "), []byte("blockpatch move role=source "), 1)
		}
		ls[i] = l
		return join(ls)
	case "crlf-header":
		i := pickLine(ls, at, func(_ int, l []byte) bool { return isHeader(l) && bytes.HasSuffix(l, []byte{'\n'}) })
		if i < 0 {
			return nil
		}
		ls[i] = append(bytes.TrimSuffix(ls[i], []byte{'\n'}), '\r', '\n')
		return join(ls)
	case "flip-payload-byte", "flip-context-byte":
		payload := PatchMutators[op] == "flip-payload-byte"
		content := func(l []byte) int { return len(bytes.TrimSuffix(l, []byte{'\n'})) - 1 }
		i := pickLine(ls, at, func(_ int, l []byte) bool {
			if !isBody(l) || content(l) < 1 {
				return false
			}
			return payload == (l[0] != ' ')
		})
		if i < 0 {
			return nil
		}
		k := 1 + abs(at>>8)%content(ls[i])
		ls[i][k] = FlipPayloadByte(ls[i][k], at)
		return join(ls)
	case "toggle-no-newline-marker":
		marker := []byte(`\ No newline at end of file`)
		if i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, marker) }); i >= 0 && at&1 == 0 {
			return join(append(ls[:i:i], ls[i+1:]...))
		}
		i := pickLine(ls, at, func(_ int, l []byte) bool { return isBody(l) })
		if i < 0 {
			return nil
		}
		m := append(bytes.Clone(marker), '\n')
		return join(append(ls[:i+1:i+1], append([][]byte{m}, ls[i+1:]...)...))
	case "change-hunk-id":
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("@@ ")) })
		if i < 0 {
			return nil
		}
		j := bytes.Index(ls[i], []byte(" id="))
		if j < 0 {
			return nil
		}
		ls[i] = append(append(bytes.Clone(ls[i][:j+4]), 'X'), ls[i][j+4:]...)
		return join(ls)
	case "add-metadata":
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("blockpatch move ")) })
		if i < 0 {
			return nil
		}
		extra := [][]byte{[]byte(" x-note=1"), []byte(" color=red"), []byte(" id=other"), []byte(" x-empty=")}[abs(at>>4)%4]
		l := bytes.TrimSuffix(ls[i], []byte{'\n'})
		ls[i] = append(append(bytes.Clone(l), extra...), '\n')
		return join(ls)
	case "swap-hunks":
		var heads []int
		for i, l := range ls {
			if bytes.HasPrefix(l, []byte("@@ ")) {
				heads = append(heads, i)
			}
		}
		if len(heads) < 2 {
			return nil
		}
		a, b := heads[0], heads[1]
		// The first hunk runs to the line before the second header,
		// blank separators included.
		h1, h2 := ls[a:b], ls[b:]
		var next int
		for next = 1; next < len(h2) && !bytes.HasPrefix(h2[next], []byte("diff --blockpatch ")); next++ {
		}
		h2, rest := h2[:next], h2[next:]
		out := append(append(append(append([][]byte{}, ls[:a]...), h2...), h1...), rest...)
		return join(out)
	case "drop-final-newline":
		if !bytes.HasSuffix(p, []byte{'\n'}) {
			return nil
		}
		return p[:len(p)-1]
	}
	return nil
}

// FlipPayloadByte changes one byte to a different byte, staying away
// from "\n" so that the line structure holds.
func FlipPayloadByte(c byte, at int) byte {
	if c == '\n' {
		return '\r'
	}
	d := c ^ byte(1<<(abs(at>>3)%7))
	if d == '\n' {
		d = c ^ 0x40
	}
	return d
}

// MutateRequest applies one mutation to a move request and names it.
func MutateRequest(req []byte, m Mutation) ([]byte, string) {
	op := abs(m.Op) % len(RequestMutators)
	name := RequestMutators[op]
	out := mutateRequest(bytes.Clone(req), op, m.At)
	if out == nil {
		return req, name + " (no-op)"
	}
	return out, name
}

var memberRE = regexp.MustCompile(`"([a-z_0-9]+)":("(?:[^"\\]|\\.)*"|true|false)`)

func mutateRequest(r []byte, op, at int) []byte {
	members := memberRE.FindAllSubmatchIndex(r, -1)
	member := func() []int {
		if len(members) == 0 {
			return nil
		}
		return members[abs(at)%len(members)]
	}
	insert := func(text string) []byte {
		if !bytes.HasPrefix(r, []byte("{")) {
			return nil
		}
		if len(members) == 0 {
			return append([]byte("{"+text), r[1:]...)
		}
		return append([]byte("{"+text+","), r[1:]...)
	}
	switch RequestMutators[op] {
	case "unknown-member":
		return insert([]string{`"source":"a.txt"`, `"x":1`, `"Src":"a.txt"`, `"target":"x"`}[abs(at>>4)%4])
	case "number-member":
		m := member()
		if m == nil {
			return nil
		}
		return setValue(r, m, "1")
	case "drop-member":
		m := member()
		if m == nil {
			return nil
		}
		s, e := m[0], m[1]
		switch {
		case e < len(r) && r[e] == ',':
			e++
		case s > 0 && r[s-1] == ',':
			s--
		}
		return append(bytes.Clone(r[:s]), r[e:]...)
	case "duplicate-member":
		m := member()
		if m == nil {
			return nil
		}
		return insert(string(r[m[0]:m[1]]))
	case "truncate-json":
		if len(r) < 2 {
			return nil
		}
		return r[:abs(at)%(len(r)-1)]
	case "not-an-object":
		return append(append([]byte("["), r...), ']')
	case "empty-member":
		m := member()
		if m == nil || r[m[4]] != '"' {
			return nil
		}
		return setValue(r, m, `""`)
	case "bad-mode":
		return insert([]string{`"mode":"create"`, `"mode":"remove_file"`, `"mode":"create_file"`, `"mode":""`}[abs(at>>4)%4])
	case "lone-surrogate":
		m := member()
		if m == nil || r[m[4]] != '"' {
			return nil
		}
		return append(append(bytes.Clone(r[:m[4]+1]), `\ud800`...), r[m[4]+1:]...)
	case "trailing-garbage":
		return append(r, []string{" {}", "x", "\n\n", " null"}[abs(at>>4)%4]...)
	case "null-endpoint":
		// src, dst or both (PLAN-017) set to /dev/null, added when missing.
		keys := [][]string{{"src", "dst"}, {"src"}, {"dst"}}[abs(at>>4)%3]
		out := r
		for _, k := range keys {
			if out = setMember(out, k, `"/dev/null"`); out == nil {
				return nil
			}
		}
		return out
	}
	return nil
}

// setMember gives the request's member key the JSON value v, in place
// when the member is there (its last occurrence) and first otherwise; nil
// when r is not an object.
func setMember(r []byte, key, v string) []byte {
	if !bytes.HasPrefix(r, []byte("{")) {
		return nil
	}
	ms := memberRE.FindAllSubmatchIndex(r, -1)
	for i := len(ms) - 1; i >= 0; i-- {
		m := ms[i]
		if string(r[m[2]:m[3]]) == key {
			return setValue(r, m, v)
		}
	}
	sep := ","
	if len(ms) == 0 {
		sep = ""
	}
	return append([]byte(`{"`+key+`":`+v+sep), r[1:]...)
}

// setValue replaces the value of the member memberRE matched at m by v.
func setValue(r []byte, m []int, v string) []byte {
	return append(append(bytes.Clone(r[:m[4]]), v...), r[m[5]:]...)
}
