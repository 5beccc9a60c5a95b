package reference

// The context rules, as upstream renders them.
//
// The source hunk shows one line on each side of the payload: before it,
// the line ending just before the payload, or only the part of the
// payload's first line before it when the payload starts mid-line; after
// it, the line starting just after the payload, or only the rest of the
// payload's last line. At a file edge that side is empty, and so is the
// side before an offset of 1 in a file that has a newline anywhere (an
// upstream quirk, kept so patches match byte for byte).
//
// The target hunk shows exactly the matched target_before and
// target_after; a side with no anchor text shows one line there in the
// same way as the source hunk (the line before the insertion point, or the
// start of the line it splits; the line after it, or the rest of the line
// it splits).
//
// In a same-file move that line may hold payload bytes: the context is not
// cut, and the self-check refuses the plan with target_overlaps_source as
// check would refuse the patch (PLAN-046), where move, rendering nothing,
// carries the move out.

// render builds both hunks and the patch, whose payload hash is left for
// the caller to set (see document).
func (p *planner) render() (*Patch, error) {
	src, dst := p.sh.src, p.sh.dst
	same := samePath(src, dst) // one section (Move.Patch)
	ds, dt := p.tree[src], p.tree[dst]
	// Whole-file hunks start at line 1 on the file's side, or 0 when the
	// payload is empty; the /dev/null side is 0,0.
	whole := min(len(p.payload), 1)
	switch p.sh.kind {
	case ShapeCreate:
		p.targetHunk = newHunk(RoleTarget, 0, whole, nil, p.payload, nil)
	case ShapeRemove:
		p.sourceHunk = newHunk(RoleSource, whole, 0, nil, p.payload, nil)
	case ShapeDelete:
		p.sourceHunk = p.renderSource(ds)
	case ShapeInsert:
		if p.status == StatusAlreadyApplied {
			// Render the hunk that would have made this file, against the
			// file without the payload.
			ip := *p.insertAt
			dt = concat(dt[:ip], dt[ip+len(p.payload):])
			anchor := Range{p.target.Start, p.target.End - len(p.payload)}
			p.targetHunk = p.renderTarget(dt, anchor, ip)
		} else {
			p.targetHunk = p.renderTarget(dt, *p.target, *p.insertAt)
		}
	default:
		p.sourceHunk = p.renderSource(ds)
		p.targetHunk = p.renderTarget(dt, *p.target, *p.insertAt)
		// In one file, a hunk whose first byte comes after the other's
		// change is numbered after it.
		if same {
			lines := bodyLines(p.payload)
			if *p.insertAt <= p.sourceStart {
				p.sourceHunk.NewStart += lines
			}
			if p.source.End <= p.targetStart {
				p.targetHunk.NewStart -= lines
			}
		}
	}
	for _, h := range []*Hunk{p.sourceHunk, p.targetHunk} {
		if h == nil {
			continue
		}
		for _, part := range [][]byte{h.Before, h.Payload, h.After} {
			if !isUTF8(part) {
				return nil, errNotUTF8()
			}
		}
	}
	m := &Move{ID: MoveID, Shape: p.sh.kind,
		Src: src, Dst: dst, Source: p.sourceHunk, Target: p.targetHunk}
	switch m.Shape {
	case ShapeInsert:
		m.Src = m.Dst
	case ShapeDelete:
		m.Dst = m.Src
	}
	return m.Patch(), nil
}

// Hunk numbers follow upstream: the old start is the line of the hunk's
// first byte in the file before the move, and the new start is the same
// plus or minus the payload's body lines when, in a same-file move, the
// other hunk's change comes before that byte. A side with no lines keeps
// its start.

// renderSource builds the source hunk for the payload at p.source in data.
func (p *planner) renderSource(data []byte) *Hunk {
	ps, pe := p.source.Start, p.source.End
	x, y := lineBefore(data, ps), pe
	if pe < len(data) {
		y = lineEnd(data, pe)
	}
	old := p.lines.lineOf(data, x)
	p.sourceStart = x
	return newHunk(RoleSource, old, old, data[x:ps], p.payload, data[pe:y])
}

// renderTarget builds the target hunk for an insertion at ip in data whose
// matched anchor is anchor.
func (p *planner) renderTarget(data []byte, anchor Range, ip int) *Hunk {
	x, y := anchor.Start, anchor.End
	if x == ip {
		x = lineBefore(data, ip)
	}
	if y == ip && ip < len(data) {
		y = lineEnd(data, ip)
	}
	old := p.lines.lineOf(data, x)
	p.targetStart = x
	return newHunk(RoleTarget, old, old, data[x:ip], p.payload, data[ip:y])
}

func errNotUTF8() error {
	return &Error{Code: InvalidUTF8, Phase: "render", Anchor: "move --diff",
		Message: "the patch would have to show bytes that are not valid UTF-8"}
}

// lineBefore is where the context before offset i starts: the start of
// the line ending at i, or of the line i splits. Like upstream, it shows
// nothing for i == 1 in a file that holds a newline.
func lineBefore(data []byte, i int) int {
	if i == 1 && indexByte(data, 0, '\n') >= 0 {
		return i
	}
	if i == 0 {
		return 0
	}
	return lineStart(data, i-1)
}

// lineCounter numbers lines, going on from the last offset it counted
// to in the same data, so the second hunk of a move does not count the
// newlines before the first again.
type lineCounter struct {
	data     []byte
	at, line int // data[at] is on line line
}

// lineOf is the 1-based number of the line holding data[i].
func (c *lineCounter) lineOf(data []byte, i int) int {
	if i < c.at || len(data) != len(c.data) || len(data) > 0 && &data[0] != &c.data[0] {
		c.data, c.at, c.line = data, 0, 1
	}
	c.line += countNewlines(data, c.at, i)
	c.at = i
	return c.line
}

// lineStart returns the start of the line holding data[i].
func lineStart(data []byte, i int) int {
	return lastIndexByte(data, i, '\n') + 1
}

// lineEnd returns the end of the line holding data[i], just past its
// "\n", or len(data).
func lineEnd(data []byte, i int) int {
	if j := indexByte(data, i, '\n'); j >= 0 {
		return j + 1
	}
	return len(data)
}
