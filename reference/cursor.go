package reference

import (
	"bytes"
	"sync"
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
	if k < len(v) {
		copy(v[k:], c.data[base+k:to])
	}
	c.base, c.view = base, v
}

// each calls fn with data[from:to], a buffer at a time (in place, at
// once).
func (c *cursor) each(from, to int, fn func([]byte)) {
	if c.src == nil {
		fn(c.data[from:to])
		return
	}
	for at := from; at < to; at += len(c.view) {
		c.read(at)
		c.view = c.view[:min(len(c.view), to-at)]
		fn(c.view)
	}
}

// countNewlines is bytes.Count(data[from:to], newline). A stretch of
// bufferedMin bytes or more is counted by halves at once, through buffers
// when data is a mapped file: numbering the lines of a hunk far into a
// large file reads the file up to it (issue 23).
func countNewlines(data []byte, from, to int) int {
	if to-from < bufferedMin {
		return bytes.Count(data[from:to], newline)
	}
	mid := from + (to-from)/2
	var first, second int
	parallel(func() { first = countThrough(data, from, mid) }, func() { second = countThrough(data, mid, to) })
	return first + second
}

// countThrough counts the newlines in data[from:to] through a cursor.
func countThrough(data []byte, from, to int) int {
	c := newCursor(data, from, 1)
	defer c.close()
	n := 0
	c.each(from, to, func(b []byte) { n += bytes.Count(b, newline) })
	return n
}
