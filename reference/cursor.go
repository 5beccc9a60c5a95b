package reference

import (
	"bytes"
	"sync"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/runes"
)

// Reading a mapped file through a buffer (issue 23). On some machines,
// this project's VM among them, the first touch of a mapping whose pages
// the system maps one by one costs far more than copying the same bytes
// from its file cache into memory already touched: 20-35 ms for 64 MiB,
// against 4 ms for reading them into a reused buffer of a quarter MiB. A
// pass over such a file (mappedWhole tells) therefore reads it a stretch
// at a time into a buffer, and the mapping is touched only where a match
// is compared further, reported or written.

// bufferedMin is the length from which a mapped file is searched through
// a buffer: below it, touching the buffer's own fresh pages costs about
// what touching the mapping would.
const bufferedMin = 4 << 20

// cursor is a haystack searched a stretch at a time. Its bytes are data's;
// when data is (a slice of) a file the Workspace mapped, they are read
// from the file into buf instead of from the mapping, one stretch of
// starting positions at a time: those from origin on, bufferStretch of
// them apart, so that searches taking turns over the same stretch share
// one read (findStarts).
type cursor struct {
	data    []byte
	src     *mapping // data's mapping; nil when data is searched in place
	off     int      // where data starts in src's file
	origin  int
	longest int     // the longest needle the view holds whole
	buf     *[]byte // from bufferPool
	// view is data[base:base+len(view)], read into buf: the stretch's
	// starting positions and the bytes their needles reach.
	base int
	view []byte
}

// newCursor returns a cursor over data for needles of up to longest bytes
// whose stretches start at origin. A caller must close it.
func newCursor(data []byte, origin, longest int) cursor {
	c := cursor{data: data, origin: origin, longest: longest}
	if len(data) < bufferedMin || longest > bufferedMax {
		return c
	}
	if c.src, c.off = mappingOf(data); c.src != nil {
		c.buf = bufferPool.Get().(*[]byte)
	}
	return c
}

// close returns the cursor's buffer.
func (c *cursor) close() {
	if c.buf != nil {
		bufferPool.Put(c.buf)
		c.buf, c.view, c.src = nil, nil, nil
	}
}

// bufferStretch is how many starting positions one read of a mapped
// file covers: as bothChunk, the stretch findStarts's searches take turns
// over.
const bufferStretch = bothChunk

// bufferedMax is the longest needle searched through a buffer: a long
// line's first bytes, or a run's (see ReadPatch), joinedMin and a line.
const bufferedMax = 2 * joinedMin

// bufferPool holds buffers of a stretch and the longest needle searched
// through one.
var bufferPool = sync.Pool{New: func() any {
	b := make([]byte, bufferStretch+bufferedMax)
	return &b
}}

// index returns the first occurrence of f's needle in data that starts
// in [from, end), or -1; the occurrence may extend past end. An empty
// needle is found at from, up to the end of data.
func (c *cursor) index(f *finder, from, end int) int {
	at, _ := c.search(f, from, end)
	return at
}

// search is index, and also returns the work the finder did (see
// finder.search).
func (c *cursor) search(f *finder, from, end int) (at, work int) {
	n := len(f.needle)
	switch {
	case n == 0: // found where it is looked for, the end of data too
		return f.search(c.data, from)
	case c.src == nil || n > c.longest:
		return f.search(c.data[:min(len(c.data), end+n-1)], from)
	}
	for from < end {
		if g := c.origin + (from-c.origin)/bufferStretch*bufferStretch; c.view == nil || c.base != g {
			c.read(g)
		}
		stop := min(c.base+len(c.view), end+n-1)
		if stop-from < n {
			return -1, work // the view reaches the end of data
		}
		i, w := f.search(c.view[:stop-c.base], from-c.base)
		if work += w; i >= 0 {
			return c.base + i, work
		}
		if stop == end+n-1 || stop == len(c.data) {
			return -1, work
		}
		from = stop - n + 1 // the next stretch
	}
	return -1, work
}

// equalAt reports whether data holds b from at on, reading a mapped file
// through the buffer onward from at.
func (c *cursor) equalAt(at int, b []byte) bool {
	if at < 0 || at+len(b) > len(c.data) {
		return false
	}
	if c.src == nil {
		return bytes.Equal(c.data[at:at+len(b)], b)
	}
	for len(b) > 0 {
		if c.view == nil || at < c.base || at >= c.base+len(c.view) {
			c.read(at)
		}
		k := min(len(b), c.base+len(c.view)-at)
		if !bytes.Equal(c.view[at-c.base:at-c.base+k], b[:k]) {
			return false
		}
		at, b = at+k, b[k:]
	}
	return true
}

// read makes the view the stretch from base on. A file that holds fewer
// bytes now has shrunk: the rest is copied from the mapping, which faults
// as a search of the mapping itself would.
func (c *cursor) read(base int) {
	to := min(len(c.data), base+bufferStretch+c.longest-1)
	v := (*c.buf)[:to-base]
	k, _ := c.src.file.ReadAt(v, int64(c.off+base))
	if f := c.src.first; f != nil {
		f.took(c.src, c.off+base, v[:k])
	}
	if k < len(v) {
		copy(v[k:], c.data[base+k:to])
	}
	c.base, c.view = base, v
}

// each calls fn with data[from:to], a buffer at a time (in place, at
// once). Each buffer but the last ends before a rune it would cut, so
// that its pieces are whole text (see WritePatch).
func (c *cursor) each(from, to int, fn func([]byte)) {
	if c.src == nil {
		fn(c.data[from:to])
		return
	}
	for at := from; at < to; at += len(c.view) {
		c.read(at)
		c.view = c.view[:min(len(c.view), to-at)]
		if at+len(c.view) < to {
			c.view = c.view[:runes.Cut(c.view)]
		}
		fn(c.view)
	}
}

// span returns data[from:to], read into the buffer when it is a mapped
// file's; to-from is at most bufferStretch.
func (c *cursor) span(from, to int) []byte {
	if c.src == nil {
		return c.data[from:to]
	}
	c.read(from)
	return c.view[:to-from]
}

// nearLine is how far from where it starts a search for a line's edge
// looks in place before it reads a mapped file through buffers: most
// lines end well within it, and one read costs a quarter MiB.
const nearLine = 64 << 10

// indexByte is the offset of the first b in data at or after from, or -1.
// Past nearLine bytes it looks a stretch at a time on both cores
// (firstPiece), reading a mapped file through buffers: the edge of a line
// 64 MiB long (issue 23).
func indexByte(data []byte, from int, b byte) int {
	near := min(len(data), from+nearLine)
	if i := bytes.IndexByte(data[from:near], b); i >= 0 {
		return from + i
	}
	pieces := (len(data) - near + bufferStretch - 1) / bufferStretch
	at := func(i int) (lo, hi int) {
		lo = near + i*bufferStretch
		return lo, min(len(data), lo+bufferStretch)
	}
	return edgePiece(data, pieces, at, func(s []byte) int { return bytes.IndexByte(s, b) })
}

// lastIndexByte is the offset of the last b in data before to, or -1,
// looked for backwards as indexByte looks forwards: first in place through
// stretches that double from 64 bytes, then a stretch at a time on both
// cores. Each stretch is scanned by the vectorised IndexByte, and only the
// one that holds b by bytes.LastIndexByte, which goes a byte at a time (a
// seventh of plan's time on a file of one 64 MiB line when it went all the
// way).
func lastIndexByte(data []byte, to int, b byte) int {
	for w := 64; to > 0 && w <= nearLine; w *= 2 {
		lo := max(0, to-w)
		if bytes.IndexByte(data[lo:to], b) >= 0 {
			return lo + bytes.LastIndexByte(data[lo:to], b)
		}
		to = lo
	}
	pieces := (to + bufferStretch - 1) / bufferStretch
	at := func(i int) (lo, hi int) {
		hi = to - i*bufferStretch
		return max(0, hi-bufferStretch), hi
	}
	return edgePiece(data, pieces, at, func(s []byte) int {
		if bytes.IndexByte(s, b) < 0 {
			return -1
		}
		return bytes.LastIndexByte(s, b)
	})
}

// edgePiece returns where find first finds its byte in the pieces of
// data (the i-th spans at(i), at most bufferStretch bytes), taken in
// order, or -1 when it finds it in none.
func edgePiece(data []byte, pieces int, at func(i int) (lo, hi int), find func([]byte) int) int {
	look := func(c *cursor, i int) int {
		lo, hi := at(i)
		if j := find(c.span(lo, hi)); j >= 0 {
			return lo + j
		}
		return -1
	}
	i := firstPiece(pieces, func() (func(int) bool, func()) {
		c := newCursor(data, 0, 1)
		return func(i int) bool { return look(&c, i) >= 0 }, c.close
	})
	if i == pieces {
		return -1
	}
	c := newCursor(data, 0, 1)
	defer c.close()
	return look(&c, i)
}

// countNewlines is bytes.Count(data[from:to], newline), counted as
// scanText says.
func countNewlines(data []byte, from, to int) int {
	if to-from < bufferedMin {
		return bytes.Count(data[from:to], newline)
	}
	return scanText(data[from:to], false).lines
}

// isUTF8 is utf8.Valid(data), checked as scanText says.
func isUTF8(data []byte) bool {
	if len(data) < bufferedMin {
		return utf8.Valid(data)
	}
	return scanText(data, true).valid
}

// text is what scanText learns of a stretch of text.
type text struct {
	lines   int  // its newlines
	checked bool // whether it was checked for UTF-8
	valid   bool // whether it is UTF-8, when checked
}

// scanText counts the newlines of data, bufferedMin bytes or more, and
// when check is set checks that it is UTF-8, by halves at once, through
// buffers when data is a mapped file's (issue 23). The mapping keeps what
// it learnt: a patch planned from a large file shows large stretches of
// it, each counted for its hunk's header and checked for UTF-8 when
// rendered, and counted again when written out or outlined for the
// self-check.
func scanText(data []byte, check bool) text {
	m, off := mappingOf(data)
	if t, ok := m.scanned(off, len(data)); ok && (t.checked || !check) {
		return t
	}
	// Halves split before a rune's first byte (or in a run of more
	// continuation bytes than a rune has, invalid either way) are each
	// UTF-8 exactly when the whole is.
	mid := len(data) / 2
	for k := 0; check && k < utf8.UTFMax-1 && !utf8.RuneStart(data[mid]); k++ {
		mid--
	}
	var first, second text
	parallel(func() { first = scanThrough(data, 0, mid, check) }, func() { second = scanThrough(data, mid, len(data), check) })
	t := text{first.lines + second.lines, check, first.valid && second.valid}
	m.remember(off, len(data), t)
	return t
}

// scanThrough is scanText of data[from:to] through one cursor.
func scanThrough(data []byte, from, to int, check bool) text {
	c := newCursor(data, from, 1)
	defer c.close()
	t := text{checked: check, valid: true}
	c.each(from, to, func(b []byte) {
		t.lines += bytes.Count(b, newline)
		t.valid = t.valid && (!check || utf8.Valid(b))
	})
	return t
}
