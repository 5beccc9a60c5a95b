package reference

import (
	"bytes"
	"regexp"
	"strconv"
	"strings"
)

// NoNewlineMarker follows a hunk body line whose bytes do not end in "\n".
const NoNewlineMarker = `\ No newline at end of file`

// Parse reads a .blockpatch document. It checks syntax and structure only:
// which files exist, what they hold, and whether the payload hash is right
// are questions for Evaluate. Every violation is a parse_error naming the
// line, or invalid_path for a header path holding a control character.
// The document starts with its first diff --blockpatch line; a header line
// may end in "\r\n", and the last line may lack its newline. Parse
// strips no path: Check and Input.Parse also strip each section's paths
// as it is read (PATH-017), for the error the releases give first.
//
// A hunk part of one line is a slice of data, not a copy (issue 23): data
// must not change while the Patch is in use. A payload of many lines that
// holds the bytes of an earlier hunk's is that payload, shared, not a copy.
func Parse(data []byte) (*Patch, error) {
	return parse(&parser{data: data})
}

func parse(p *parser) (*Patch, error) {
	patch := &Patch{}
	for len(patch.Sections) == 0 || p.skipBlank() {
		if len(patch.Sections) == 2 {
			p.later(p.errorf("a patch holds one move: a third section is not allowed"))
		}
		s, meta, err := p.section()
		if err != nil {
			return nil, err
		}
		if len(patch.Sections) == 0 {
			patch.ID, patch.PayloadSHA256 = meta.id, meta.sha
		} else if meta.id != patch.ID || meta.sha != patch.PayloadSHA256 {
			p.later(p.errorAt(meta.line, "cross-file sections must carry the same move id and payload-sha256"))
		}
		patch.Sections = append(patch.Sections, s)
	}
	if len(patch.Sections) == 0 {
		return nil, p.errorf("no diff --blockpatch section")
	}
	if p.invalid != nil {
		return nil, p.invalid
	}
	if err := checkStructure(patch); err != nil {
		return nil, err
	}
	return patch, nil
}

// parser walks the document one "\n"-terminated line at a time.
//
// Invariant: line is the 1-based number of the current line, text holds it
// without its "\n", and nl says whether it had one. off is where the next
// line starts. holes are the lines of data that ReadPatch left out, in
// order, from the next line's on; hole is the current line's bytes, or
// nil, and lines how many lines of the patch the current one stands for:
// one, or a run hole's (see hole). extra is the lines the holes still to
// come stand for beyond the one each keeps.
type parser struct {
	data  []byte
	off   int
	line  int
	text  []byte
	nl    bool
	eof   bool
	holes []hole
	hole  []byte
	lines int
	extra int
	// copied is the first payload of many lines that copyBody copied: a
	// later hunk whose payload lines give the same bytes shares it
	// instead of copying them again, as a move's two hunks carry one
	// payload (issue 23: half the memory of a patch moving a large block).
	copied []byte
	// inPlace says data is the parser's to change: Input.Parse, whose
	// memory the patch takes, joins a part's lines where they lie.
	inPlace bool
	// invalid is the first violation of a rule that upstream checks only
	// once every section is read (see later).
	invalid *Error
	// strip is the -pN a section's header paths are stripped by once both
	// are read, so a path it removes whole is parse_error before a later
	// section is read (PATH-017). Below 1 it removes nothing here; Resolve
	// refuses a negative count.
	strip int
}

// later records a violation that is reported only if every section reads
// to its end: a hunk's id (FMT-013), a hunk's kinds of lines (FMT-019)
// and their contiguity (FMT-020), the hunks of a section (FMT-027), a
// third section (FMT-028), the sections' ids (FMT-029) and a section from
// /dev/null to /dev/null (FMT-033). Until then a line that cannot be read
// is still parse_error and a later header path's control character still
// invalid_path (PATH-013), as upstream finds them first (observed 1.1.0).
func (p *parser) later(e *Error) {
	if p.invalid == nil {
		p.invalid = e
	}
}

// next advances to the following line; it returns false at the end.
func (p *parser) next() bool {
	if p.off >= len(p.data) {
		p.eof, p.text, p.nl = true, nil, false
		return false
	}
	p.hole, p.lines = nil, 1
	if len(p.holes) > 0 && p.holes[0].at == p.off {
		h := p.holes[0]
		p.hole, p.holes, p.lines = h.line, p.holes[1:], max(h.run, 1)
		p.extra -= p.lines - 1
	}
	p.line += p.lines
	rest := p.data[p.off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		p.text, p.nl = rest[:i], true
		p.off += i + 1
	} else {
		p.text, p.nl = rest, false
		p.off = len(p.data)
	}
	return true
}

// peek reports the next line without consuming it.
func (p *parser) peek() (text []byte, ok bool) {
	if p.off >= len(p.data) {
		return nil, false
	}
	rest := p.data[p.off:]
	if i := bytes.IndexByte(rest, '\n'); i >= 0 {
		return rest[:i], true
	}
	return rest, true
}

// skipBlank consumes blank separator lines and reports whether a non-blank
// line follows.
func (p *parser) skipBlank() bool {
	for {
		t, ok := p.peek()
		if !ok {
			return false
		}
		if len(t) != 0 && string(t) != "\r" {
			return true
		}
		p.next()
	}
}

func (p *parser) errorf(format string, args ...any) *Error {
	return p.errorAt(p.line, format, args...)
}

func (p *parser) errorAt(line int, format string, args ...any) *Error {
	e := errorf(ParseError, format, args...)
	if line > 0 {
		e.Message = "line " + strconv.Itoa(line) + ": " + e.Message
	}
	return e
}

// header consumes the next line as a header line starting with prefix and
// returns the rest of it as text (FMT-036): two spellings of invalid UTF-8
// that decode alike are one path or id, for every rule that compares them.
func (p *parser) header(prefix, what string) (string, error) {
	if !p.next() {
		return "", p.errorAt(p.line+1, "unexpected end of patch: expected %s", what)
	}
	text := bytes.TrimSuffix(p.text, []byte{'\r'})
	if !bytes.HasPrefix(text, []byte(prefix)) {
		return "", p.errorf("expected %s, found %s", what, quoteLine(p.text))
	}
	return decodeText(string(text[len(prefix):])), nil
}

type metadata struct {
	id, sha string
	role    Role
	ext     []string
	line    int
}

func (p *parser) section() (*Section, metadata, error) {
	var meta metadata
	diffPaths, err := p.header("diff --blockpatch ", "a diff --blockpatch line")
	if err != nil {
		return nil, meta, err
	}
	diffLine := p.line
	version, err := p.header("blockpatch version ", "blockpatch version 1 on the line after diff --blockpatch")
	if err != nil {
		return nil, meta, err
	}
	if version != "1" {
		return nil, meta, p.errorf("unsupported blockpatch version %s", strconv.Quote(version))
	}
	rawMeta, err := p.header("blockpatch move ", "a blockpatch move metadata line")
	if err != nil {
		return nil, meta, err
	}
	if meta, err = p.metadata(rawMeta); err != nil {
		return nil, meta, err
	}
	s := &Section{Role: meta.role, Extensions: meta.ext}
	// Each header path is checked as soon as its line is read, control
	// characters first (PATH-013), then its prefix, so a --- path without
	// a/ is refused before a control character on the +++ line (observed
	// 1.1.0); the diff --blockpatch line is compared with both after, and
	// then -pN strips both (PATH-017).
	if s.OldPath, err = p.headerPath("--- ", "a/"); err != nil {
		return nil, meta, err
	}
	if s.NewPath, err = p.headerPath("+++ ", "b/"); err != nil {
		return nil, meta, err
	}
	if diffPaths != s.OldPath+" "+s.NewPath {
		return nil, meta, p.errorAt(diffLine, "diff --blockpatch line must name the same paths as the --- and +++ headers")
	}
	if p.strip > 0 {
		for _, raw := range [...]string{s.OldPath, s.NewPath} {
			if _, err := stripHeaderPath(raw, p.strip); err != nil {
				return nil, meta, err
			}
		}
	}
	if s.OldPath == DevNull && s.NewPath == DevNull {
		p.later(p.errorf("/dev/null -> /dev/null is not a valid section"))
	}
	for p.skipBlank() {
		t, _ := p.peek()
		if bytes.HasPrefix(t, []byte("diff --blockpatch ")) {
			break
		}
		h, err := p.hunk(meta.id)
		if err != nil {
			return nil, meta, err
		}
		if s.Hunk(h.Role) != nil {
			p.later(p.errorf("a section holds at most one blockpatch-%s hunk", h.Role))
		}
		s.Hunks = append(s.Hunks, h)
	}
	if len(s.Hunks) == 0 {
		p.later(p.errorAt(diffLine, "section has no hunk"))
	}
	return s, meta, nil
}

// headerPath consumes a --- or +++ line (header "--- " or "+++ ") and
// returns its path: DevNull, or prefix and a non-empty path free of
// control characters. The other path rules apply to the stripped path
// when the tree is read.
func (p *parser) headerPath(header, prefix string) (string, error) {
	path, err := p.header(header, "a "+header[:3]+" header")
	if err != nil {
		return "", err
	}
	for _, r := range path {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return "", &Error{Code: InvalidPath, Phase: "path", Path: path,
				Message: header[:3] + " path " + strconv.Quote(path) + " holds a control character"}
		}
	}
	switch {
	case path == DevNull:
	case !strings.HasPrefix(path, prefix):
		return "", p.errorf("%s path %s must start with %s or be /dev/null", header[:3], strconv.Quote(path), prefix)
	case path == prefix:
		return "", p.errorf("%s header names no path", header[:3])
	}
	return path, nil
}

var shaPattern = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (p *parser) metadata(raw string) (metadata, error) {
	meta := metadata{line: p.line}
	seen := map[string]bool{}
	for _, tok := range strings.Fields(raw) { // upstream splits on runs of blanks
		key, value, ok := strings.Cut(tok, "=")
		if !ok || key == "" {
			return meta, p.errorf("metadata token %s is not key=value", strconv.Quote(tok))
		}
		if seen[key] {
			return meta, p.errorf("duplicate metadata key %s", key)
		}
		seen[key] = true
		switch {
		case key == "id": // upstream takes any non-empty token
			meta.id = value
		case key == "payload-sha256":
			if !shaPattern.MatchString(value) {
				return meta, p.errorf("payload-sha256 must be 64 lowercase hex digits")
			}
			meta.sha = value
		case key == "role":
			if value != string(RoleSource) && value != string(RoleTarget) {
				return meta, p.errorf("role must be source or target, not %s", strconv.Quote(value))
			}
			meta.role = Role(value)
		case strings.HasPrefix(key, "x-"):
			meta.ext = append(meta.ext, tok)
		default:
			return meta, p.errorf("unknown metadata key %s", strconv.Quote(key))
		}
	}
	if meta.id == "" {
		return meta, p.errorf("metadata lacks id")
	}
	if meta.sha == "" {
		return meta, p.errorf("metadata lacks payload-sha256")
	}
	return meta, nil
}

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@ blockpatch-(source|target) id=(\S+)(?: (.*))?$`)

// hunk parses one hunk: its header and exactly as many body lines as the
// header counts.
func (p *parser) hunk(id string) (*Hunk, error) {
	text, err := p.header("@@ ", "a hunk header")
	if err != nil {
		return nil, err
	}
	m := hunkHeader.FindStringSubmatch("@@ " + text)
	if m == nil {
		return nil, p.errorf("malformed hunk header %s", quoteLine([]byte("@@ "+text)))
	}
	h := &Hunk{Role: Role(m[5]), Label: m[7]}
	nums := []*int{&h.OldStart, &h.OldCount, &h.NewStart, &h.NewCount}
	for i, s := range m[1:5] {
		if s == "" {
			s = "1" // a range without a count covers one line
		}
		n, err := rangeNumber(s, i%2 == 0)
		if err != nil || (i%2 == 1 && n > len(p.data)+p.extra) { // a count cannot exceed the lines left

			return nil, p.errorf("hunk range number %s is out of range", s)
		}
		*nums[i] = n
	}
	if m[6] != id {
		p.later(p.errorf("hunk id %s does not match move id %s", strconv.Quote(m[6]), strconv.Quote(id)))
	}
	headerLine := p.line

	// Body: context lines, then the contiguous payload, then context lines.
	// This pass checks the lines and counts, per part, the lines, the
	// pieces (a line, or a run hole's lines) and the bytes they
	// contribute, keeping the piece of a part that has one; copyBody then
	// copies the parts of several pieces into one allocation of their
	// size, so a hunk costs its bytes once at most, not the doublings of
	// a growing slice.
	const (
		before = iota
		payload
		after
	)
	part := before
	var payloadPrefix, otherPrefix byte = '-', '+'
	if h.Role == RoleTarget {
		payloadPrefix, otherPrefix = '+', '-'
	}
	start := *p
	old, new := 0, 0
	lines := 0
	var body bodyParts
	lastPart := -1 // part of the last body line, for the marker
	for p.bodyContinues(h, old, new) {
		if !p.next() {
			return nil, p.errorAt(headerLine, "hunk body ends early: header counts %d old and %d new lines, found %d and %d", h.OldCount, h.NewCount, old, new)
		}
		lines++
		if len(p.text) == 0 {
			if p.nl {
				return nil, p.errorf("blank line inside hunk body (write an empty context line as a single space)")
			}
			return nil, p.errorf("missing newline at end of patch")
		}
		prefix := p.text[0]
		if prefix == '\\' {
			if string(p.text) != NoNewlineMarker {
				return nil, p.errorf("malformed no-newline marker %s", quoteLine(p.text))
			}
			if lastPart < 0 {
				return nil, p.errorf("no-newline marker does not follow a body line")
			}
			body.trim(lastPart)
			lastPart = -1
			continue
		}
		switch prefix {
		case ' ':
			old += p.lines
			new += p.lines
			if part == payload {
				part = after
			}
		case payloadPrefix:
			if part == after {
				p.later(p.errorf("payload lines must be contiguous"))
			}
			part = payload
			if h.Role == RoleSource {
				old += p.lines
			} else {
				new += p.lines
			}
		case otherPrefix:
			p.later(p.errorf("a blockpatch-%s hunk cannot hold %q lines", h.Role, string(otherPrefix)))
			if otherPrefix == '-' {
				old += p.lines
			} else {
				new += p.lines
			}
		default:
			return nil, p.errorf("unexpected line in hunk body: %s", quoteLine(p.text))
		}
		if old > h.OldCount || new > h.NewCount {
			return nil, p.errorAt(headerLine, "hunk body is longer than its header counts (-%d +%d)", h.OldCount, h.NewCount)
		}
		body.add(part, p.lines, p.body())
		lastPart = part
	}
	if p.invalid != nil {
		// The patch is refused: its lines need not be copied, and a
		// payload that is not one run has no copy.
		h.Payload = []byte{}
		return h, nil
	}
	end := *p
	*p = start
	h.Before, h.Payload, h.After = p.copyBody(lines, payloadPrefix, &body)
	*p = end
	if body.lines[payload] > 1 && p.copied == nil {
		p.copied = h.Payload
	}
	return h, nil
}

// bodyParts is what the checking pass of a hunk body learns of its three
// parts (context before the payload, the payload, context after it): how
// many lines each has, in how many pieces (a line, or a run hole's lines),
// their bytes, and the piece of a part that has one, as a slice of the
// patch or of a file, trimmed by a marker that follows it.
type bodyParts struct {
	lines, pieces, size [3]int
	one                 [3][]byte
}

func (b *bodyParts) add(part, lines int, piece []byte) {
	b.lines[part] += lines
	b.pieces[part]++
	b.size[part] += len(piece)
	b.one[part] = piece[:len(piece):len(piece)]
}

// trim applies a no-newline marker to the part's last line.
func (b *bodyParts) trim(part int) {
	if piece := b.one[part]; b.pieces[part] == 1 && bytes.HasSuffix(piece, newline) {
		b.one[part] = piece[: len(piece)-1 : len(piece)-1]
	}
}

// copyBody returns the bytes of the next lines body lines, which hunk
// checked and measured in b: the context before the payload, the payload
// (never nil) and the context after it. A part made of one piece is a
// slice of the patch itself, or of the file a run hole lies in, so a hunk
// of long lines (a file without newlines) or a payload ReadPatch found in
// its file costs no copy; the pieces of a longer part are joined without
// their prefixes, in place where the parser may change its data (each
// line gives up its prefix byte, so what is written never reaches a line
// not yet read, nor another part's lines), else into one allocation for
// all such parts, unless an earlier hunk's payload holds the bytes (see
// copied). Every part is capped at its end, so appending to it cannot
// write into the patch. A marker trims the line before it.
func (p *parser) copyBody(lines int, payloadPrefix byte, b *bodyParts) (before, payload, after []byte) {
	parts := b.one
	shared := b.pieces[1] > 1 && p.copied != nil && p.payloadIs(lines, payloadPrefix, p.copied)
	copies := func(q int) bool { return b.pieces[q] > 1 && (q != 1 || !shared) }
	size := 0
	for q := range b.size {
		if copies(q) {
			size += b.size[q]
		}
	}
	if size > 0 {
		dst := p.data
		if !p.inPlace {
			dst = bulk(size)[:size]
		}
		var begin, end [3]int
		w, part, open := 0, 0, -1 // open: the part being written
		for range lines {
			at := p.off
			p.next()
			if p.text[0] == '\\' {
				if copies(part) && dst[w-1] == '\n' {
					w--
					end[part] = w
				}
				continue
			}
			if part = p.partOf(part, payloadPrefix); !copies(part) {
				continue
			}
			if part != open {
				if p.inPlace {
					w = at
				}
				begin[part], open = w, part
			}
			w += copy(dst[w:], p.body())
			end[part] = w
		}
		for q := range parts {
			if copies(q) {
				parts[q] = dst[begin[q]:end[q]:end[q]]
			}
		}
	}
	if shared {
		parts[1] = p.copied
	}
	for q := range parts {
		if len(parts[q]) == 0 {
			parts[q] = nil
		}
	}
	if parts[1] == nil {
		parts[1] = []byte{}
	}
	return parts[0], parts[1], parts[2]
}

// payloadIs reports whether the payload lines among the next lines body
// lines give want, joined as copyBody joins them (a marker after a line
// takes its newline away); p is left where it was.
func (p *parser) payloadIs(lines int, payloadPrefix byte, want []byte) bool {
	saved := *p
	defer func() { *p = saved }()
	at, part := 0, 0
	owed := false // the last payload line's newline, unless a marker follows
	settle := func() bool {
		if !owed {
			return true
		}
		owed = false
		if at == len(want) || want[at] != '\n' {
			return false
		}
		at++
		return true
	}
	for range lines {
		p.next()
		if p.text[0] == '\\' {
			owed = false
			continue
		}
		if !settle() {
			return false
		}
		if part = p.partOf(part, payloadPrefix); part != 1 {
			continue
		}
		var line []byte
		line, owed = bytes.CutSuffix(p.body(), newline)
		if !bytes.HasPrefix(want[at:], line) {
			return false
		}
		at += len(line)
	}
	return settle() && at == len(want)
}

// body returns the current body line's bytes after its prefix, with its
// newline: the patch's last line may lack one, and so do its bytes. A
// hole's bytes are as Parse takes them (see hole).
func (p *parser) body() []byte {
	if p.hole != nil {
		return p.hole
	}
	line := p.text[1:]
	if p.nl {
		line = line[: len(line)+1 : len(line)+1] // the "\n" follows in the patch
	}
	return line
}

// partOf returns the part of the hunk body the current line belongs to,
// the previous line's being part: context before the payload (0), the
// payload (1), context after it (2).
func (p *parser) partOf(part int, payloadPrefix byte) int {
	switch {
	case p.text[0] == payloadPrefix:
		return 1
	case part == 1:
		return 2
	}
	return part
}

// bodyContinues reports whether the hunk body goes on: until the header
// counts are met, plus a trailing no-newline marker.
func (p *parser) bodyContinues(h *Hunk, old, new int) bool {
	return old < h.OldCount || new < h.NewCount || p.markerNext()
}

// markerNext reports whether the next line is a no-newline marker, which
// belongs to the hunk even after its counts are met.
func (p *parser) markerNext() bool {
	t, ok := p.peek()
	return ok && len(t) > 0 && t[0] == '\\'
}

// rangeNumber reads one number of a hunk header. A start line number may
// have any number of digits and is kept as the largest int when it has too
// many (FMT-017: starts never reject a patch); a count that large could
// never be met, so it is refused.
func rangeNumber(s string, start bool) (int, error) {
	n, err := strconv.Atoi(s)
	if start && err != nil { // hunkHeader holds only ASCII digits here, so
		return n, nil // Atoi failed on range and gave the largest int
	}
	return n, err
}
