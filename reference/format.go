package reference

import (
	"bytes"
	"io"
	"strconv"
)

// Format renders a patch as a .blockpatch document, the inverse of Parse.
// The layout is the canonical one of the published examples: per section
// the diff --blockpatch line, the version line, the metadata line (id,
// then role when set, then payload-sha256, then the x- extensions), the
// --- and +++ headers; then one blank line and the hunks, back to back
// (GNU patch reads a blank line as the end of a patch), counts always
// explicit. Sections are separated by one blank line. A body line whose
// bytes lack a closing "\n" is followed by the no-newline marker.
//
// Hunk counts are written from the bytes rendered, so the document always
// parses: a Patch from Parse or from Move.Patch formats into a document
// that parses back to an equal Patch (up to the counts of a patch that put
// a no-newline marker inside a run of lines, which joins two lines), and a
// canonical document survives Parse then Format byte for byte.
func Format(p *Patch) []byte {
	// Room for the whole document at once, so a patch as large as its
	// file is not copied as the buffer grows: each part's bytes, a prefix
	// per line and a marker per part, and the headers.
	size := 1 << 10
	for _, s := range p.Sections {
		size += 4*len(s.OldPath) + 4*len(s.NewPath)
		for _, h := range s.Hunks {
			size += 256 + len(h.Label)
			for _, part := range [][]byte{h.Before, h.Payload, h.After} {
				size += len(part) + countNewlines(part, 0, len(part)) + 2 + len(NoNewlineMarker)
			}
		}
	}
	// Not Grow: it clears the memory it adds, and a fresh allocation
	// needs no clearing (a clear of this size, page by page, cannot be
	// interrupted and stalls a garbage collection meanwhile).
	b := bytes.NewBuffer(bulk(size))
	formatTo(bufferWriter{b}, p)
	return b.Bytes()
}

// WritePatch writes Format(p) to w a piece at a time (a header, a line's
// prefix, a line), holding no document: a planned patch's lines are
// slices of the files it was planned from, so writing out a patch as
// large as its file costs no second copy of it (plan on a file of one long
// line, issue 23). Pieces shorter than 64 KiB are gathered and written
// together, so each of w's writes ends where a piece does and no rune is
// split between two writes: a piece ends with or before an ASCII byte (a
// prefix, a newline), or between runes where a line read from a mapped
// file through buffers is cut (cursor.each). It returns w's first error,
// after which nothing more is written.
func WritePatch(w io.Writer, p *Patch) error {
	sw := &stickyWriter{w: w, gathered: make([]byte, 0, gatherSize)}
	formatTo(sw, p)
	sw.flush()
	return sw.err
}

// gatherSize is the room in which WritePatch gathers short pieces: a
// patch of many short lines cost its writer two calls a line, a fifth of
// plan's time on a block of 300,000 lines (issue 23).
const gatherSize = 64 << 10

// byteWriter takes a rendered document's pieces.
type byteWriter interface {
	io.Writer
	io.ByteWriter
	io.StringWriter
}

// documentWriter is what a document is rendered to: a bufferWriter, a
// stickyWriter around a stream, or a runWriter. Each writes a part's body
// lines its own way; all but runWriter by formatLines.
type documentWriter interface {
	byteWriter
	writeLines(prefix byte, data []byte)
}

// bufferWriter renders a document into memory (Format).
type bufferWriter struct{ *bytes.Buffer }

func (b bufferWriter) writeLines(prefix byte, data []byte) { formatLines(b, prefix, data) }

func (s *stickyWriter) writeLines(prefix byte, data []byte) { formatLines(s, prefix, data) }

// stickyWriter passes writes to w until one fails, then keeps that error
// and drops every later write. Writes shorter than the room of gathered
// are gathered there and passed on together by flush.
type stickyWriter struct {
	w        io.Writer
	err      error
	gathered []byte
}

func (s *stickyWriter) Write(b []byte) (int, error) { return gather(s, b) }

func (s *stickyWriter) WriteString(str string) (int, error) { return gather(s, str) }

func (s *stickyWriter) WriteByte(c byte) error {
	if len(s.gathered) == cap(s.gathered) {
		s.flush()
	}
	s.gathered = append(s.gathered, c)
	return nil
}

// gather adds a piece to s.gathered, passing on first what was gathered
// when the piece does not fit; a piece as long as the room is passed on
// at once, not copied.
func gather[T string | []byte](s *stickyWriter, piece T) (int, error) {
	if len(s.gathered)+len(piece) > cap(s.gathered) {
		s.flush()
	}
	if len(piece) < cap(s.gathered) {
		s.gathered = append(s.gathered, piece...)
	} else {
		s.pass([]byte(piece))
	}
	return len(piece), nil
}

// flush passes on what was gathered.
func (s *stickyWriter) flush() {
	if len(s.gathered) > 0 {
		s.pass(s.gathered)
		s.gathered = s.gathered[:0]
	}
}

func (s *stickyWriter) pass(b []byte) {
	if s.err == nil {
		_, s.err = s.w.Write(b)
	}
}

// formatTo renders p as Format describes.
func formatTo(b documentWriter, p *Patch) {
	for i, s := range p.Sections {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString("diff --blockpatch " + s.OldPath + " " + s.NewPath + "\n")
		b.WriteString("blockpatch version 1\n")
		b.WriteString("blockpatch move id=" + p.ID)
		if s.Role != "" {
			b.WriteString(" role=" + string(s.Role))
		}
		b.WriteString(" payload-sha256=" + p.PayloadSHA256)
		for _, x := range s.Extensions {
			b.WriteString(" " + x)
		}
		b.WriteString("\n--- " + s.OldPath + "\n+++ " + s.NewPath + "\n")
		b.WriteByte('\n')
		for _, h := range s.Hunks {
			formatHunk(b, p.ID, h)
		}
	}
}

func formatHunk(b documentWriter, id string, h *Hunk) {
	// The counts come from the bytes, not from h: Parse accepts a marker
	// inside a part or a context line with no bytes, and the rendered
	// document must still parse.
	context := bodyLines(h.Before) + bodyLines(h.After)
	// A parsed payload line may hold no bytes ("-" and a no-newline
	// marker); it is written back as such, so the hunk keeps its payload.
	emptyLine := len(h.Payload) == 0 && h.payloadLines() > 0
	payload := bodyLines(h.Payload)
	if emptyLine {
		payload = 1
	}
	old, new := context, context
	if h.Role == RoleSource {
		old += payload
	} else {
		new += payload
	}
	b.WriteString("@@ -" + strconv.Itoa(h.OldStart) + "," + strconv.Itoa(old) +
		" +" + strconv.Itoa(h.NewStart) + "," + strconv.Itoa(new) +
		" @@ blockpatch-" + string(h.Role) + " id=" + id)
	if h.Label != "" {
		b.WriteString(" " + h.Label)
	}
	b.WriteByte('\n')
	prefix := byte('-')
	if h.Role == RoleTarget {
		prefix = '+'
	}
	b.writeLines(' ', h.Before)
	b.writeLines(prefix, h.Payload)
	if emptyLine {
		b.WriteString(string(prefix) + "\n" + NoNewlineMarker + "\n")
	}
	b.writeLines(' ', h.After)
	if len(h.Before)+len(h.Payload)+len(h.After) == 0 && !emptyLine {
		b.WriteByte('\n') // upstream writes an empty body as one blank line
	}
}

// formatLines writes data as body lines with the given prefix, marking a
// last line that has no "\n". A mapped file's bytes are read through
// buffers (see cursor), each written as it is read.
func formatLines(b byteWriter, prefix byte, data []byte) {
	c := newCursor(data, 0, 1)
	defer c.close()
	open := false // a line is started and not ended
	c.each(0, len(data), func(piece []byte) {
		for len(piece) > 0 {
			if !open {
				b.WriteByte(prefix)
			}
			i := bytes.IndexByte(piece, '\n')
			if open = i < 0; open {
				b.Write(piece)
				return
			}
			b.Write(piece[:i+1])
			piece = piece[i+1:]
		}
	})
	if open {
		b.WriteString("\n" + NoNewlineMarker + "\n")
	}
}

// runWriter renders a document whose runs of two or more whole body lines
// with one prefix are each left out as a hole (see hole): the prefix and a
// newline, standing for the run's lines. The parser, given the holes,
// takes each as its lines, as it does a patch ReadPatch streamed.
type runWriter struct {
	bytes.Buffer
	holes []hole
}

// writeLines writes the whole lines of data, a part's, as a hole when
// there are two or more, and the rest, a last line with no newline, by
// formatLines.
func (r *runWriter) writeLines(prefix byte, data []byte) {
	cut := bytes.LastIndexByte(data, '\n') + 1
	if lines := bytes.Count(data[:cut], newline); lines >= 2 {
		r.holes = append(r.holes, hole{at: r.Len(), line: data[:cut:cut], run: lines})
		r.WriteByte(prefix)
		r.WriteByte('\n')
		data = data[cut:]
	}
	formatLines(r, prefix, data)
}

// Patch returns the document that describes m, with the a/ and b/
// prefixes that the default -p1 strips: one section for a same-file move,
// in-file insertion or deletion (source hunk first), a role=source and a
// role=target section for a cross-file move, and /dev/null headers for
// whole-file creation and removal. A relocation takes one section when the
// patch parser reads its paths as one file (samePath): "f" and "f/" name
// one file but take two sections, as the releases render them. The hunks
// are shared with m.
func (m *Move) Patch() *Patch {
	p := &Patch{ID: m.ID, PayloadSHA256: m.PayloadSHA256}
	section := func(old, new string, role Role, hunks ...*Hunk) {
		p.Sections = append(p.Sections, &Section{OldPath: old, NewPath: new, Role: role, Hunks: hunks})
	}
	switch {
	case m.Shape == ShapeCreate:
		section(DevNull, "b/"+m.Dst, "", m.Target)
	case m.Shape == ShapeRemove:
		section("a/"+m.Src, DevNull, "", m.Source)
	case m.Shape == ShapeInsert:
		section("a/"+m.Src, "b/"+m.Dst, "", m.Target)
	case m.Shape == ShapeDelete:
		section("a/"+m.Src, "b/"+m.Dst, "", m.Source)
	case samePath(m.Src, m.Dst):
		section("a/"+m.Src, "b/"+m.Dst, "", m.Source, m.Target)
	default:
		section("a/"+m.Src, "b/"+m.Src, RoleSource, m.Source)
		section("a/"+m.Dst, "b/"+m.Dst, RoleTarget, m.Target)
	}
	return p
}

// newHunk builds a hunk with the given starts; the counts are the body
// lines of each side.
func newHunk(role Role, oldStart, newStart int, before, payload, after []byte) *Hunk {
	h := &Hunk{Role: role, Before: before, Payload: payload, After: after, OldStart: oldStart, NewStart: newStart}
	context := bodyLines(before) + bodyLines(after)
	h.OldCount, h.NewCount = context, context
	if role == RoleSource {
		h.OldCount += bodyLines(payload)
	} else {
		h.NewCount += bodyLines(payload)
	}
	return h
}

// payloadLines is the number of payload lines the hunk's header declares.
func (h *Hunk) payloadLines() int {
	if h.Role == RoleTarget {
		return h.NewCount - h.OldCount
	}
	return h.OldCount - h.NewCount
}

// bodyLines is the number of hunk body lines that hold data.
func bodyLines(data []byte) int {
	n := countNewlines(data, 0, len(data))
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}
