package reference

import (
	"bytes"
	"runtime/debug"
	"slices"
	"sync/atomic"
)

// MatchCountLimit bounds how many occurrences a search counts: one more than
// MaxReportedRanges, as upstream counts. When a further occurrence exists,
// Matches.Truncated is set and Count is a lower bound.
const MatchCountLimit = 11

// MaxReportedRanges is how many occurrences an error reports in ranges and
// line_ranges.
const MaxReportedRanges = 10

// Matches describes the occurrences of a needle in a file.
type Matches struct {
	// Count is the number of occurrences, counted with overlaps: after a hit
	// at offset i the search resumes at i+1. It is exact unless Truncated.
	Count     int
	Truncated bool
	// Ranges holds the first MaxReportedRanges occurrences in file order.
	Ranges []Range
}

// Unique reports whether the needle occurs exactly once.
func (m Matches) Unique() bool { return m.Count == 1 && !m.Truncated }

// Find counts the occurrences of needle in data. It runs in time linear in
// len(data)+len(needle) whatever the input: it stops counting at
// MatchCountLimit, and each occurrence is found by one finder (search.go),
// prepared once, whose search is linear in the bytes it passes plus the
// needle's length. A needle shorter than joinedMin is searched by
// findShort, so a large file's two halves are searched at once.
func Find(data, needle []byte) Matches {
	if len(needle) > 0 && len(needle) < joinedMin {
		return findShort(data, needle)[0]
	}
	var m Matches
	scan(data, needle, func(start int) bool { return m.add(Range{start, start + len(needle)}) })
	return m
}

// add counts one more occurrence, at r, as every search counts them: it
// returns false, setting Truncated, when MatchCountLimit are counted
// already, and keeps the first MaxReportedRanges ranges.
func (m *Matches) add(r Range) bool {
	if m.Count == MatchCountLimit {
		m.Truncated = true
		return false
	}
	m.Count++
	if len(m.Ranges) < MaxReportedRanges {
		m.Ranges = append(m.Ranges, r)
	}
	return true
}

// joinedMin is the length from which findJoined leaves a needle's parts
// where they lie instead of joining them: a shorter copy costs less than
// the verifying.
const joinedMin = 64 << 10

// findJoined is Find(data, concat(parts...)) without the copy of a long
// needle (issue 23): a hunk's context and payload, each a slice of the
// patch, as large as the file when the file is one line. It scans for the
// first joinedProbe bytes of the longest part, through a cursor, and
// compares the rest around each occurrence, so a mapped file is touched
// only where the probe occurs (a part that is a slice of the file at the
// very place costs no comparing). Each occurrence that is not a match
// costs up to the needle's length, counted against the bytes passed as
// the finder counts its own comparisons; past the same budget the whole
// longest part is searched for instead, and past it again the parts are
// joined and searched as one, so the time stays linear and the answer is
// Find's. From splitMin places on, the places in the first half and in
// the second are searched at once, each half with its own budget; should
// either outgrow it, the whole needle is searched for as above.
func findJoined(data []byte, parts ...[]byte) Matches {
	n := length(parts)
	if n < joinedMin {
		return Find(data, concat(parts...))
	}
	k, off := longestPart(parts)
	// Occurrences of the longest part at q in [off, last] leave room for
	// the others around them.
	last := len(data) - n + off
	var m Matches
	ok := true
	if last+1-off < splitMin {
		m, ok = joinedIn(data, parts, k, off, off, last+1)
	} else {
		mid := off + (last+1-off)/2
		var second Matches
		var ok2 bool
		parallel(func() { m, ok = joinedIn(data, parts, k, off, off, mid) },
			func() { second, ok2 = joinedIn(data, parts, k, off, mid, last+1) })
		ok = ok && (ok2 || m.Truncated)
		m = join(m, second)
	}
	if !ok {
		return Find(data, concat(parts...))
	}
	return m
}

// joinedIn is findJoined of the occurrences whose longest part, parts[k],
// starting off bytes into the needle, starts in [from, to). ok is false
// when its comparing outgrew its budget whole part and all.
func joinedIn(data []byte, parts [][]byte, k, off, from, to int) (m Matches, ok bool) {
	j := newJoinedStepper(data, parts, k, off, from, to)
	c := newCursor(data, from, len(j.f.needle))
	defer c.close()
	j.upTo(&c, to)
	return j.m, !j.failed
}

// joinedStepper is joinedIn advanced a stretch at a time, as stepper
// advances Find, so that findBoth can search a long needle's probe
// along a short needle's, reading the file once.
type joinedStepper struct {
	data   []byte
	parts  [][]byte
	n, off int    // the needle's length; where its longest part starts in it
	long   []byte // the longest part
	f      finder // its probe's, or the part's own once whole
	whole  bool   // f searches for the whole part, in place
	from   int    // where the search goes on
	to     int    // the end of the places searched
	work   int    // the comparing done since base
	base   int
	m      Matches
	failed bool // the budget ran out searching for the whole part: Find decides
	done   bool
}

func newJoinedStepper(data []byte, parts [][]byte, k, off, from, to int) *joinedStepper {
	j := &joinedStepper{data: data, parts: parts, n: length(parts), off: off, long: parts[k], from: from, to: to, base: from}
	j.f = newFinder(data, j.long[:min(len(j.long), joinedProbe)])
	j.done = from >= to
	return j
}

// upTo finds the occurrences whose longest part starts before end, as
// joinedIn does, reading c's data a stretch at a time.
func (j *joinedStepper) upTo(c *cursor, end int) {
	stop := min(end, j.to)
	for !j.done {
		var q int
		if j.whole {
			in := cursor{data: j.data, longest: len(j.long)}
			q = in.index(&j.f, j.from, stop)
		} else {
			q = c.index(&j.f, j.from, stop)
		}
		if q < 0 {
			j.from = max(j.from, stop)
			j.done = stop == j.to
			return
		}
		j.from = q + 1
		j.work += j.n // at most the needle's length compared
		start := q - j.off
		if partsAt(j.data, start, j.parts, -1) {
			j.done = !j.m.add(Range{start, start + j.n})
			continue
		}
		if j.work <= 2*(q-j.base)+4*j.n {
			continue
		}
		if j.whole {
			j.failed, j.done = true, true
			return
		}
		// The probe recurs without the rest: the longest part itself is
		// searched for from here on, in place.
		j.f, j.whole = newFinder(j.data, j.long), true
		j.work, j.base = 0, q
	}
}

// joinedProbe is how many of its longest part's first bytes findJoined
// searches a long needle by.
const joinedProbe = 4 << 10

// bothChunk is the stretch of data findBoth searches for one needle and
// then the other: small enough to stay in the cache between them.
const bothChunk = 256 << 10

// findBoth is findText(data, a...) and findJoined(data, b...) reading data
// from memory once (issue 23), as check makes them for a move within one
// file (see findShort). A needle that is empty or long (as findJoined
// joins no more) is searched on its own.
func findBoth(data []byte, a, b [][]byte) (Matches, Matches) {
	na, nb := concatShort(a), concatShort(b)
	switch {
	case na != nil && nb != nil:
		m := findShort(data, na, nb)
		return m[0], m[1]
	case na == nil && nb != nil && length(a) >= joinedMin:
		return findAlong(data, a, nb)
	}
	return findText(data, a...), findJoined(data, b...)
}

// length is the length of the text made of parts.
func length(parts [][]byte) int {
	n := 0
	for _, part := range parts {
		n += len(part)
	}
	return n
}

// longestPart returns the index of the longest of parts (the first of
// equally long ones) and where it starts in the text they make.
func longestPart(parts [][]byte) (k, off int) {
	for i, part := range parts {
		if len(part) > len(parts[k]) {
			k = i
		}
	}
	return k, length(parts[:k])
}

// findAlong is findBoth of a long needle, the parts of one (a hunk as large
// as its block, as check makes them for a move within one file), and a
// short one (the target's anchors): findJoined's search for the long
// needle's probe takes turns with the short needle's a stretch at a time,
// so data is read from memory once (issue 23: a second pass over the file
// on the block shape), by halves at once from splitMin bytes on as
// findShort searches. Should either half's probe outgrow its budget, the
// long needle is searched for on its own, as findJoined would.
func findAlong(data []byte, a [][]byte, b []byte) (Matches, Matches) {
	k, off := longestPart(a)
	places := len(data) - length(a) + off + 1 // the longest part starts in [off, places)
	half := func(from, to int) (Matches, Matches, bool) {
		j := newJoinedStepper(data, a, k, off, max(from, off), min(to, places))
		short := findStarts(data, [][]byte{b}, from, to, j)
		return j.m, short[0], !j.failed
	}
	var ma, mb Matches
	ok := true
	if len(data) < splitMin {
		ma, mb, ok = half(0, len(data))
	} else {
		mid := len(data) / 2
		var ma2, mb2 Matches
		var ok2 bool
		parallel(func() { ma, mb, ok = half(0, mid) }, func() { ma2, mb2, ok2 = half(mid, len(data)) })
		ok = ok && (ok2 || ma.Truncated)
		ma, mb = join(ma, ma2), join(mb, mb2)
	}
	if !ok {
		ma = Find(data, concat(a...))
	}
	return ma, mb
}

// splitMin is the file length from which findShort searches the two
// halves of a file at once.
const splitMin = 1 << 20

// findShort is Find(data, needle) for each needle, every one of them
// non-empty and shorter than joinedMin (issue 23). The searches take
// turns a stretch of bothChunk bytes at a time, the later ones finding in
// the cache what the first read, so data is read from memory once. From
// splitMin bytes on, the occurrences that start in the first half of data
// and those that start in the second are counted at once, on two
// goroutines (two cores where the machine has them; on one, in turn),
// and joined. Each half's search is linear, and a short needle that
// stretches across the middle is read past it by the first half only.
func findShort(data []byte, needles ...[]byte) []Matches {
	if len(data) < splitMin {
		return findStarts(data, needles, 0, len(data), nil)
	}
	mid := len(data) / 2
	var first, second []Matches
	parallel(func() { first = findStarts(data, needles, 0, mid, nil) },
		func() { second = findStarts(data, needles, mid, len(data), nil) })
	for i := range first {
		first[i] = join(first[i], second[i])
	}
	return first
}

// findStarts counts each needle's occurrences in data that start in
// [from, to), its searches taking turns a stretch at a time; also, when
// not nil, takes its turn with them.
func findStarts(data []byte, needles [][]byte, from, to int, also *joinedStepper) []Matches {
	ss := make([]stepper, len(needles))
	longest := 0
	for i, n := range needles {
		ss[i] = stepper{f: newFinder(data, n), from: from}
		longest = max(longest, len(n))
	}
	if also != nil {
		longest = max(longest, len(also.f.needle))
	}
	c := newCursor(data, from, longest)
	defer c.close()
	for end := min(from+bothChunk, to); ; end = min(end+bothChunk, to) {
		done := true
		for i := range ss {
			ss[i].upTo(&c, end)
			done = done && ss[i].done
		}
		if also != nil {
			also.upTo(&c, end)
			done = done && also.done
		}
		if end == to || done {
			break
		}
	}
	out := make([]Matches, len(ss))
	for i := range ss {
		out[i] = ss[i].m
	}
	return out
}

// join returns the Matches of a search whose occurrences are a's followed
// by b's, as Find would count them: at most MatchCountLimit, truncated
// when there are more, the first MaxReportedRanges ranges.
func join(a, b Matches) Matches {
	if a.Truncated {
		return a
	}
	m := Matches{Count: a.Count + b.Count, Truncated: b.Truncated}
	if m.Count > MatchCountLimit {
		m.Count, m.Truncated = MatchCountLimit, true
	}
	m.Ranges = slices.Concat(a.Ranges, b.Ranges)
	if len(m.Ranges) > MaxReportedRanges {
		m.Ranges = m.Ranges[:MaxReportedRanges]
	}
	return m
}

// equal is bytes.Equal, comparing the two halves of a stretch of splitMin
// bytes or more at once: a hunk as large as its file is compared whole
// where it is found.
func equal(a, b []byte) bool {
	if len(a) < splitMin || len(a) != len(b) {
		return bytes.Equal(a, b)
	}
	mid := len(a) / 2
	var first, second bool
	parallel(func() { first = bytes.Equal(a[:mid], b[:mid]) }, func() { second = bytes.Equal(a[mid:], b[mid:]) })
	return first && second
}

// parallel runs f here and g on another goroutine and returns when both
// have. A panic in g, where reading memory that faults panics as the
// CLI's goroutine does (a mapped file that shrank, see MappedFault), is
// raised again here once f returns, so a caller that recovers sees it as
// its own; when f panics, its panic goes on once g is done.
func parallel(f, g func()) {
	var p any
	done := make(chan struct{})
	go func() {
		defer close(done)
		defer func() { p = recover() }()
		debug.SetPanicOnFault(true)
		g()
	}()
	func() {
		defer func() { <-done }()
		f()
	}()
	if p != nil {
		panic(p)
	}
}

// firstPiece returns the least i < n for which a worker's piece function
// is true, or n, every piece before it looked at and found false. Two
// workers, each made by worker with its own state and a function that
// releases it, take the pieces in turn on two goroutines, and stop at the
// first true one either has found: each looks at most one piece past the
// answer.
func firstPiece(n int, worker func() (piece func(i int) bool, release func())) int {
	var stop atomic.Int64
	stop.Store(int64(n))
	run := func(first int) {
		piece, release := worker()
		defer release()
		for i := first; int64(i) < stop.Load(); i += 2 {
			if piece(i) {
				for old := stop.Load(); int64(i) < old && !stop.CompareAndSwap(old, int64(i)); old = stop.Load() {
				}
				return
			}
		}
	}
	parallel(func() { run(0) }, func() { run(1) })
	return int(stop.Load())
}

// concatShort joins parts shorter in all than joinedMin, or returns nil.
func concatShort(parts [][]byte) []byte {
	n := 0
	for _, part := range parts {
		n += len(part)
	}
	if n == 0 || n >= joinedMin {
		return nil
	}
	return concat(parts...)
}

// stepper is Find advanced a stretch at a time.
type stepper struct {
	f    finder
	from int // where the search goes on
	m    Matches
	done bool
}

// upTo counts the occurrences in c's data that start before end, as
// Find does.
func (s *stepper) upTo(c *cursor, end int) {
	n := len(s.f.needle)
	for !s.done {
		i := c.index(&s.f, s.from, end)
		if i < 0 {
			s.from = max(s.from, end)
			s.done = end == len(c.data)
			return
		}
		if !s.m.add(Range{i, i + n}) {
			s.done = true
			return
		}
		s.from = i + 1
	}
}

// partsAt reports whether every part but the skip-th (every part, for
// -1) follows the other parts in data from start on.
func partsAt(data []byte, start int, parts [][]byte, skip int) bool {
	at := start
	for i, part := range parts {
		if i != skip && !equal(data[at:at+len(part)], part) {
			return false
		}
		at += len(part)
	}
	return true
}

// through counts the occurrences in data from where s stands on.
func (s *stepper) through(data []byte) {
	c := newCursor(data, 0, len(s.f.needle))
	defer c.close()
	s.upTo(&c, len(data))
}

// scan calls yield with the start of every occurrence of needle in data, in
// order and overlapping, until yield returns false.
func scan(data, needle []byte, yield func(start int) bool) {
	if len(needle) == 0 {
		for i := 0; i <= len(data); i++ {
			if !yield(i) {
				return
			}
		}
		return
	}
	f := newFinder(data, needle)
	c := newCursor(data, 0, len(needle))
	defer c.close()
	for from := 0; from <= len(data); {
		i := c.index(&f, from, len(data))
		if i < 0 || !yield(i) {
			return
		}
		from = i + 1
	}
}

// scanAlong is scan, taking turns with also (when not nil) a stretch at a
// time, or from splitMin bytes on, both at once on two goroutines; also
// is done on return.
func scanAlong(data, needle []byte, also *stepper, yield func(start int) bool) {
	switch {
	case also == nil:
		scan(data, needle, yield)
		return
	case len(needle) == 0 || len(data) >= splitMin:
		parallel(func() { scan(data, needle, yield) }, func() { also.through(data) })
		return
	}
	f := newFinder(data, needle)
	c := cursor{data: data} // in place: data is shorter than bufferedMin
	from := 0
	for end := min(bothChunk, len(data)); ; end = min(end+bothChunk, len(data)) {
		for {
			i := f.index(data[:min(len(data), end+len(needle)-1)], from)
			if i < 0 {
				from = max(from, end)
				break
			}
			if !yield(i) {
				also.upTo(&c, len(data))
				return
			}
			from = i + 1
		}
		also.upTo(&c, end)
		if end == len(data) {
			return
		}
	}
}

// envelopes pairs each occurrence of before with the first occurrence of
// after that starts at or after its end. The occurrences of after are
// found in one pass: the one found for an earlier occurrence of before
// serves every later one that ends at or before it.
//
// also, when not nil, is advanced through data alongside the scan for
// before, a stretch at a time, as findBoth does, and is done on return.
func envelopes(data, before, after []byte, also *stepper) Matches {
	var m Matches
	a := -1 // the first occurrence of after at or after the latest end
	fa := newFinder(data, after)
	ca := newCursor(data, 0, len(after))
	defer ca.close()
	scanAlong(data, before, also, func(b int) bool {
		end := b + len(before)
		if a < end {
			if a = ca.index(&fa, end, len(data)); a < 0 {
				return false
			}
		}
		return m.add(Range{b, a + len(after)})
	})
	return m
}

// LineRanges converts byte ranges of data, in ascending order of Start, to
// 1-based inclusive line ranges: the lines holding the first and the last
// byte of each range. An empty range covers the line its offset is on.
func LineRanges(data []byte, ranges []Range) []Range {
	out := make([]Range, 0, len(ranges))
	line, at := 1, 0 // line is the line number of offset at
	for _, r := range ranges {
		line += countNewlines(data, at, r.Start)
		at = r.Start
		last := max(r.End-1, r.Start)
		out = append(out, Range{line, line + countNewlines(data, r.Start, last)})
	}
	return out
}

var newline = []byte{'\n'}
