package reference

import (
	"bytes"
	"io"
	"math"
	"os"
	"sync/atomic"
)

// A patch moving a block of a file with few newlines carries the file in a
// few body lines as long as the file: the one-line benchmark shape's patch
// is 1.33 times its file (issue 23). ReadPatch keeps such a line out of
// memory when the file the patch names holds its bytes: as the patch
// streams past, the line is compared with the file byte for byte, and
// Parse is handed the file's slice in its place. Nothing a line's bytes
// could decide is left to the file's: the bytes are equal.
//
// A patch moving a large block of short lines carries it twice, in the
// source hunk's lines and the target hunk's: the block shape's patch is
// half its file, and held beside the file it was most of check's memory
// and a third of its time (issue 23). So a run of body lines that share
// their prefix, long bytes or more, is kept out of memory in the same way
// as far as a file holds its lines one after another, prefixes left out:
// Parse takes the file's slice as the run's lines, and a payload that is
// one run costs no copy.

const (
	// longLine is the length from which a body line is looked for in
	// its file: below it, keeping the line costs less than finding it.
	longLine = 64 << 10
	// streamWindow is the buffer a patch streams through; it holds a
	// long line's first longLine bytes and the line after it.
	streamWindow = 1 << 20
	// streamMin is the size from which a patch file is streamed; a
	// smaller one is read whole, as ReadLimited reads.
	streamMin = 4 << 20
)

// hole is a long body line that ReadPatch left out of the text it kept:
// there the line is its prefix byte alone, and its newline if it had one,
// at offset at. line is what Parse takes for the line's bytes: the bytes
// after the prefix with the newline, without it when a no-newline marker
// follows or the patch ends the line, as a slice of the file holding them.
//
// A hole whose run is not 0 is a run of that many whole lines with one
// prefix, kept as the prefix and a newline; line is their bytes after the
// prefixes, newlines and all, as a slice of the file holding them. Parse
// takes them as that many lines, in one piece.
type hole struct {
	at   int
	line []byte
	run  int
}

// peeker is a tree whose files ReadPatch may read to find long lines in,
// without their counting among the files an operation read.
type peeker interface {
	peek(path string) []byte
}

// ReadPatch reads a patch as ReadLimited does; Input.Parse then parses it.
// A regular file of streamMin bytes or more is streamed instead: each of
// its body lines of longLine bytes or more that lies whole in a file of
// files, and each run of body lines with one prefix, longLine bytes or
// more, as far as a file holds its lines in turn, is kept as a slice of
// the file: the one the last +++ header names (the --- header's when the
// +++ path is /dev/null), stripped of strip leading components, or for a
// run the last run's. The patch then costs its other lines in memory.
// files that cannot be peeked into (only a Workspace or MapFiles can) leave
// every line in memory, and so does a search past its budget (allowed).
func ReadPatch(r io.Reader, limit int64, what string, files Files, strip int) (*Input, error) {
	f, ok := r.(*os.File)
	tree, canPeek := files.(peeker)
	if !ok || !canPeek {
		return ReadLimited(r, limit, what)
	}
	info, err := f.Stat()
	if err != nil || !info.Mode().IsRegular() || info.Size() < streamMin || info.Size() > limit {
		return ReadLimited(r, limit, what)
	}
	// Read by offset from where f stands; fill stops at the limit.
	base, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return ReadLimited(r, limit, what)
	}
	return readPatch(io.NewSectionReader(f, base, math.MaxInt64-base), info.Size()+1, limit, what, tree, strip, longLine, streamWindow)
}

// readPatch streams r by offset, keeping lines of long bytes or more out of memory
// where tree holds them, through a window of the given size (at least
// twice long). size is the room first reserved for the text kept: the
// patch's size and one byte, to see its end.
func readPatch(r io.ReaderAt, size, limit int64, what string, tree peeker, strip, long, window int) (*Input, error) {
	s := &patchStream{at: r, limit: limit, what: what, tree: tree, strip: strip, long: long,
		win: make([]byte, window), budget: newInputBudget(), next: map[string]int{}}
	defer s.closeReaders()
	s.in = &Input{}
	size = min(size, limit+1)
	if err := s.budget.fits(size); err != nil {
		return nil, tooBig(what, limit, 0, err)
	}
	var err error
	if s.in.mem, err = reserveInput(int(size)); err != nil {
		return nil, tooBig(what, limit, 0, err)
	}
	if err := s.run(); err != nil {
		s.in.Release()
		return nil, err
	}
	s.in.mem.shrink(s.n)
	s.in.data = s.in.mem.bytes()[:s.n:s.n]
	return s.in, nil
}

// patchStream is ReadPatch at work. win[lo:hi] holds the bytes read and
// not yet handled, starting at a line's start between lines; the text
// kept is in's first n bytes. A line is long from long bytes on.
type patchStream struct {
	// at is the patch, read by offset: into the window, and past it where
	// a long line's bytes that its file holds are compared on both cores
	// (skipHeld).
	at     io.ReaderAt
	limit  int64
	what   string
	tree   peeker
	strip  int
	long   int
	budget inputBudget

	win    []byte
	lo, hi int
	eof    bool
	read   int64

	in *Input
	n  int

	// headed is how much of the kept text was looked at for headers;
	// path is the file the last header there names, "" for none.
	headed int
	old    string // the raw path of the last --- header
	path   string
	// next is where the search for the next line starts in each file
	// peeked into: just past the last line found there, as a patch's
	// lines follow their file.
	next map[string]int
	// work is the bytes the searches for lines passed and compared.
	work int64
	// probe holds a run's first bytes without their prefixes; last and
	// lastAt are the file and the place where the last run was found, the
	// first place tried for the next: a move's two hunks carry one block.
	probe  []byte
	last   []byte
	lastAt int
	// files reads the files peeked into, each through a cursor of its
	// own, so that comparing lines with a mapped file reads it instead of
	// touching its mapping (see cursor).
	files map[*byte]*cursor
}

// reader returns the cursor that reads src, a file peeked into.
func (s *patchStream) reader(src []byte) *cursor {
	if len(src) == 0 {
		return &cursor{data: src}
	}
	c, ok := s.files[&src[0]]
	if !ok || len(c.data) != len(src) {
		if s.files == nil {
			s.files = map[*byte]*cursor{}
		}
		nc := newCursor(src, 0, bufferedMax)
		c = &nc
		s.files[&src[0]] = c
	}
	return c
}

// closeReaders returns the buffers of the cursors reader made.
func (s *patchStream) closeReaders() {
	for _, c := range s.files {
		c.close()
	}
}

// run handles the patch a stretch of short lines, a run of body lines or
// a long line at a time.
func (s *patchStream) run() error {
	for {
		if s.hi-s.lo <= s.long && !s.eof {
			if err := s.fill(); err != nil {
				return err
			}
		}
		w := s.win[s.lo:s.hi]
		if len(w) == 0 {
			return nil
		}
		n, run := s.shortLines(w)
		if err := s.keep(w[:n]); err != nil {
			return err
		}
		s.lo += n
		var err error
		switch {
		case run:
			err = s.runOne()
		case n == 0:
			err = s.longOne()
		}
		if err != nil {
			return err
		}
	}
}

// isBody reports whether c is a body line's prefix.
func isBody(c byte) bool {
	return c == ' ' || c == '-' || c == '+'
}

// shortLines returns the length of w's leading whole lines that are not
// long, w starting at a line's start, and whether a run of body lines
// follows them: whole short lines with one body prefix, long bytes or
// more of them in w. It is all of w at the end of the patch, and 0
// without a run when w starts with a long line (a full window holds more
// than long bytes).
func (s *patchStream) shortLines(w []byte) (n int, run bool) {
	streak := -1 // the start of the lines with w[streak]'s body prefix
	for pos := 0; pos < len(w); {
		end := bytes.IndexByte(w[pos:min(pos+s.long, len(w))], '\n')
		switch {
		case end >= 0:
		case len(w)-pos >= s.long:
			return pos, false // a long line
		case s.eof:
			return len(w), false // the patch's last line, short
		case streak > 0:
			return streak, false // the next window tells whether the streak is a run
		default:
			return pos, false
		}
		if streak < 0 || w[pos] != w[streak] {
			streak = -1
			if isBody(w[pos]) {
				streak = pos
			}
		}
		pos += end + 1
		if streak >= 0 && pos-streak >= s.long {
			return streak, true
		}
	}
	return len(w), false
}

// fill moves the unhandled bytes to the window's start and reads until it
// is full or the patch ends. Bytes beyond the limit are refused as
// ReadLimited refuses them.
func (s *patchStream) fill() error {
	s.hi = copy(s.win, s.win[s.lo:s.hi])
	s.lo = 0
	for s.hi < len(s.win) && !s.eof {
		k, err := s.readAt(s.win[s.hi:], s.read)
		s.hi += k
		s.read += int64(k)
		if s.read > s.limit {
			return inputError(tooLarge(s.what, s.limit))
		}
		if err == io.EOF {
			s.eof = true
		} else if err != nil {
			return &Error{Code: IOError, Phase: "io", Message: "reading " + s.what + ": " + err.Error(), Err: err}
		}
	}
	return nil
}

// readAt reads b from the patch at off as io.ReaderAt does, the halves
// of a quarter window or more at once: on the block shape, reading its
// 35 MB patch on one core was a tenth of check's time (issue 23).
func (s *patchStream) readAt(b []byte, off int64) (int, error) {
	half := len(b) / 2
	if half < len(s.win)/8 {
		return s.at.ReadAt(b, off)
	}
	var k, k2 int
	var err, err2 error
	parallel(func() { k, err = s.at.ReadAt(b[:half], off) }, func() { k2, err2 = s.at.ReadAt(b[half:], off+int64(half)) })
	if k < half {
		return k, err
	}
	return half + k2, err2
}

// keep appends b to the kept text.
func (s *patchStream) keep(b []byte) error {
	for len(s.in.mem.bytes())-s.n < len(b) {
		if err := s.in.grow(s.budget, len(s.in.mem.bytes()), s.limit); err != nil {
			return tooBig(s.what, s.limit, int(s.read), err)
		}
	}
	s.n += copy(s.in.mem.bytes()[s.n:], b)
	return nil
}

// longOne handles the line at the window's start, whose first long
// bytes hold no newline: as a hole when its file holds it, else kept.
func (s *patchStream) longOne() error {
	w := s.win[s.lo:s.hi]
	prefix := w[0]
	var src []byte
	if prefix == ' ' || prefix == '-' || prefix == '+' {
		src = s.source()
	}
	if src == nil || !s.allowed(src) {
		return s.keepLine()
	}
	c := s.candidates(src, w[1:s.long])
	q := c.first()
	if q < 0 {
		return s.keepLine()
	}
	s.lo++ // the prefix byte, kept with the hole
	k := 0 // the line's bytes so far, equal to src[q:q+k]
	for {
		w = s.win[s.lo:s.hi]
		end := bytes.IndexByte(w, '\n')
		chunk := w
		if end >= 0 {
			chunk = w[:end]
		}
		if q = c.holding(q, k, chunk); q < 0 {
			return s.keepFrom(prefix, src[c.last:c.last+k])
		}
		c.last = q
		k += len(chunk)
		s.lo += len(chunk)
		if end >= 0 || s.eof {
			break
		}
		k += s.skipHeld(src, q+k)
		if err := s.fill(); err != nil {
			return err
		}
	}
	nl := s.lo < s.hi // the window starts at the line's newline
	if nl {
		if s.hi-s.lo <= len(NoNewlineMarker)+1 && !s.eof {
			// The line after decides whether the newline is the line's.
			if err := s.fill(); err != nil {
				return err
			}
		}
		if !markerAt(s.win[s.lo+1:s.hi], s.eof) {
			if q = c.holding(q, k, newline); q < 0 {
				return s.keepFrom(prefix, src[c.last:c.last+k])
			}
			k++
		}
		s.lo++
	}
	s.next[s.path] = q + k
	s.in.holes = append(s.in.holes, hole{at: s.n, line: src[q : q+k : q+k]})
	if nl {
		return s.keep([]byte{prefix, '\n'})
	}
	return s.keep([]byte{prefix})
}

// skipHeld passes over the patch's bytes from the window's end, the window
// being handled, as far as they hold no newline and equal src's from
// from on, in whole stretches of a quarter window (a quarter MiB): it
// returns how many it passed. The stretches are compared in turn on both
// cores, each read from the patch by offset and from src as a cursor
// reads it, so a line as long as its file costs one read of each, shared
// by the cores, where the window read them on one (issue 23: 40-49 ms of
// check's 50 on the one-line shape); the window then goes on after them.
// Where a stretch holds a newline, differs, or ends the patch or src, the
// window takes over before it. The stretches compared at or past that one
// cost the work budget, as a candidate that does not hold a line does.
func (s *patchStream) skipHeld(src []byte, from int) int {
	heldStretch := len(s.win) / 4
	if len(src)-from < 2*heldStretch {
		return 0
	}
	stretches := (len(src) - from) / heldStretch
	stop := firstPiece(stretches, func() (func(int) bool, func()) {
		buf := bufferPool.Get().(*[]byte)
		rd := newCursor(src, from, 1)
		return func(i int) bool {
			b := (*buf)[:heldStretch]
			k, _ := s.at.ReadAt(b, s.read+int64(i*heldStretch))
			return k < len(b) || bytes.IndexByte(b, '\n') >= 0 || !rd.equalAt(from+i*heldStretch, b)
		}, func() { rd.close(); bufferPool.Put(buf) }
	})
	if stop < stretches {
		s.work += 2 * int64(heldStretch) // the workers' last looks
	}
	n := stop * heldStretch
	s.read += int64(n)
	s.lo, s.hi = 0, 0
	return n
}

// runOne handles the run of body lines at the window's start (see
// shortLines): as a hole as far as a file holds its lines, the first long
// bytes of them at least, one after another; else the run is kept.
func (s *patchStream) runOne() error {
	w := s.win[s.lo:s.hi]
	prefix := w[0]
	if s.probe == nil {
		s.probe = make([]byte, 0, 2*s.long)
	}
	s.probe = s.probe[:0]
	for i := 0; i < s.long; {
		end := bytes.IndexByte(w[i:], '\n') // shortLines saw whole lines to past long
		s.probe = append(s.probe, w[i+1:i+end+1]...)
		i += end + 1
	}
	src, q, searched := s.place(s.probe)
	if q < 0 {
		return s.keepRun(prefix)
	}
	at := s.n
	k, lines, ended := 0, 0, false
	for {
		w = s.win[s.lo:s.hi]
		i, dk, dl, e := s.heldLines(src, w, prefix, q+k)
		k, lines, ended = k+dk, lines+dl, e
		s.lo += i
		if ended || i < len(w) && w[i] != prefix || s.eof || i == 0 && s.lo == 0 && s.hi == len(s.win) {
			break // a line the file does not hold next, another prefix, the end, a line longer than the window
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
	if searched {
		s.next[s.path] = q + k
	}
	s.last, s.lastAt = src, q
	s.in.holes = append(s.in.holes, hole{at: at, line: src[q : q+k : q+k], run: lines})
	if prefix != ' ' && k >= splitMin && s.in.early == nil {
		s.in.early = startHash(src[q : q+k : q+k])
	}
	if err := s.keep([]byte{prefix, '\n'}); err != nil {
		return err
	}
	if ended {
		// The line the file does not hold next is kept, and the run
		// goes on from the line after it, most likely where it ended.
		return s.keepLine()
	}
	return nil
}

// heldLines compares the whole lines at w's start that have the prefix
// with src from at on, the prefixes left out: it returns how many bytes of
// w they take, how many of src's, how many lines they are, and whether
// the line after them has the prefix but is not src's next (ended). A
// window of twice long bytes or more is compared by halves at once, cut
// after a newline (issue 23: a block's lines, a sixth of check's time on
// the block shape); the second half lies in src where the first ends, the
// first's bytes less one prefix a line, and counts when the first is held
// whole.
func (s *patchStream) heldLines(src, w []byte, prefix byte, at int) (n, k, lines int, ended bool) {
	rd := s.reader(src)
	cut := bytes.IndexByte(w[len(w)/2:], '\n')
	if len(w) < 2*s.long || cut < 0 {
		return linesHeld(rd, w, prefix, at)
	}
	cut += len(w)/2 + 1
	var n2, k2, lines2 int
	var ended2 bool
	parallel(func() { n, k, lines, ended = linesHeld(rd, w[:cut], prefix, at) }, func() {
		rd2 := newCursor(src, 0, bufferedMax)
		defer rd2.close()
		n2, k2, lines2, ended2 = linesHeld(&rd2, w[cut:], prefix, at+cut-bytes.Count(w[:cut], newline))
	})
	if n < cut {
		return n, k, lines, ended
	}
	return n + n2, k + k2, lines + lines2, ended2
}

// linesHeld is heldLines on one core.
func linesHeld(rd *cursor, w []byte, prefix byte, at int) (n, k, lines int, ended bool) {
	for n < len(w) && w[n] == prefix {
		end := bytes.IndexByte(w[n:], '\n')
		if end < 0 {
			break // cut by the window's end
		}
		line := w[n+1 : n+end+1]
		if !rd.equalAt(at+k, line) {
			return n, k, lines, true
		}
		k += len(line)
		lines++
		n += end + 1
	}
	return n, k, lines, false
}

// place returns a file holding probe and where, or -1: the place the last
// run was found first, then the first place in the file the last header
// names from where the last line found there ended on; searched says the
// place is in that file.
func (s *patchStream) place(probe []byte) (src []byte, at int, searched bool) {
	if s.reader(s.last).equalAt(s.lastAt, probe) {
		return s.last, s.lastAt, false
	}
	if src = s.source(); src == nil || !s.allowed(src) {
		return nil, -1, false
	}
	return src, s.candidates(src, probe).first(), true
}

// keepRun keeps the run of body lines with the given prefix at the
// window's start, to its end or a line longer than the window.
func (s *patchStream) keepRun(prefix byte) error {
	for {
		w := s.win[s.lo:s.hi]
		i := 0
		for i < len(w) && w[i] == prefix {
			end := bytes.IndexByte(w[i:], '\n')
			if end < 0 {
				break
			}
			i += end + 1
		}
		if err := s.keep(w[:i]); err != nil {
			return err
		}
		s.lo += i
		if i == 0 || i < len(w) && w[i] != prefix || s.eof {
			return nil
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// keepFrom keeps a long line that no place holds whole after all: its
// prefix, the bytes so far (held by the place that matched them) and the
// rest of it from the window.
func (s *patchStream) keepFrom(prefix byte, sofar []byte) error {
	if err := s.keep([]byte{prefix}); err != nil {
		return err
	}
	if err := s.keep(sofar); err != nil {
		return err
	}
	return s.keepLine()
}

// markerAt reports whether w, at a line's start, starts with a no-newline
// marker line: the marker, then a newline or the patch's end.
func markerAt(w []byte, eof bool) bool {
	rest, ok := bytes.CutPrefix(w, []byte(NoNewlineMarker))
	return ok && (len(rest) > 0 && rest[0] == '\n' || len(rest) == 0 && eof)
}

// keepLine keeps the rest of the line at the window's start.
func (s *patchStream) keepLine() error {
	for {
		w := s.win[s.lo:s.hi]
		if end := bytes.IndexByte(w, '\n'); end >= 0 {
			s.lo += end + 1
			return s.keep(w[:end+1])
		}
		if err := s.keep(w); err != nil {
			return err
		}
		s.lo = s.hi
		if s.eof {
			return nil
		}
		if err := s.fill(); err != nil {
			return err
		}
	}
}

// source returns the bytes of the file the last header kept names, nil
// when there is none or it cannot be read. Headers are looked for only in
// the text kept since the last look, each kind from where it was last
// found, so the looks cost the text once.
func (s *patchStream) source() []byte {
	text := s.in.mem.bytes()[:s.n]
	from := max(s.headed-1, 0) // a header starts after a newline
	old := headerAfter(text, from, "\n--- ")
	new := headerAfter(text, from, "\n+++ ")
	for old >= 0 || new >= 0 {
		if new < 0 || old >= 0 && old < new {
			s.old = headerPath(text, old)
			old = headerAfter(text, old, "\n--- ")
			continue
		}
		raw := headerPath(text, new)
		if raw == DevNull {
			raw = s.old
		}
		s.path = ""
		if path, err := stripHeaderPath(raw, s.strip); err == nil && path != DevNull {
			s.path = path
		}
		new = headerAfter(text, new, "\n+++ ")
	}
	s.headed = s.n
	if s.path == "" {
		return nil
	}
	return s.tree.peek(s.path) // a Workspace keeps what it peeked into
}

// headerAfter returns the start of the first line past from that starts
// with the header after the newline that begins header, or -1.
func headerAfter(text []byte, from int, header string) int {
	if i := bytes.Index(text[from:], []byte(header)); i >= 0 {
		return from + i + 1
	}
	return -1
}

// headerPath returns the path of the header line at i, as Parse reads it.
func headerPath(text []byte, i int) string {
	line := text[i+len("--- ") : lineEnd(text, i)]
	return string(bytes.TrimSuffix(bytes.TrimSuffix(line, newline), []byte{'\r'}))
}

// allowed reports whether the searches may go on in src: their work stays
// under twice the bytes read and twice the files searched, so a patch of
// lines that recur in their file without matching it whole costs time
// linear in the patch and the file, and is then kept instead.
func (s *patchStream) allowed(src []byte) bool {
	return s.work <= 2*s.read+2*int64(len(src))
}

// lineCandidates yields the places in src where a long line may lie: the
// occurrences of its first bytes, from where the last line found in src
// ended on, then from its start.
type lineCandidates struct {
	s      *patchStream
	src    []byte
	f      finder
	start  int
	wrap   bool
	last   int // the last candidate whose bytes matched the line's so far
	probed int // the length of the first bytes searched for
}

func (s *patchStream) candidates(src, probe []byte) *lineCandidates {
	return &lineCandidates{s: s, src: src, f: newFinder(src, probe), start: min(s.next[s.path], len(src)), probed: len(probe)}
}

// first returns the first candidate, or -1.
func (c *lineCandidates) first() int {
	c.last = c.find(c.start)
	return c.last
}

// holding returns the first candidate from q on that holds b after the
// line's first k bytes, or -1. Each that does not costs the budget b's
// length.
func (c *lineCandidates) holding(q, k int, b []byte) int {
	rd := c.s.reader(c.src)
	for q >= 0 && !rd.equalAt(q+k, b) {
		c.s.work += int64(len(b))
		q = c.after(q, k)
	}
	return q
}

// after returns the next candidate past q whose first k bytes equal
// src[q:q+k], the line's bytes so far, or -1 when there is none or the
// search outgrew its budget.
func (c *lineCandidates) after(q, k int) int {
	for {
		q = c.find(q + 1)
		if q < 0 {
			return -1
		}
		c.s.work += int64(k)
		if q+k <= len(c.src) && bytes.Equal(c.src[q:q+k], c.src[c.last:c.last+k]) {
			return q
		}
	}
}

// find returns the first occurrence of the probe at or past from, going
// round to the start of src once, or -1.
func (c *lineCandidates) find(from int) int {
	if !c.s.allowed(c.src) {
		return -1
	}
	if !c.wrap {
		at, work := c.search(from, len(c.src))
		c.s.work += int64(work)
		if at >= 0 {
			return at
		}
		c.wrap, from = true, 0
		if c.start == 0 {
			return -1
		}
	}
	// Past the wrap, the search ends where the first one began.
	end := min(c.start+c.probed-1, len(c.src))
	if from > end {
		return -1
	}
	at, work := c.search(from, end-len(c.f.needle)+1)
	c.s.work += int64(work)
	return at
}

// searchPiece is how many places a search for a long line's first bytes
// looks through on one core before it looks through the rest on both.
const searchPiece = 1 << 20

// search returns the first occurrence of the probe that starts in
// [from, to), or -1, and the work it took. The first searchPiece places
// are searched here, where the next line most often lies; the rest a
// piece at a time on both cores (firstPiece), as a line that no line
// before it in the patch leads to is searched for through the whole file
// (issue 23: the one-line shape's target hunk, found two thirds in).
func (c *lineCandidates) search(from, to int) (int, int) {
	first := min(to, from+searchPiece)
	at, work := c.s.reader(c.src).search(&c.f, from, first)
	if at >= 0 || first >= to {
		return at, work
	}
	from = first
	n := (to - from + searchPiece - 1) / searchPiece
	found := make([]int, n)
	var total atomic.Int64
	i := firstPiece(n, func() (func(int) bool, func()) {
		f := c.f // a finder's state is its own
		rd := newCursor(c.src, from, bufferedMax)
		return func(i int) bool {
			lo := from + i*searchPiece
			at, w := rd.search(&f, lo, min(to, lo+searchPiece))
			total.Add(int64(w))
			found[i] = at
			return at >= 0
		}, rd.close
	})
	work += int(total.Load())
	if i == n {
		return -1, work
	}
	return found[i], work
}

// Parse parses the patch the input holds, with the lines ReadPatch left
// out, as Parse would parse all its bytes. The text without them takes the
// same turns as the whole text until a turn goes wrong: Parse reads
// nothing of a body line past its prefix byte, and a line of one byte
// matches no header. So a patch the text parses is the whole text's, and a
// patch it does not is parsed again whole, for the error the whole text
// gives.
//
// The patch takes the input's memory: where no line was left out, a hunk
// part of many lines is joined where its lines lie, their prefixes
// squeezed out, so a patch costs no memory beyond its text (issue 23: a
// copy of a 16 MB payload, a fifth of the peak memory of check on a
// patch moving a quarter of its file), and Bytes no longer gives the text
// read. Each section's paths are stripped of strip components as it is
// read, as Check does (PATH-017). Parse parses once; later calls return
// the same patch or error, whatever their strip.
func (in *Input) Parse(strip int) (*Patch, error) {
	if !in.parsed {
		in.parsed = true
		in.patch, in.err = in.parse(strip)
	}
	return in.patch, in.err
}

func (in *Input) parse(strip int) (*Patch, error) {
	extra := 0
	for _, h := range in.holes {
		extra += max(h.run, 1) - 1
	}
	p, err := parse(&parser{data: in.data, holes: in.holes, extra: extra, inPlace: len(in.holes) == 0, strip: strip})
	if err == nil || len(in.holes) == 0 {
		return p, err
	}
	whole, err := in.whole()
	if err != nil {
		return nil, err
	}
	in.mem.free()
	in.mem, in.data, in.holes = whole, whole.bytes(), nil
	return parse(&parser{data: in.data, strip: strip})
}

// whole returns the patch's bytes with its holes filled in.
func (in *Input) whole() (inputMemory, error) {
	size := len(in.data)
	for _, h := range in.holes {
		size += len(bytes.TrimSuffix(h.line, newline)) + h.run
	}
	mem, err := allocInput(max(size, 1))
	if err != nil {
		return inputMemory{}, &Error{Code: IOError, Phase: "io", Err: err,
			Message: "the patch does not fit in the memory this process may take (RLIMIT_AS) to be parsed whole"}
	}
	out, from := mem.bytes()[:0], 0
	for _, h := range in.holes {
		if h.run == 0 {
			out = append(out, in.data[from:h.at+1]...)
			out = append(out, bytes.TrimSuffix(h.line, newline)...)
			from = h.at + 1
			continue
		}
		out = append(out, in.data[from:h.at]...)
		for line := range bytes.Lines(h.line) {
			out = append(append(out, in.data[h.at]), line...)
		}
		from = h.at + 2 // the prefix and newline kept
	}
	out = append(out, in.data[from:]...)
	mem.shrink(len(out))
	return mem, nil
}
