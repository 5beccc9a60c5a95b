package gen

import (
	"bytes"
	"regexp"
	"slices"
	"strconv"
)

// PatchMutators name the patch mutators in Mutation.Op order.
var PatchMutators = []string{
	"flip-byte", "drop-line", "duplicate-line", "change-count", "change-hash",
	"blank-line-in-hunk", "swap-sections", "change-role", "crlf-header",
	"flip-payload-byte", "toggle-no-newline-marker", "flip-context-byte",
	"change-hunk-id", "add-metadata", "swap-hunks", "drop-final-newline",
	"path-mismatch", "drop-path-prefix", "context-between-payload", "third-section",
	"both-dev-null", "control-in-path", "invalid-utf8-in-path", "change-label",
	"folder-as-path", "structure-then-control",
}

// cutFirstSection is the draw of structure-then-control (At mod 4) that
// cuts the first section's paths to a/NAME: it shows only under a -p past
// one component, which Random then draws with it.
const cutFirstSection = 3

// NumPatchMutators is len(PatchMutators).
var NumPatchMutators = len(PatchMutators)

// RequestMutators name the request mutators in Mutation.Op order.
var RequestMutators = []string{
	"unknown-member", "number-member", "drop-member", "duplicate-member",
	"truncate-json", "not-an-object", "empty-member", "bad-mode",
	"lone-surrogate", "trailing-garbage", "null-endpoint", "folder-endpoint",
	"control-in-endpoint",
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
		starts := linesWith(ls, "diff --blockpatch ")
		if len(starts) != 2 {
			return nil
		}
		return thenSection(join(ls[starts[1]:]), join(ls[:starts[1]]))
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
		heads := linesWith(ls, "@@ ")
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
	case "path-mismatch":
		// FMT-004: one path of a section no longer matches its twin.
		return editPath(ls, at, false, func(path []byte) []byte { return append(path, 'x') })
	case "drop-path-prefix":
		// FMT-005: a/ or b/ missing, on one line or on both of a path's lines.
		return editPath(ls, at>>1, at&1 == 0, func(path []byte) []byte {
			if len(path) > 2 && path[1] == '/' && (path[0] == 'a' || path[0] == 'b') {
				return path[2:]
			}
			return nil
		})
	case "control-in-path":
		// PATH-013: a control character in a path, on both of its lines or
		// (checked before FMT-004) on the ---/+++ line only.
		c := []string{"\t", "\x01", "\x1b", "\x7f", "\u0085", "\r"}[abs(at>>4)%6]
		return editPath(ls, at>>1, at&1 == 0, func(path []byte) []byte { return insertAt(path, at>>8, c) })
	case "invalid-utf8-in-path":
		// FMT-036: an invalid sequence in the paths of a section, spelled
		// alike on all their lines, or, at odd at, in bytes that differ
		// from line to line but decode alike (one maximal subpart each), so
		// the path read is the decoded one.
		seqs := []string{"\xff", "\xe2\x82", "\xc0\xaf", "\xed\xa0\x80", "\xf4\x90\x80\x80", "\xf0\x9f\x98"}
		if at&1 == 1 {
			seqs = []string{"\xff", "\xfe", "\xc0", "\xe2\x82", "\xf0\x9f\x98", "\xe1\x80", "\xf8"}
		}
		n := abs(at >> 4)
		return editSection(ls, at>>1, func(path []byte) []byte {
			c := seqs[n%len(seqs)]
			if at&1 == 1 {
				n++
			}
			return insertAt(path, at>>8, c)
		})
	case "context-between-payload":
		// FMT-020: a context line splits a run of payload lines, or
		// follows a payload line that is then given again.
		i := pickLine(ls, at, func(_ int, l []byte) bool { return isBody(l) && l[0] != ' ' })
		if i < 0 {
			return nil
		}
		in := [][]byte{[]byte(" split\n")}
		if i+1 >= len(ls) || !isBody(ls[i+1]) || ls[i+1][0] != ls[i][0] {
			in = append(in, ls[i])
			if !bytes.HasSuffix(ls[i], []byte{'\n'}) {
				ls[i] = append(bytes.Clone(ls[i]), '\n')
			}
		}
		return join(append(ls[:i+1:i+1], append(in, ls[i+1:]...)...))
	case "third-section":
		// FMT-028: the last section once more.
		i := len(ls) - 1
		for i >= 0 && !bytes.HasPrefix(ls[i], []byte("diff --blockpatch ")) {
			i--
		}
		if i < 0 {
			return nil
		}
		return thenSection(p, join(ls[i:]))
	case "both-dev-null":
		// FMT-033: a section from /dev/null to /dev/null.
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("diff --blockpatch ")) })
		if i < 0 {
			return nil
		}
		ls[i] = []byte("diff --blockpatch /dev/null /dev/null\n")
		for j := i + 1; j < len(ls) && !bytes.HasPrefix(ls[j], []byte("diff --blockpatch ")); j++ {
			if bytes.HasPrefix(ls[j], []byte("--- ")) || bytes.HasPrefix(ls[j], []byte("+++ ")) {
				ls[j] = append(bytes.Clone(ls[j][:4]), "/dev/null\n"...)
			}
		}
		return join(ls)
	case "folder-as-path":
		// PATH-006: a section names the folder of its file, or a path
		// through the file.
		return editSection(ls, at, func(path []byte) []byte {
			if len(path) > 2 && path[1] == '/' {
				return append(path[:2:2], notAFile(path[2:])...)
			}
			return notAFile(path)
		})
	case "structure-then-control":
		// FMT-037: the first section breaks a rule on a patch's structure
		// (its hunk's id, or both paths /dev/null) and the last section's
		// +++ path holds a control character; or, in one section, the ---
		// path lacks a/ and the +++ path holds one (read first, FMT-005);
		// or the first section's paths keep only their last name, which a
		// -p past one strips whole before the control character is read
		// (PATH-017).
		heads, paths := linesWith(ls, "diff --blockpatch "), linesWith(ls, "+++ ")
		if len(heads) == 0 || len(paths) == 0 {
			return nil
		}
		first := len(ls)
		if len(heads) > 1 {
			first = heads[1]
		}
		control := func(path []byte) []byte { return insertAt(path, at>>8, "\x01") }
		switch abs(at) % 4 {
		case 0: // the first hunk's id
			i := slices.IndexFunc(ls[:first], func(l []byte) bool { return bytes.HasPrefix(l, []byte("@@ ")) })
			j := bytes.Index(ls[max(i, 0)], []byte(" id="))
			if i < 0 || j < 0 || len(heads) < 2 {
				return nil
			}
			ls[i] = append(append(bytes.Clone(ls[i][:j+4]), 'X'), ls[i][j+4:]...)
		case 1: // the first section from /dev/null to /dev/null
			if len(heads) < 2 {
				return nil
			}
			ls[heads[0]] = []byte("diff --blockpatch /dev/null /dev/null\n")
			for j := heads[0] + 1; j < first; j++ {
				if bytes.HasPrefix(ls[j], []byte("--- ")) || bytes.HasPrefix(ls[j], []byte("+++ ")) {
					ls[j] = append(bytes.Clone(ls[j][:4]), "/dev/null\n"...)
				}
			}
		case cutFirstSection: // the first section's paths cut to prefix and last name
			if len(heads) < 2 {
				return nil
			}
			cut := func(p []byte) []byte {
				return append(bytes.Clone(p[:min(2, len(p))]), p[bytes.LastIndexByte(p, '/')+1:]...)
			}
			for j := heads[0] + 1; j < first; j++ {
				if isPathLine(ls[j]) {
					editPathLine(ls, j, cut)
				}
			}
			editDiffPath(ls, heads[0], 2, cut)
			editDiffPath(ls, heads[0], 3, cut)
		default: // one section: --- without a/, control on +++
			old := paths[0] - 1
			if !isPathLine(ls[old]) || !isPathLine(ls[paths[0]]) || !editPathLine(ls, old, func(p []byte) []byte { return bytes.TrimPrefix(p, []byte("a/")) }) {
				return nil
			}
			editDiffPath(ls, heads[0], 2, func(p []byte) []byte { return bytes.TrimPrefix(p, []byte("a/")) })
			editPathLine(ls, paths[0], control)
			return join(ls)
		}
		last := paths[len(paths)-1]
		if !isPathLine(ls[last]) {
			return nil
		}
		editPathLine(ls, last, control)
		return join(ls)
	case "change-label":
		// FMT-014: other words after a hunk header's id.
		i := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("@@ ")) })
		if i < 0 {
			return nil
		}
		label := []string{" moved here", " id=other", " \t", " role=source"}[abs(at>>4)%4]
		l, end := cutEnd(ls[i])
		ls[i] = append(append(bytes.Clone(l), label...), end...)
		return join(ls)
	}
	return nil
}

// thenSection returns text, its last line ended, then a blank line and
// section: a patch with one more section after its own.
func thenSection(text, section []byte) []byte {
	if !bytes.HasSuffix(text, []byte{'\n'}) {
		text = append(text, '\n')
	}
	return append(append(text, '\n'), section...)
}

// linesWith returns the indexes of the lines that start with prefix.
func linesWith(ls [][]byte, prefix string) []int {
	var out []int
	for i, l := range ls {
		if bytes.HasPrefix(l, []byte(prefix)) {
			out = append(out, i)
		}
	}
	return out
}

// cutEnd splits a line into its text and its "\n" or "\r\n".
func cutEnd(l []byte) (text, end []byte) {
	n := len(l)
	if bytes.HasSuffix(l, []byte{'\n'}) {
		n--
		if n > 0 && l[n-1] == '\r' {
			n--
		}
	}
	return l[:n], l[n:]
}

// insertAt puts s into path after its a/ or b/ prefix, at a position
// drawn from at.
func insertAt(path []byte, at int, s string) []byte {
	from := 0
	if len(path) > 2 && path[1] == '/' {
		from = 2
	}
	k := from + abs(at)%(len(path)-from+1)
	return append(append(bytes.Clone(path[:k]), s...), path[k:]...)
}

// editSection rewrites every path but /dev/null of one section, on its
// diff, --- and +++ lines, by edit, which must not refuse; nil when there
// is no section.
func editSection(ls [][]byte, at int, edit func([]byte) []byte) []byte {
	d := pickLine(ls, at, func(_ int, l []byte) bool { return bytes.HasPrefix(l, []byte("diff --blockpatch ")) })
	if d < 0 {
		return nil
	}
	editDiffPath(ls, d, 2, edit)
	editDiffPath(ls, d, 3, edit)
	for j := d + 1; j < len(ls) && !bytes.HasPrefix(ls[j], []byte("diff --blockpatch ")); j++ {
		if isPathLine(ls[j]) {
			editPathLine(ls, j, edit)
		}
	}
	return join(ls)
}

// editPath rewrites the path of a ---/+++ line other than /dev/null by
// edit and, when both holds, the same path on its section's diff line;
// nil when there is no such line or edit refuses (returns nil).
func editPath(ls [][]byte, at int, both bool, edit func([]byte) []byte) []byte {
	i := pickLine(ls, at, func(_ int, l []byte) bool { return isPathLine(l) })
	if i < 0 || !editPathLine(ls, i, edit) {
		return nil
	}
	d := i - 1
	for d >= 0 && !bytes.HasPrefix(ls[d], []byte("diff --blockpatch ")) {
		d--
	}
	if both && d >= 0 {
		k := 2 // the old path for ---, the new for +++
		if ls[i][0] == '+' {
			k = 3
		}
		if !editDiffPath(ls, d, k, edit) {
			return nil
		}
	}
	return join(ls)
}

// isPathLine reports a --- or +++ line whose path is not /dev/null.
func isPathLine(l []byte) bool {
	text, _ := cutEnd(l)
	return (bytes.HasPrefix(text, []byte("--- ")) || bytes.HasPrefix(text, []byte("+++ "))) && string(text[4:]) != "/dev/null"
}

// editPathLine rewrites the path of the ---/+++ line ls[i] by edit; false
// when edit refuses.
func editPathLine(ls [][]byte, i int, edit func([]byte) []byte) bool {
	text, end := cutEnd(ls[i])
	path := edit(bytes.Clone(text[4:]))
	if path == nil {
		return false
	}
	ls[i] = append(append(bytes.Clone(text[:4]), path...), end...)
	return true
}

// editDiffPath rewrites path k (2 the old, 3 the new) of the diff
// --blockpatch line ls[d] by edit unless it is /dev/null or the line has
// not two paths; false when edit refuses.
func editDiffPath(ls [][]byte, d, k int, edit func([]byte) []byte) bool {
	text, end := cutEnd(ls[d])
	fields := bytes.Split(text, []byte{' '})
	if len(fields) != 4 || string(fields[k]) == "/dev/null" {
		return true
	}
	if fields[k] = edit(bytes.Clone(fields[k])); fields[k] == nil {
		return false
	}
	ls[d] = append(bytes.Join(fields, []byte{' '}), end...)
	return true
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
	case "folder-endpoint", "control-in-endpoint":
		// PATH-006: src or dst names a folder or a path through a file;
		// PLAN-044: a control character in src or dst.
		var ends [][]int
		for _, m := range members {
			k, v := string(r[m[2]:m[3]]), string(r[m[4]:m[5]])
			if (k == "src" || k == "dst") && v[0] == '"' && (v != `"/dev/null"` || RequestMutators[op] == "control-in-endpoint") {
				ends = append(ends, m)
			}
		}
		if len(ends) == 0 {
			return nil
		}
		m := ends[abs(at)%len(ends)]
		path := r[m[4]+1 : m[5]-1]
		if RequestMutators[op] == "folder-endpoint" {
			path = notAFile(path)
		} else {
			c := []string{`\t`, `\u0001`, `\u001b`, `\u007f`, `\u0085`, `\r`, `\n`}[abs(at>>4)%7]
			path = insertAt(path, at>>8, c)
		}
		return setValue(r, m, `"`+string(path)+`"`)
	}
	return nil
}

// notAFile returns the folder of path or, for a path in the top folder, a
// path through it as if it were a folder.
func notAFile(path []byte) []byte {
	if i := bytes.LastIndexByte(path, '/'); i > 0 {
		return bytes.Clone(path[:i])
	}
	return append(bytes.Clone(path), "/inner.txt"...)
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
