package cases

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// Derive makes fail cases from a standard pass case by breaking one rule of
// its patch or tree at a time, each expecting the error code of the rule it
// breaks:
//
//   - hash: the first payload byte changed in every hunk alike, so the
//     payload no longer has its payload-sha256 (hash_mismatch, MATCH-017);
//   - count: the first hunk's old count one too high (parse_error, FMT-016);
//   - blank: a blank line right after the first hunk header (parse_error,
//     FMT-025);
//   - missing: the first file the patch reads removed from the tree
//     (file_not_found, PATH-007);
//   - anchor: the target anchor written once more at the end of the
//     destination file (target_ambiguous, MATCH-009), only where the
//     spec's earlier checks (source, already applied, partial duplicate)
//     provably pass, which Derive checks with its own byte counting.
//
// It derives nothing from cases it cannot read plainly: other protocols,
// fail cases, extra arguments or -p other than 1. The expectations come from
// the rules, never from running an implementation. Each derived case is
// written as a case file with Encode and loaded like any other, so it obeys
// the loader's rules.
func Derive(c *Case) []*Case {
	var out []*Case
	for _, f := range DeriveFiles(c) {
		if d, err := (Options{}).Parse(f.Name, f.Data); err == nil {
			out = append(out, d)
		}
	}
	return out
}

// CaseFileData is a case's name with the bytes of its case file.
type CaseFileData struct {
	Name string
	Data []byte
}

// DeriveFiles returns the case files Derive loads, each with its name
// ("derived/<case>/<kind>"): the files a copy of the corpus writes.
func DeriveFiles(c *Case) []CaseFileData {
	if c.Protocol != Standard || c.Expect != Pass || len(c.Args) > 0 || (c.Strip != nil && *c.Strip != 1) {
		return nil
	}
	p := scanPatch(c.Patch)
	if p == nil {
		return nil
	}
	var out []CaseFileData
	add := func(kind, what, code, req string, patch []byte, files Tree) {
		doc := Object{
			{"description", "Derived from " + c.Name + ": " + what + "."},
			{"requirements", []string{req}},
			{"expect", string(Fail)},
			{"error_code", code},
			{"patch", ContentValue(patch, false)},
			{"files", TreeValue(files)},
		}
		if c.Since != "" {
			doc.Set("since", c.Since, FieldNames(CaseFields)...)
		}
		if data, err := Encode(doc); err == nil {
			out = append(out, CaseFileData{"derived/" + c.Name + "/" + kind, data})
		}
	}
	if patch, ok := p.flipPayload(); ok {
		add("hash", "one payload byte changed in every hunk", "hash_mismatch", "MATCH-017", patch, c.Files.Clone())
	}
	if patch, ok := p.bumpCount(); ok {
		add("count", "the first hunk's old count one too high", "parse_error", "FMT-016", patch, c.Files.Clone())
	}
	if patch, ok := p.blankInHunk(); ok {
		add("blank", "a blank line inside the first hunk", "parse_error", "FMT-025", patch, c.Files.Clone())
	}
	if files, ok := p.withoutFirstFile(c.Files); ok {
		add("missing", "the first file the patch reads is missing", "file_not_found", "PATH-007", c.Patch, files)
	}
	if files, ok := p.duplicateAnchor(c.Files); ok {
		add("anchor", "the target anchor occurs twice", "target_ambiguous", "MATCH-009", c.Patch, files)
	}
	return out
}

// patchText is a patch as lines, with its hunks located.
type patchText struct {
	lines []string // without their "\n"; the patch ends in "\n"
	hunks []hunkText
}

type hunkText struct {
	header        int      // index of the @@ line
	body          []int    // indexes of body lines, markers included
	target        bool     // a blockpatch-target hunk
	oldPath       string   // the section's --- path
	newPath       string   // the section's +++ path
	parts         [][]byte // before, payload, after
	payloadLines0 int      // index of the first payload line, or -1
}

var hunkHeaderLine = regexp.MustCompile(`^@@ -(\d+)(,\d+)? \+\d+(?:,\d+)? @@ blockpatch-(source|target) `)

// scanPatch locates the hunks of a well-formed patch, or returns nil.
func scanPatch(patch []byte) *patchText {
	if !bytes.HasSuffix(patch, []byte("\n")) {
		return nil
	}
	p := &patchText{lines: strings.Split(string(patch[:len(patch)-1]), "\n")}
	var oldPath, newPath string
	for i := 0; i < len(p.lines); i++ {
		l := p.lines[i]
		switch {
		case strings.HasPrefix(l, "--- "):
			oldPath = l[4:]
		case strings.HasPrefix(l, "+++ "):
			newPath = l[4:]
		case strings.HasPrefix(l, "@@ "):
			m := hunkHeaderLine.FindStringSubmatch(l)
			if m == nil {
				return nil
			}
			h := hunkText{header: i, target: m[3] == "target", oldPath: oldPath, newPath: newPath, payloadLines0: -1}
			payload := byte('-')
			if h.target {
				payload = '+'
			}
			parts := [3][]byte{}
			part, last := 0, -1
			for i+1 < len(p.lines) && p.lines[i+1] != "" && strings.IndexByte(" -+\\", p.lines[i+1][0]) >= 0 {
				i++
				h.body = append(h.body, i)
				line := p.lines[i]
				switch {
				case line[0] == '\\':
					if last >= 0 && len(parts[last]) > 0 {
						parts[last] = parts[last][:len(parts[last])-1]
					}
					continue
				case line[0] == payload:
					if h.payloadLines0 < 0 {
						h.payloadLines0 = i
					}
					part = 1
				case line[0] == ' ' && part == 1:
					part = 2
				}
				parts[part] = append(append(parts[part], line[1:]...), '\n')
				last = part
			}
			h.parts = parts[:]
			p.hunks = append(p.hunks, h)
		}
	}
	if len(p.hunks) == 0 {
		return nil
	}
	return p
}

func (p *patchText) bytes(lines []string) []byte {
	return []byte(strings.Join(lines, "\n") + "\n")
}

func (p *patchText) flipPayload() ([]byte, bool) {
	lines := append([]string(nil), p.lines...)
	for _, h := range p.hunks {
		if h.payloadLines0 < 0 {
			return nil, false
		}
		l := lines[h.payloadLines0]
		repl := "x"
		if len(l) > 1 && l[1] == 'x' {
			repl = "y"
		}
		if len(l) > 1 {
			lines[h.payloadLines0] = l[:1] + repl + l[2:]
		} else {
			lines[h.payloadLines0] = l + repl
		}
	}
	return p.bytes(lines), true
}

func (p *patchText) bumpCount() ([]byte, bool) {
	lines := append([]string(nil), p.lines...)
	h := p.hunks[0]
	m := hunkHeaderLine.FindStringSubmatchIndex(lines[h.header])
	count, end := 1, m[3] // a range without a count covers one line
	if m[4] >= 0 {
		count, _ = strconv.Atoi(lines[h.header][m[4]+1 : m[5]])
		end = m[5]
	}
	lines[h.header] = lines[h.header][:m[3]] + "," + strconv.Itoa(count+1) + lines[h.header][end:]
	return p.bytes(lines), true
}

func (p *patchText) blankInHunk() ([]byte, bool) {
	h := p.hunks[0]
	if len(h.body) == 0 {
		return nil, false
	}
	lines := append([]string(nil), p.lines[:h.header+1]...)
	lines = append(lines, "")
	lines = append(lines, p.lines[h.header+1:]...)
	return p.bytes(lines), true
}

// opPath is the operation path of a raw header path under -p1, or "".
func opPath(raw string) string {
	if raw == "/dev/null" || len(raw) < 3 {
		return ""
	}
	return raw[2:]
}

// withoutFirstFile removes the first file the patch reads, when its
// absence is an error: not for creation (absence is normal) nor removal
// (absence is already_applied).
func (p *patchText) withoutFirstFile(files Tree) (Tree, bool) {
	h := p.hunks[0]
	path := opPath(h.oldPath)
	if path == "" || opPath(h.newPath) == "" || files[path].Kind() != "file" || !hasPath(files, path) {
		return nil, false
	}
	for _, e := range files {
		if e.Hardlink == path {
			return nil, false
		}
	}
	out := files.Clone()
	delete(out, path)
	return out, true
}

// duplicateAnchor appends the target anchor to the destination file where
// the result is sure to be target_ambiguous.
func (p *patchText) duplicateAnchor(files Tree) (Tree, bool) {
	var src, tgt *hunkText
	for i := range p.hunks {
		if p.hunks[i].target {
			tgt = &p.hunks[i]
		} else {
			src = &p.hunks[i]
		}
	}
	if tgt == nil {
		return nil, false
	}
	dst := opPath(tgt.newPath)
	if dst == "" || opPath(tgt.oldPath) == "" || files[dst].Kind() != "file" || !hasPath(files, dst) {
		return nil, false
	}
	before, payload, after := tgt.parts[0], tgt.parts[1], tgt.parts[2]
	anchor := concatBytes(before, after)
	out := files.Clone()
	e := out[dst]
	e.Data = concatBytes(e.Data, anchor)
	out[dst] = e
	final := concatBytes(before, payload, after)
	if src == nil { // insertion: the final text must not prove already_applied
		return out, countOverlapping(e.Data, final) != 1
	}
	s := opPath(src.oldPath)
	if s == "" || !hasPath(out, s) {
		return nil, false
	}
	source := concatBytes(src.parts[0], src.parts[1], src.parts[2])
	if countOverlapping(out[s].Data, source) != 1 {
		return nil, false
	}
	if s != dst && countOverlapping(e.Data, final) == 1 { // would be partial_applied_duplicate
		return nil, false
	}
	return out, true
}

func concatBytes(parts ...[]byte) []byte {
	var out []byte
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}

// countOverlapping counts occurrences of needle in data, overlaps included.
func countOverlapping(data, needle []byte) int {
	n := 0
	for i := 0; i+len(needle) <= len(data); i++ {
		if bytes.Equal(data[i:i+len(needle)], needle) {
			n++
		}
	}
	return n
}
