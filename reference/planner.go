package reference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"unsafe"
)

// MoveID is the id of every rendered move.
const MoveID = "move-1"

// EvaluateRequest plans a move request against files without writing and
// without rendering a patch: what move does. Its Plan holds the changes to
// commit and the result to print. Like upstream, it still refuses a
// remove_file whose bytes are not UTF-8 (invalid_utf8).
//
// Errors, in the order they are found: the codes of Request.Validate; the
// read errors of src, then dst (file_not_found, symlink_path, ...);
// source_not_found and source_ambiguous for the src_start...src_end
// selection (anchor "src_start/src_end"); target_not_found and
// target_ambiguous (anchor: the target sides given, "target_before",
// "target_after" or "target_before+target_after"); target_overlaps_source
// when a same-file anchor overlaps the payload; destination_exists; and
// hash_mismatch when expected_payload_sha256 differs.
//
// Selection: every occurrence of src_start, overlapping ones included,
// pairs with the first occurrence of src_end that starts at or after its
// end; the payload runs from the start of src_start through the end of
// src_end and the pair must be unique. Placement: target_before +
// target_after must occur exactly once and the payload goes between them.
// Bytes are cut and inserted exactly at those offsets, mid-line included.
// An insertion whose target_before + payload + target_after occurs exactly
// once, and a create_file whose destination holds the payload, are
// already_applied.
//
// The result reports source_range (the payload in src), target_range (the
// matched target_before + target_after in dst before the move, or the
// final text when already applied) and insert_index, all in the files
// before the move, and the adjacent_bytes warnings of blockpatch 1.1.1.
func EvaluateRequest(req *Request, files Files) (*Plan, error) {
	p, err := plan(req, files)
	if err != nil {
		return nil, err
	}
	// Upstream's move renders a whole-file removal: it must be UTF-8 text.
	if p.sh.kind == ShapeRemove && !isUTF8(p.payload) {
		return nil, errNotUTF8()
	}
	return p.result(), nil
}

// PlanRequest is EvaluateRequest plus the rendered .blockpatch in
// Result.Patch: what plan and move --diff do. The patch is self-checked
// against the same bytes, as check would evaluate it, and the check's
// error is returned when it fails. Bytes the patch would have to show that
// are not UTF-8 are invalid_utf8 (phase "render").
func PlanRequest(req *Request, files Files) (*Plan, error) {
	out, doc, err := PlanDocument(req, files)
	if err != nil {
		return nil, err
	}
	text := Format(doc)
	// text is not written again: the string shares its bytes, so a patch
	// as large as its file costs no second copy (issue 23).
	patch := unsafe.String(unsafe.SliceData(text), len(text))
	out.Result.Patch = &patch
	return out, nil
}

// PlanDocument is PlanRequest without the text: the plan, whose
// Result.Patch is nil, and the patch itself, self-checked, to be rendered
// by Format or written out by WritePatch. The patch's lines are slices of
// the files read, valid while their bytes are. A caller that writes the
// patch out (the CLI's plan) thus holds no document as large as the file
// beside the file (issue 23).
func PlanDocument(req *Request, files Files) (*Plan, *Patch, error) {
	p, err := plan(req, files)
	if err != nil {
		return nil, nil, err
	}
	return p.document()
}

// document renders the patch, self-checked (PLAN-034), and returns it with
// the plan it was checked against. The payload's hash, one core's work (a
// tenth of a second for a payload of 150 MB), is taken while the patch is
// rendered and its outline parsed, which leave a core idle for long
// (issue 23).
func (p *planner) document() (*Plan, *Patch, error) {
	var doc *Patch
	var err error
	parallel(func() {
		if doc, err = p.render(); err == nil {
			err = parseOutline(doc)
		}
	}, func() { p.payloadSHA256() })
	if err != nil {
		return nil, nil, err
	}
	doc.PayloadSHA256 = p.payloadSHA256()
	out := p.result()
	if err := p.selfCheck(doc, out); err != nil {
		return nil, nil, err
	}
	return out, doc, nil
}

func plan(req *Request, files Files) (*planner, error) {
	sh, err := req.classify()
	if err == nil {
		err = checkSegments(folderOf(files), sh.src)
	}
	if err != nil {
		return nil, err
	}
	p := &planner{req: req, sh: sh, files: files, tree: MapFiles{}}
	switch sh.kind {
	case ShapeRelocate:
		err = p.relocate()
	case ShapeDelete:
		err = p.delete()
	case ShapeInsert:
		err = p.insert()
	case ShapeCreate:
		err = p.create()
	case ShapeRemove:
		err = p.remove()
	}
	if err == nil {
		err = p.checkHash()
	}
	if err != nil {
		return nil, err
	}
	return p, nil
}

// planner carries one request.
type planner struct {
	req   *Request
	sh    shape
	files Files
	// tree holds every file read, so the self-check evaluates the rendered
	// patch against exactly the bytes the plan was made from.
	tree MapFiles
	// linked says src and dst are two names of one file, hard linked
	// (PATH-016): moved as one file, the result written under both.
	linked bool

	payload []byte
	sum     string // payloadSHA256's, once computed
	// want is the tree after the move, each file as slices that mostly
	// share the bytes read, so a plan costs little more than its files.
	want   map[string][][]byte
	status Status // empty: applied or noop, from want

	source, target *Range // payload in src; target_range in dst
	insertAt       *int   // insert_index in dst

	// The hunks, rendered by render, and the offsets of their first bytes.
	sourceHunk, targetHunk   *Hunk
	sourceStart, targetStart int
	lines                    lineCounter
}

func (p *planner) read(path string) ([]byte, error) {
	data, err := p.files.ReadFile(path)
	if err != nil {
		return nil, err
	}
	p.tree[path] = data
	return data, nil
}

func (p *planner) tb() []byte { return []byte(str(p.req.TargetBefore)) }
func (p *planner) ta() []byte { return []byte(str(p.req.TargetAfter)) }

// checkHash compares the payload with expected_payload_sha256.
func (p *planner) checkHash() error {
	want := p.req.ExpectedPayloadSHA256
	if want == nil {
		return nil
	}
	got := p.payloadSHA256()
	if got == *want {
		return nil
	}
	return &Error{Code: HashMismatch, Phase: "payload", Field: "expected_payload_sha256", Anchor: "expected_payload_sha256",
		Message: "expected_payload_sha256 " + *want + " does not match the payload, whose hash is " + got}
}

// selectionAnchor names the source delimiters in errors.
const selectionAnchor = "src_start/src_end"

// selection finds the unique src_start...src_end pair in data, advancing
// also, when not nil, alongside (see envelopes).
func (p *planner) selection(data []byte, also *stepper) (Range, error) {
	path := p.sh.src
	sel := envelopes(data, []byte(*p.req.SrcStart), []byte(*p.req.SrcEnd), also)
	switch {
	case sel.Count == 0:
		return Range{}, &Error{Code: SourceNotFound, Phase: "source", Path: path, Anchor: selectionAnchor, Matches: counted(0),
			Message: "src_start ... src_end does not occur in " + path}
	case !sel.Unique():
		e := ambiguous(SourceAmbiguous, "source", path, data, sel)
		e.Anchor = selectionAnchor
		e.Message = "the src_start ... src_end selection is ambiguous in " + path + ": " + strconvCount(sel) + " matches"
		return Range{}, e
	}
	return sel.Ranges[0], nil
}

// anchorFinalText is the anchor of an insertion request's final text
// (PLAN-041).
const anchorFinalText = "target_before+payload+target_after"

// targetAnchor names the target sides given, for errors.
func (p *planner) targetAnchor() string {
	switch {
	case len(p.tb()) == 0:
		return "target_after"
	case len(p.ta()) == 0:
		return "target_before"
	}
	return "target_before+target_after"
}

// placement finds the unique target anchor in data, whose occurrences
// are m, and returns its range and the insertion offset.
func (p *planner) placement(data []byte, m Matches) (Range, int, error) {
	tb := p.tb()
	switch {
	case m.Count == 0:
		return Range{}, 0, &Error{Code: TargetNotFound, Phase: "target", Path: p.sh.dst, Anchor: p.targetAnchor(), Matches: counted(0),
			Message: "the target anchor does not occur in " + p.sh.dst}
	case !m.Unique():
		e := ambiguous(TargetAmbiguous, "target", p.sh.dst, data, m)
		e.Anchor = p.targetAnchor()
		return Range{}, 0, e
	}
	return m.Ranges[0], m.Ranges[0].Start + len(tb), nil
}

func (p *planner) relocate() error {
	src, dst := p.sh.src, p.sh.dst
	ds, err := p.read(src)
	if err != nil {
		return err
	}
	dt := ds
	if src != dst {
		if dt, err = p.read(dst); err != nil {
			return err
		}
	}
	var same bool
	same, p.linked = oneFile(p.files, src, dst)
	if same && src != dst {
		dt, p.tree[dst] = ds, ds
	}
	// In one file, the anchor is searched alongside the selection: one
	// read of the file for both.
	var along *stepper
	if anchor := concatShort([][]byte{p.tb(), p.ta()}); same && anchor != nil {
		along = &stepper{f: newFinder(ds, anchor)}
	}
	sel, err := p.selection(ds, along)
	if err != nil {
		return err
	}
	ps, pe := sel.Start, sel.End
	p.payload = ds[ps:pe]
	am := findJoined
	if along != nil {
		am = func([]byte, ...[]byte) Matches { return along.m }
	}
	anchor, ip, err := p.placement(dt, am(dt, p.tb(), p.ta()))
	if err != nil {
		return err
	}
	if same && anchor.Start < pe && ps < anchor.End {
		return &Error{Code: TargetOverlapsSource, Phase: "target", Path: dst, Anchor: "blockpatch-target",
			Message: "the target anchor overlaps the payload in " + dst}
	}
	p.source, p.target, p.insertAt = &sel, &anchor, &ip
	p.want = p.tree.segments()
	if !same {
		p.want[src] = [][]byte{ds[:ps], ds[pe:]}
		p.want[dst] = [][]byte{dt[:ip], p.payload, dt[ip:]}
		return nil
	}
	if ip <= ps {
		p.want[src] = [][]byte{ds[:ip], p.payload, ds[ip:ps], ds[pe:]}
	} else {
		p.want[src] = [][]byte{ds[:ps], ds[pe:ip], p.payload, ds[ip:]}
	}
	if p.linked { // each name gets the file's new bytes
		p.want[dst] = p.want[src]
	}
	return nil
}

func (p *planner) delete() error {
	src := p.sh.src
	ds, err := p.read(src)
	if err != nil {
		return err
	}
	sel, err := p.selection(ds, nil)
	if err != nil {
		return err
	}
	p.payload = ds[sel.Start:sel.End]
	p.source = &sel
	p.want = p.tree.segments()
	p.want[src] = [][]byte{ds[:sel.Start], ds[sel.End:]}
	return nil
}

func (p *planner) insert() error {
	dst := p.sh.dst
	p.payload = []byte(*p.req.Payload)
	dt, err := p.read(dst)
	if err != nil {
		return err
	}
	if err := p.checkHash(); err != nil {
		return err
	}
	p.want = p.tree.segments()
	// The final text is counted before the anchor is matched (PLAN-018,
	// PLAN-045).
	switch m := findJoined(dt, p.tb(), p.payload, p.ta()); {
	case m.Unique():
		ip := m.Ranges[0].Start + len(p.tb())
		p.target, p.insertAt, p.status = &m.Ranges[0], &ip, StatusAlreadyApplied
		return nil
	case m.Count > 1:
		e := withAnchor(ambiguous(TargetAmbiguous, "target", dst, dt, m), anchorFinalText)
		e.Message = "the insertion's final text is ambiguous in " + dst + ": " + strconvCount(m) + " matches"
		return e
	}
	anchor, ip, err := p.placement(dt, findJoined(dt, p.tb(), p.ta()))
	if err != nil {
		return err
	}
	p.target, p.insertAt = &anchor, &ip
	p.want[dst] = [][]byte{dt[:ip], p.payload, dt[ip:]}
	return nil
}

func (p *planner) create() error {
	dst := p.sh.dst
	p.payload = []byte(*p.req.Payload)
	if err := p.checkHash(); err != nil { // before dst is looked at (PLAN-044)
		return err
	}
	data, err := p.read(dst)
	zero := 0
	p.insertAt = &zero
	switch {
	case errors.Is(err, &Error{Code: FileNotFound}):
		p.want = p.tree.segments()
		p.want[dst] = [][]byte{p.payload}
		p.target = &Range{}
	case err != nil:
		return err
	case bytes.Equal(data, p.payload):
		p.want, p.status = p.tree.segments(), StatusAlreadyApplied
		p.target = &Range{0, len(data)}
	default:
		return &Error{Code: DestinationExists, Phase: "target", Path: dst, Anchor: "blockpatch-target",
			Message: dst + " already exists with different content"}
	}
	return nil
}

func (p *planner) remove() error {
	src := p.sh.src
	data, err := p.read(src)
	if err != nil {
		return err
	}
	p.payload = data
	p.source = &Range{0, len(data)}
	p.want = p.tree.segments()
	delete(p.want, src)
	return nil
}

// result builds the plan of the move: the changes in commit order (the
// destination before the source) and the result to print.
func (p *planner) result() *Plan {
	out := &Plan{}
	r := &out.Result
	r.OK, r.Changed = true, []string{}
	switch {
	case p.sh.src == DevNull:
		r.Affected = []string{p.sh.dst}
	case p.sh.dst == DevNull || p.sh.src == p.sh.dst:
		r.Affected = []string{p.sh.src}
	default:
		r.Affected = []string{p.sh.src, p.sh.dst}
	}
	for _, path := range []string{p.sh.dst, p.sh.src} {
		if path == DevNull || (path == p.sh.src && path == p.sh.dst && len(out.Changes) > 0) {
			continue
		}
		old, had := p.tree[path]
		now, has := p.want[path]
		switch {
		case !has && had:
			out.Changes = append(out.Changes, Change{Path: path, Remove: true})
		case has && (!had || !sameBytes(now, [][]byte{old})):
			out.Changes = append(out.Changes, Change{Path: path, Data: now, Create: !had})
		}
	}
	for _, path := range r.Affected {
		for _, c := range out.Changes {
			if c.Path == path {
				r.Changed = append(r.Changed, path)
			}
		}
	}
	r.Noop = len(r.Changed) == 0
	r.Status = p.status
	if r.Status == "" {
		r.Status = StatusApplied
		if r.Noop {
			r.Status = StatusNoop
		}
	}
	if r.Status == StatusAlreadyApplied {
		out.Changes = nil
	}
	r.Moves = []MoveResult{{ID: MoveID, Src: p.sh.src, Dst: p.sh.dst, PayloadSHA256: p.payloadSHA256(),
		PayloadBytes: len(p.payload), SourceRange: p.source, TargetRange: p.target, InsertIndex: p.insertAt}}
	r.Warnings = p.warnings()
	return out
}

// warnings returns the adjacent_bytes warnings of blockpatch 1.1.1: a
// target side and the payload that meet with no "\n" between them, in a
// move still to be made. An insertion already made joins nothing
// (OUT-024).
func (p *planner) warnings() []Warning {
	if p.sh.kind != ShapeRelocate && p.sh.kind != ShapeInsert || len(p.payload) == 0 || p.status == StatusAlreadyApplied {
		return nil
	}
	var out []Warning
	tb, ta := p.tb(), p.ta()
	if len(tb) > 0 && tb[len(tb)-1] != '\n' && p.payload[0] != '\n' {
		out = append(out, Warning{Code: "adjacent_bytes", Path: p.sh.dst, Phase: "target", Boundary: "target_before+payload",
			Message:         "Insertion will place payload immediately after target_before with no newline or separator inserted by blockpatch",
			SuggestedAction: "include the intended newline in target_before or at the start of payload"})
	}
	if len(ta) > 0 && ta[0] != '\n' && p.payload[len(p.payload)-1] != '\n' {
		out = append(out, Warning{Code: "adjacent_bytes", Path: p.sh.dst, Phase: "target", Boundary: "payload+target_after",
			Message:         "Insertion will place target_after immediately after payload with no newline or separator inserted by blockpatch",
			SuggestedAction: "include the intended newline at the end of payload or at the start of target_after"})
	}
	return out
}

// The self-check (PLAN-034) evaluates the rendered patch as check would,
// against the bytes the plan was made from, in two steps: parseOutline,
// then selfCheck. So no text as large as the file is made to be checked.

// parseOutline renders and parses doc's outline (every body line cut to
// one byte: the headers, counts and markers as rendered), whose parse
// fails exactly where the whole text's would, since Parse reads nothing of
// a body line past its prefix. The payload's hash, not yet known, is shown
// as a hash of zeros: any hash reads alike. The outline is rendered with
// its runs of lines as holes, which the parser takes as their lines
// without reading them one by one (a block of 300,000 lines otherwise
// costs a seventh of plan's time, issue 23); a parse that fails is done
// again on the whole outline, for the error as its text gives it.
func parseOutline(doc *Patch) error {
	o := outline(doc)
	o.PayloadSHA256 = zeroSum
	r := &runWriter{}
	formatTo(r, o)
	extra := 0
	for _, h := range r.holes {
		extra += h.run - 1
	}
	if _, err := parse(&parser{data: r.Bytes(), holes: r.holes, extra: extra}); err == nil {
		return nil
	}
	_, err := Parse(Format(o))
	return err
}

// zeroSum stands for a payload's hash where only its form matters.
const zeroSum = "0000000000000000000000000000000000000000000000000000000000000000"

// selfCheck evaluates doc itself, which is what parsing its whole text
// gives back (TestFormatRoundTrip), and compares the outcome with the
// plan's. A refusal is returned as check gives it; another outcome is
// unexpected_error, a bug.
func (p *planner) selfCheck(doc *Patch, want *Plan) error {
	m, err := doc.Resolve(1)
	if err != nil {
		return err
	}
	var tree Files = p.tree
	if p.linked {
		tree = linkedPair{p.tree, p.sh.src, p.sh.dst}
	}
	got, err := evaluate(m, tree, &hashed{payload: p.payload, sum: p.payloadSHA256})
	if err != nil {
		return err
	}
	status := want.Result.Status
	var why string
	switch {
	case got.Result.Status != status:
		why = "status " + string(got.Result.Status) + ", want " + string(status)
	case !p.tree.sameOutcome(got, want):
		why = "the patch gives other bytes than the move"
	}
	if why != "" {
		return &Error{Code: UnexpectedError, Phase: "verify",
			Message: "internal error: the rendered patch failed its self-check: " + why}
	}
	return nil
}

// outline returns a copy of p whose body lines hold one byte each, every
// line keeping its newline or its lack of one: Format makes of it a
// document with p's headers, counts and markers.
func outline(p *Patch) *Patch {
	o := *p
	o.Sections = make([]*Section, len(p.Sections))
	for i, s := range p.Sections {
		so := *s
		so.Hunks = make([]*Hunk, len(s.Hunks))
		for j, h := range s.Hunks {
			ho := *h
			ho.Before, ho.Payload, ho.After = outlineLines(h.Before), outlineLines(h.Payload), outlineLines(h.After)
			so.Hunks[j] = &ho
		}
		o.Sections[i] = &so
	}
	return &o
}

// outlineLines is data's body lines, each cut to one byte.
func outlineLines(data []byte) []byte {
	out := bytes.Repeat([]byte("x\n"), bodyLines(data))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		out = out[:len(out)-1]
	}
	return out
}

// payloadSHA256 is the payload's hash, computed once: the hash check, the
// rendered patch and the result all show it, and a payload may be as large
// as its file (issue 23). The payload is set before it is first asked for
// and not changed after.
func (p *planner) payloadSHA256() string {
	if p.sum == "" {
		p.sum = sha256Hex(p.payload)
	}
	return p.sum
}

// sha256Hex is the hex SHA-256 of data, read through a buffer when data is
// a mapped file's (see cursor).
func sha256Hex(data []byte) string {
	c := newCursor(data, 0, bufferedMax)
	defer c.close()
	if c.src == nil {
		sum := sha256.Sum256(data)
		return hex.EncodeToString(sum[:])
	}
	h := sha256.New()
	c.each(0, len(data), func(b []byte) { h.Write(b) })
	return hex.EncodeToString(h.Sum(nil))
}
