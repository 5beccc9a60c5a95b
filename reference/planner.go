package reference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"unicode/utf8"
)

// MoveID is the id of every rendered move.
const MoveID = "move-1"

// PlanRequest plans a move request against files without writing: it
// selects the payload, places it, renders the reviewable .blockpatch into
// Result.Patch and self-checks that patch. The returned Plan is the
// evaluation of the rendered patch against the same bytes, exactly as check
// would give it, and its Changes are what move writes.
//
// It returns the codes of Request.Validate; the read errors of files
// (file_not_found, symlink_path, path_outside_cwd, ...); source_not_found
// (anchor "src_start" or "src_end": the delimiter that has no usable
// occurrence) and source_ambiguous for the selection; hash_mismatch when
// expected_payload_sha256 differs; partial_applied_duplicate when a
// cross-file move finds its final text already in the destination while
// the payload is still in the source; target_not_found and
// target_ambiguous (anchor "target"); target_overlaps_source;
// destination_exists; invalid_utf8 when the patch would have to show bytes
// that are not UTF-8; and unexpected_error if the rendered patch fails its
// self-check, which is a bug.
//
// Selection: every occurrence of src_start, overlapping ones included,
// pairs with the first occurrence of src_end that starts at or after its
// end; the payload runs from the start of src_start through the end of
// src_end and the pair must be unique. Placement: target_before +
// target_after must occur exactly once and the payload goes between them.
// Bytes are cut and inserted exactly at those offsets, mid-line included.
//
// Idempotence follows the patch rules: an in-file insertion whose
// target_before + payload + target_after already occurs exactly once, and a
// create_file whose destination already holds the payload, are
// already_applied; a cross-file relocation whose target_before + payload +
// target_after occurs exactly once in dst is partial_applied_duplicate.
//
// Rendering: see "The context rules" below for how much context each hunk
// shows, and newHunk for the line numbers.
func PlanRequest(req *Request, files Files) (*Plan, error) {
	sh, err := req.classify()
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
	if err != nil {
		return nil, err
	}
	return p.finish()
}

// planner carries one PlanRequest call.
type planner struct {
	req   *Request
	sh    shape
	files Files
	// tree holds every file read, so the self-check evaluates the rendered
	// patch against exactly the bytes the plan was made from.
	tree MapFiles

	payload []byte
	source  *Hunk
	target  *Hunk

	// The outcome computed straight from the request, which the rendered
	// patch must reproduce.
	want        MapFiles
	wantSource  *Range // the payload's range in the source file
	wantInsert  *int   // the insertion offset in the destination
	sourcePath  string // the files the hunks show, for invalid_utf8
	targetPath  string
	alreadyDone bool
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
func (p *planner) checkHash(phase, path string) error {
	want := p.req.ExpectedPayloadSHA256
	if want == nil {
		return nil
	}
	got := sha256Hex(p.payload)
	if got == *want {
		return nil
	}
	return &Error{Code: HashMismatch, Phase: phase, Path: path, Field: "expected_payload_sha256", PayloadSHA256: got,
		Message: "expected_payload_sha256 " + *want + " does not match the payload, whose hash is " + got}
}

// selection finds the unique src_start...src_end pair in data and returns
// the payload's range.
func (p *planner) selection(data []byte) (int, int, error) {
	start, end := []byte(*p.req.SrcStart), []byte(*p.req.SrcEnd)
	path := p.sh.src
	sel := envelopes(data, start, end)
	switch {
	case sel.Count == 0:
		anchor := "src_end"
		if !bytes.Contains(data, start) {
			anchor = "src_start"
		}
		msg := "src_start does not occur in " + path
		if anchor == "src_end" {
			msg = "src_end does not occur after src_start in " + path
		}
		return 0, 0, &Error{Code: SourceNotFound, Phase: "source", Path: path, Anchor: anchor, Message: msg}
	case !sel.Unique():
		e := ambiguous(SourceAmbiguous, "source", path, data, sel)
		e.Message = "the src_start ... src_end selection is ambiguous in " + path + ": " + strconvCount(sel) + " matches"
		return 0, 0, e
	}
	return sel.Ranges[0].Start, sel.Ranges[0].End, nil
}

// placement finds the unique target anchor in data and returns its range
// and the insertion offset.
func (p *planner) placement(data []byte) (anchor Range, ip int, err error) {
	tb, ta := p.tb(), p.ta()
	m := Find(data, concat(tb, ta))
	switch {
	case m.Count == 0:
		return anchor, 0, &Error{Code: TargetNotFound, Phase: "target", Path: p.sh.dst, Anchor: "target",
			Message: "target anchor not found in " + p.sh.dst}
	case !m.Unique():
		e := ambiguous(TargetAmbiguous, "target", p.sh.dst, data, m)
		e.Anchor = "target"
		return anchor, 0, e
	}
	anchor = m.Ranges[0]
	return anchor, anchor.Start + len(tb), nil
}

func (p *planner) relocate() error {
	src, dst := p.sh.src, p.sh.dst
	same := src == dst
	ds, err := p.read(src)
	if err != nil {
		return err
	}
	dt := ds
	if !same {
		if dt, err = p.read(dst); err != nil {
			return err
		}
	}
	ps, pe, err := p.selection(ds)
	if err != nil {
		return err
	}
	p.payload = ds[ps:pe]
	if err := p.checkHash("source", src); err != nil {
		return err
	}
	if !same {
		if m := Find(dt, concat(p.tb(), p.payload, p.ta())); m.Unique() {
			ts := m.Ranges[0].Start + len(p.tb())
			return partialDuplicate(src, dst, Range{ps, pe}, Range{ts, ts + len(p.payload)}, sha256Hex(p.payload))
		}
	}
	anchor, ip, err := p.placement(dt)
	if err != nil {
		return err
	}
	if same && anchor.Start < pe && ps < anchor.End {
		return targetOverlaps(dst, Range{ps, pe}, anchor)
	}

	p.wantSource, p.wantInsert = &Range{ps, pe}, &ip
	p.want = p.tree.copy()
	// In one file the hunks keep clear of each other (see the context
	// rules): the target context stops at the payload, the source context
	// at the insertion point.
	srcLo, srcHi, tgtLo, tgtHi := 0, len(ds), 0, len(dt)
	var srcAfter, dtAfter []byte
	if same {
		if ip <= ps {
			dtAfter = concat(ds[:ip], p.payload, ds[ip:ps], ds[pe:])
			srcLo, tgtHi = ip, ps
		} else {
			dtAfter = concat(ds[:ps], ds[pe:ip], p.payload, ds[ip:])
			srcHi, tgtLo = ip, pe
		}
		srcAfter = dtAfter
		p.want[src] = dtAfter
	} else {
		srcAfter = concat(ds[:ps], ds[pe:])
		dtAfter = concat(dt[:ip], p.payload, dt[ip:])
		p.want[src], p.want[dst] = srcAfter, dtAfter
	}
	p.source = p.sourceHunk(ds, ps, pe, srcLo, srcHi, srcAfter)
	p.target = p.targetHunk(dt, anchor, ip, tgtLo, tgtHi, dtAfter, !same)
	p.sourcePath, p.targetPath = src, dst
	return nil
}

func (p *planner) delete() error {
	src := p.sh.src
	ds, err := p.read(src)
	if err != nil {
		return err
	}
	ps, pe, err := p.selection(ds)
	if err != nil {
		return err
	}
	p.payload = ds[ps:pe]
	if err := p.checkHash("source", src); err != nil {
		return err
	}
	after := concat(ds[:ps], ds[pe:])
	p.want = p.tree.copy()
	p.want[src] = after
	p.wantSource = &Range{ps, pe}
	p.source = p.sourceHunk(ds, ps, pe, 0, len(ds), after)
	p.sourcePath = src
	return nil
}

func (p *planner) insert() error {
	dst := p.sh.dst
	p.payload = []byte(*p.req.Payload)
	if err := p.checkHash("parse", ""); err != nil {
		return err
	}
	dt, err := p.read(dst)
	if err != nil {
		return err
	}
	p.want = p.tree.copy()
	p.targetPath = dst
	tb, ta := p.tb(), p.ta()
	if m := Find(dt, concat(tb, p.payload, ta)); m.Unique() {
		// Already applied: render the hunk that would have inserted the
		// payload found here, from the file as it was before.
		ip := m.Ranges[0].Start + len(tb)
		pe := ip + len(p.payload)
		before := concat(dt[:ip], dt[pe:])
		anchor := Range{m.Ranges[0].Start, ip + len(ta)}
		x, y := targetContext(before, anchor, ip, 0, len(before))
		p.target = newHunk(RoleTarget, dt, x, dt[x:ip], p.payload, dt[pe:y+len(p.payload)])
		p.wantInsert, p.alreadyDone = &ip, true
		return nil
	}
	anchor, ip, err := p.placement(dt)
	if err != nil {
		return err
	}
	after := concat(dt[:ip], p.payload, dt[ip:])
	p.want[dst] = after
	p.wantInsert = &ip
	p.target = p.targetHunk(dt, anchor, ip, 0, len(dt), after, true)
	return nil
}

func (p *planner) create() error {
	dst := p.sh.dst
	p.payload = []byte(*p.req.Payload)
	if err := p.checkHash("parse", ""); err != nil {
		return err
	}
	data, err := p.read(dst)
	switch {
	case errors.Is(err, &Error{Code: FileNotFound}):
		p.want = p.tree.copy()
		p.want[dst] = p.payload
	case err != nil:
		return err
	case bytes.Equal(data, p.payload):
		p.want, p.alreadyDone = p.tree.copy(), true
	default:
		return &Error{Code: DestinationExists, Phase: "target", Path: dst,
			Message: dst + " already exists with different content"}
	}
	zero := 0
	p.wantInsert = &zero
	p.target = newHunk(RoleTarget, nil, 0, nil, p.payload, nil)
	p.targetPath = dst
	return nil
}

func (p *planner) remove() error {
	src := p.sh.src
	data, err := p.read(src)
	if err != nil {
		return err
	}
	p.payload = data
	if err := p.checkHash("source", src); err != nil {
		return err
	}
	p.want = p.tree.copy()
	delete(p.want, src)
	p.wantSource = &Range{0, len(data)}
	p.source = newHunk(RoleSource, data, 0, nil, data, nil)
	p.sourcePath = src
	return nil
}

// The context rules.
//
// A hunk shows whole lines around its change. The source hunk starts with
// the line holding the byte just before the payload (only its part before
// the payload when the payload starts mid-line) and ends with the line
// holding the byte just after it (from the payload's end when that is
// mid-line); at a file edge that side is empty. The target hunk shows the
// lines covering target_before and target_after: from the start of the
// line where the anchor starts to the end of the line where it ends. With
// only one anchor side given and the insertion point mid-line, the rest of
// that line on the other side is shown too, so the split line is whole.
//
// In a same-file move the target context stops at the payload (check
// refuses a target anchor that overlaps it), and the source context stops
// at the insertion point, so that both hunks still match after the move
// and the patch reverses.
//
// Minimal context makes a correct patch, because the payload selected by
// src_start...src_end and the anchor target_before+target_after are each
// unique. It is widened when the patch would otherwise not survive a retry
// or -R. The source hunk wants its search text gone after the move (so a
// retry is already_applied) and its two contexts together to occur exactly
// once then (so -R finds where to put the payload back). The target hunk
// wants its final text to occur exactly once after the move, and, for
// cross-file moves and insertions, not exactly once before it (check would
// take that for partial_applied_duplicate or already_applied). Widening
// adds 1, 2, 4, 8, ... extra lines on both sides, up to the file's edges
// or the stops above, and takes the first context that meets every wish.
// When none does, the first context that meets the most important wishes
// is kept; for the source hunk, in this order: retry and -R work; retry
// works and -R fails cleanly, its anchor missing or ambiguous (here a
// same-file source context may run past the insertion point, which breaks
// its anchor after the move); retry works but -R would put the payload
// elsewhere; nothing works.

// sourceHunk builds the source hunk for payload data[ps:pe], keeping its
// context within [lo, hi) if it can; after is the source file after the
// move.
func (p *planner) sourceHunk(data []byte, ps, pe, lo, hi int, after []byte) *Hunk {
	x, y := 0, len(data)
	if ps > 0 {
		x = lineStart(data, ps-1)
	}
	if pe < len(data) {
		y = lineEnd(data, pe)
	}
	rank := func(x, y int) int {
		if Find(after, concat(data[x:ps], p.payload, data[pe:y])).Count != 0 {
			return 3 // a retry would find the source again
		}
		anchor := concat(data[x:ps], data[pe:y])
		unique := len(anchor) == 0 || Find(after, anchor).Unique()
		switch crossing := x < lo || y > hi; {
		case unique && !crossing:
			return 0
		case unique:
			return 2 // -R would put the payload back in the wrong place
		}
		return 1 // -R fails: its anchor is missing or ambiguous
	}
	x, y = choose(data, x, y, [][2]int{{lo, hi}, {0, len(data)}}, rank)
	return newHunk(RoleSource, data, x, data[x:ps], p.payload, data[pe:y])
}

// targetHunk builds the target hunk for an insertion at ip whose anchor is
// anchor, keeping its context within [lo, hi); after is the destination
// after the move. probe says check first looks for the final text (cross-
// file relocation, insertion), which must then not occur exactly once now.
func (p *planner) targetHunk(data []byte, anchor Range, ip, lo, hi int, after []byte, probe bool) *Hunk {
	x, y := targetContext(data, anchor, ip, lo, hi)
	rank := func(x, y int) int {
		final := concat(data[x:ip], p.payload, data[ip:y])
		switch {
		case probe && Find(data, final).Unique():
			return 2 // check would not even move
		case !Find(after, final).Unique():
			return 1 // a retry or -R would not find the payload
		}
		return 0
	}
	x, y = choose(data, x, y, [][2]int{{lo, hi}}, rank)
	return newHunk(RoleTarget, data, x, data[x:ip], p.payload, data[ip:y])
}

// targetContext is the minimal target context [x, y) around an insertion
// at ip with the given anchor, within [lo, hi).
func targetContext(data []byte, anchor Range, ip, lo, hi int) (int, int) {
	x := lineStart(data, anchor.Start)
	y := anchor.End
	if y < len(data) && (y == 0 || data[y-1] != '\n') {
		y = lineEnd(data, y)
	}
	return max(x, lo), min(y, hi)
}

// choose returns the context with the lowest rank among the candidates:
// for each of the bounds in turn, the minimal context [x, y) cut to the
// bounds, then widened by 1, 2, 4, ... lines on each side until it fills
// them. The first candidate of rank 0 ends the search; among equal ranks
// the earlier candidate wins.
func choose(data []byte, x, y int, bounds [][2]int, rank func(x, y int) int) (int, int) {
	bx, by, best := 0, 0, -1
	for _, b := range bounds {
		lo, hi := b[0], b[1]
		cx, cy := max(x, lo), min(y, hi)
		for k := 0; ; {
			if r := rank(cx, cy); best < 0 || r < best {
				bx, by, best = cx, cy, r
				if r == 0 {
					return bx, by
				}
			}
			if cx == lo && cy == hi {
				break
			}
			steps := max(k, 1) // from k to 2k extra lines (0 to 1 first)
			for range steps {
				if cx > lo {
					cx = max(lineStart(data, cx-1), lo)
				}
				if cy < hi {
					cy = min(lineEnd(data, cy), hi)
				}
			}
			k += steps
		}
	}
	return bx, by
}

// lineStart returns the start of the line holding data[i].
func lineStart(data []byte, i int) int {
	return bytes.LastIndexByte(data[:i], '\n') + 1
}

// lineEnd returns the end of the line holding data[i], just past its
// "\n", or len(data).
func lineEnd(data []byte, i int) int {
	if j := bytes.IndexByte(data[i:], '\n'); j >= 0 {
		return i + j + 1
	}
	return len(data)
}

// finish renders the move, self-checks the patch and returns its plan.
func (p *planner) finish() (*Plan, error) {
	for _, h := range []struct {
		hunk *Hunk
		path string
		role string
	}{{p.source, p.sourcePath, "source"}, {p.target, p.targetPath, "target"}} {
		if h.hunk == nil {
			continue
		}
		for _, part := range [][]byte{h.hunk.Before, h.hunk.Payload, h.hunk.After} {
			if !utf8.Valid(part) {
				return nil, &Error{Code: InvalidUTF8, Phase: h.role, Path: h.path,
					Message: "the patch would have to show bytes of " + h.path + " that are not valid UTF-8"}
			}
		}
	}
	m := &Move{ID: MoveID, PayloadSHA256: sha256Hex(p.payload), Shape: p.sh.kind,
		Src: p.sh.src, Dst: p.sh.dst, Source: p.source, Target: p.target}
	switch m.Shape {
	case ShapeInsert:
		m.Src = m.Dst
	case ShapeDelete:
		m.Dst = m.Src
	}
	text := Format(m.Patch())
	plan, err := p.selfCheck(text)
	if err != nil {
		return nil, &Error{Code: UnexpectedError, Phase: "verify", Err: err,
			Message: "internal error: the rendered patch failed its self-check: " + err.Error()}
	}
	patch := string(text)
	plan.Result.Patch = &patch
	return plan, nil
}

// selfCheck evaluates the rendered patch as check would, against the bytes
// the plan was made from, and compares the outcome with the one computed
// straight from the request.
func (p *planner) selfCheck(text []byte) (*Plan, error) {
	patch, err := Parse(text)
	if err != nil {
		return nil, err
	}
	m, err := patch.Resolve(1)
	if err != nil {
		return nil, err
	}
	plan, err := Evaluate(m, p.tree)
	if err != nil {
		return nil, err
	}
	status := StatusApplied
	switch {
	case p.alreadyDone:
		status = StatusAlreadyApplied
	case p.want.equal(p.tree):
		status = StatusNoop
	}
	mv := plan.Result.Moves[0]
	switch {
	case plan.Result.Status != status:
		return nil, errors.New("status " + string(plan.Result.Status) + ", want " + string(status))
	case !p.tree.Apply(plan).equal(p.want):
		return nil, errors.New("the patch gives other bytes than the move")
	case p.wantSource != nil && !p.alreadyDone && (mv.SourceRange == nil || *mv.SourceRange != *p.wantSource):
		return nil, errors.New("the patch cuts the payload elsewhere")
	case p.wantInsert != nil && (mv.InsertIndex == nil || *mv.InsertIndex != *p.wantInsert):
		return nil, errors.New("the patch inserts the payload elsewhere")
	}
	return plan, nil
}

func (m MapFiles) copy() MapFiles {
	out := make(MapFiles, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (m MapFiles) equal(o MapFiles) bool {
	if len(m) != len(o) {
		return false
	}
	for k, v := range m {
		w, ok := o[k]
		if !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}

func sha256Hex(data []byte) string {
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
