package reference

import (
	"bytes"
	"encoding/binary"
	"math/bits"
)

// Substring search (issue 23). What is matched is the spec's business
// (MATCH-*); this file only makes finding it fast on every kind of file and
// linear in the worst case, so nothing here may change an answer.
//
// A finder is built once per needle and haystack and answers every index
// call of a scan. It has three parts:
//
//   - A prefilter jumps to the next position where two chosen bytes of the
//     needle, at their offsets, are both present. The pair is chosen from
//     the haystack itself: a sample of it gives each byte's frequency, the
//     first byte is the needle's rarest there, and the second is the one
//     that, in the sample, least often accompanies the first at the right
//     distance, so that bytes which always come together (the shared
//     prefix of log lines, the indentation of code) are not paired. The
//     jump is the runtime's vectorised IndexByte when the first byte is
//     rare, else a comparison of both bytes at 32 positions at a time
//     (AVX2, search_amd64.s) or, without it, 8 at a time in a word.
//   - While the prefilter pays, each candidate is verified with the
//     runtime's vectorised comparison, first the needle's 64 bytes from
//     the pair on, which the jump just read, then the rest (filtered). Failed full comparisons are counted against the bytes
//     passed, so a needle whose long head recurs cannot make this
//     quadratic: past a budget, Two-Way takes over.
//   - Two-Way (Crochemore and Perrin, 1991) searches on its own, calling
//     the prefilter again from time to time. It compares the needle's
//     right part from its critical position, then its left part, and
//     shifts by what the mismatch proves, remembering for a periodic
//     needle how much of it is known to match: at most two comparisons per
//     byte of the haystack, and no table.
//
// The prefilter only ever moves forward to a position that can match, and
// within Two-Way only when nothing is remembered, so the whole stays
// linear. It is turned off for a stretch when its jumps are too short to
// pay for their calls (a needle made of the file's most common bytes).
// A needle of up to shortNeedle bytes in a haystack under sampleMin goes
// to the runtime's bytes.Index instead: there, preparing costs more than
// searching.

// prefilter kinds.
const (
	preNone  = iota // Two-Way alone
	preByte         // IndexByte on the first byte, then the second
	prePairs        // both bytes, 32 positions at a time (8 without AVX2)
)

// Tuning. None of these changes an answer.
const (
	sampleWindow  = 1 << 10  // bytes per sample window
	sampleWindows = 16       // windows sampled from a large haystack
	sampleMin     = 64 << 10 // a smaller haystack is not sampled
	shortNeedle   = 31       // see index
	// The second byte lies at most pairReach bytes before the first and
	// pairAhead after it: a byte far ahead of the one IndexByte found is
	// often in a line of memory not read yet, a stall at every candidate.
	pairReach     = 256
	pairAhead     = 256
	pairPerWindow = 4       // occurrences of the first byte measured per window
	pairScope     = 4 << 10 // the first byte is chosen from the needle's first bytes
	// A first byte seen more often than once in byteRare bytes of the
	// sample is searched by pairs rather than by IndexByte, whose calls
	// cost more than the vector loop's passing the bytes between them.
	// Measured on the benchmark's shapes at 64 MiB (BenchmarkShapes find,
	// wall GB/s), once the vector loop's calls cost 4 ns instead of 280
	// (search_amd64.s): 96 left log lines (a first byte every 117) and
	// words on IndexByte at 15 and 20 GB/s, where 512 to 8192 take them to
	// 27-29 and keep every other shape where it was; with pairs always,
	// filler (a byte every few KiB) falls from 43 to 29.
	byteRare = 2048
	// The prefilter is judged every preJudge calls: it stays on while its
	// jumps average at least preMinSkip positions, and after it is turned
	// off Two-Way searches preRetry bytes before trying it again.
	preJudge   = 16
	preMinSkip = 8
	preRetry   = 64 << 10
)

// finder searches for one needle.
type finder struct {
	needle []byte
	// crit is the critical position: Two-Way compares needle[crit:] left
	// to right, then needle[:crit] right to left. It and period are set
	// (period > 0) when Two-Way first runs.
	crit int
	// period is the needle's period when short (a shift by it keeps the
	// part already matched), else the shift after a complete right part.
	period int
	short  bool
	// The prefilter: positions p with data[p+i1] == c1, data[p+i2] == c2
	// and data[p+i3] == c3.
	pre        int
	i1, i2, i3 int
	c1, c2, c3 byte
	// direct says index uses the runtime's bytes.Index.
	direct bool
	// retryAfter is preRetry and vector says pairVector may be used;
	// tests change them.
	retryAfter int
	vector     bool
}

// index returns the offset of the first occurrence of needle in data, or
// -1 (0 for an empty needle), in time linear in len(data)+len(needle).
func index(data, needle []byte) int {
	f := newFinder(data, needle)
	return f.index(data, 0)
}

// newFinder prepares the search for needle in data (data only guides the
// choice of prefilter; any haystack may be searched).
func newFinder(data, needle []byte) finder {
	f := finder{needle: needle, retryAfter: preRetry, vector: true}
	// A short needle in a small haystack: the runtime's search costs less
	// than preparing a finder, and at most shortNeedle comparisons per
	// byte of the haystack.
	f.direct = len(needle) <= shortNeedle && len(data) < sampleMin
	if len(needle) > 0 {
		f.c3 = needle[0] // i3 = 0: a third byte as good as none
	}
	if len(needle) < 2 || f.direct {
		return f
	}
	f.choosePair(data) // Two-Way's factorization waits until it is needed
	return f
}

// index returns the first occurrence at or after from, or -1.
func (f *finder) index(data []byte, from int) int {
	at, _ := f.search(data, from)
	return at
}

// search is index, and also returns the work it did: the positions it
// passed plus the bytes it compared, the measure in which it is linear
// (at most a few times len(data)-from plus the needle's length). filtered
// budgets its comparisons in it; tests hold search to it on inputs built
// to make a search quadratic. The runtime's searches, used whole, count
// the bytes they pass.
func (f *finder) search(data []byte, from int) (at, work int) {
	n := len(f.needle)
	switch {
	case from > len(data):
		return -1, 0
	case n == 0:
		return from, 0
	case n == 1:
		if i := bytes.IndexByte(data[from:], f.needle[0]); i >= 0 {
			return from + i, i + 1
		}
		return -1, len(data) - from
	case n > len(data)-from:
		return -1, 0
	case f.direct:
		// At most shortNeedle comparisons per byte.
		if i := bytes.Index(data[from:], f.needle); i >= 0 {
			return from + i, (i + 1) * n
		}
		return -1, (len(data) - from) * n
	}
	if f.pre != preNone {
		j, done, w := f.filtered(data, from)
		if done {
			return j, w
		}
		from, work = j, w
	}
	at, w := f.twoWay(data, from)
	return at, work + w
}

// filtered searches from from by jumping to the prefilter's candidates and
// comparing the needle there with the runtime's vectorised comparison:
// first its head, then the rest. It gives up, returning the position to
// go on from and false, when the jumps are too short to pay or the full
// comparisons that fail outweigh the bytes passed (a needle whose long
// head recurs), so that Two-Way, linear, takes over.
func (f *finder) filtered(data []byte, from int) (at int, done bool, work int) {
	needle, n := f.needle, len(f.needle)
	last := len(data) - n
	// The first comparison is of the 64 bytes from the pair on, which
	// the jump just read: in a long needle the start lies far behind,
	// in memory no longer cached.
	head := min(n, 64)
	w := min(f.i1, f.i2, n-head)
	calls, skipped, failed, compared := 0, 0, 0, 0
	for j := from; j <= last; j++ {
		k := f.jump(data, j, last, f.pre)
		if k < 0 {
			return -1, true, last + 1 - from + compared
		}
		calls, skipped, j = calls+1, skipped+k-j, k
		compared += head
		if bytes.Equal(data[j+w:j+w+head], needle[w:w+head]) {
			compared += n - head
			if bytes.Equal(data[j:j+w], needle[:w]) && equal(data[j+w+head:j+n], needle[w+head:]) {
				return j, true, j + 1 - from + compared
			}
			failed += n
		}
		if failed > 2*(j-from)+4*n || calls%preJudge == 0 && skipped < calls*preMinSkip {
			return j + 1, false, j + 1 - from + compared
		}
	}
	return -1, true, max(0, last+1-from) + compared
}

// twoWay is Two-Way from from. The prefilter, if any, is first left off
// (filtered gave up on it) and tried again every retryAfter bytes, jumping
// ahead only when nothing is remembered.
func (f *finder) twoWay(data []byte, from int) (at, work int) {
	if f.period == 0 {
		f.crit, f.period, f.short = factorize(f.needle)
	}
	needle, n, crit := f.needle, len(f.needle), f.crit
	last := len(data) - n // the last possible start
	pre, retry := preNone, from+f.retryAfter
	calls, skipped := 0, 0
	mem := 0      // needle[:mem] is known to match at j (short period only)
	compared := 0 // bytes compared
	for j := from; j <= last; {
		if mem == 0 {
			if pre == preNone && f.pre != preNone && j >= retry {
				pre = f.pre
			}
			if pre != preNone {
				k := f.jump(data, j, last, pre)
				if k < 0 {
					return -1, last + 1 - from + compared
				}
				calls, skipped = calls+1, skipped+k-j
				if calls == preJudge {
					if skipped < preJudge*preMinSkip {
						pre, retry = preNone, k+f.retryAfter
					}
					calls, skipped = 0, 0
				}
				j = k
			}
		}
		right := max(crit, mem)
		i := matchRight(needle, data[j:], right)
		compared += min(i, n-1) - right + 1
		if i < n {
			j += i - crit + 1
			mem = 0
			continue
		}
		l := matchLeft(needle, data[j:], crit-1, mem)
		compared += max(0, crit-max(l, mem))
		if l < mem {
			return j, j + 1 - from + compared
		}
		j += f.period
		if f.short {
			mem = n - f.period
		}
	}
	return -1, max(0, last+1-from) + compared
}

// matchRight compares needle and data from i on and returns the first
// position where they differ, or len(needle); 8 bytes at a time.
func matchRight(needle, data []byte, i int) int {
	for ; i+8 <= len(needle); i += 8 {
		if x := binary.LittleEndian.Uint64(needle[i:]) ^ binary.LittleEndian.Uint64(data[i:]); x != 0 {
			return i + bits.TrailingZeros64(x)/8
		}
	}
	for i < len(needle) && needle[i] == data[i] {
		i++
	}
	return i
}

// matchLeft compares needle and data from i down to stop and returns the
// last position where they differ, or stop-1; 8 bytes at a time.
func matchLeft(needle, data []byte, i, stop int) int {
	for ; i-7 >= stop; i -= 8 {
		if x := binary.LittleEndian.Uint64(needle[i-7:]) ^ binary.LittleEndian.Uint64(data[i-7:]); x != 0 {
			return i - bits.LeadingZeros64(x)/8
		}
	}
	for i >= stop && needle[i] == data[i] {
		i--
	}
	return i
}

// jump returns the first position p in [j, last] where the prefilter's
// two bytes are present, or -1.
func (f *finder) jump(data []byte, j, last, pre int) int {
	i1, i2, i3, c1, c2, c3 := f.i1, f.i2, f.i3, f.c1, f.c2, f.c3
	if pre == prePairs {
		if f.vector {
			k, ok := pairVector(data, j, last, i1, i2, i3, c1, c2, c3)
			if ok {
				return k
			}
			j = k
		}
		const ones, highs = 0x0101010101010101, 0x8080808080808080
		b1, b2, b3 := ones*uint64(c1), ones*uint64(c2), ones*uint64(c3)
		for ; j+8 <= last+1; j += 8 {
			x := binary.LittleEndian.Uint64(data[j+i1:]) ^ b1
			y := binary.LittleEndian.Uint64(data[j+i2:]) ^ b2
			y3 := binary.LittleEndian.Uint64(data[j+i3:]) ^ b3
			z := x | y | y3 // a zero byte where all three bytes are present
			// Flags every zero byte, and sometimes the byte after
			// one; each flag is checked.
			for t := (z - ones) &^ z & highs; t != 0; t &= t - 1 {
				p := j + bits.TrailingZeros64(t)/8
				if data[p+i1] == c1 && data[p+i2] == c2 && data[p+i3] == c3 {
					return p
				}
			}
		}
		for ; j <= last; j++ {
			if data[j+i1] == c1 && data[j+i2] == c2 && data[j+i3] == c3 {
				return j
			}
		}
		return -1
	}
	for j <= last {
		k := bytes.IndexByte(data[j+i1:last+i1+1], c1)
		if k < 0 {
			return -1
		}
		j += k
		if data[j+i2] == c2 && data[j+i3] == c3 {
			return j
		}
		j++
	}
	return -1
}

// factorize returns the needle's critical position and the shift Two-Way
// makes after matching its right part: the period when the needle is
// periodic from the left part on (short), else more than half its length.
func factorize(needle []byte) (crit, period int, short bool) {
	ms1, p1 := maxSuffix(needle, false)
	ms2, p2 := maxSuffix(needle, true)
	ms, p := ms1, p1
	if ms2 > ms1 {
		ms, p = ms2, p2
	}
	crit = ms + 1
	if bytes.Equal(needle[:crit], needle[p:p+crit]) {
		return crit, p, true
	}
	return crit, max(crit, len(needle)-crit) + 1, false
}

// maxSuffix returns where the needle's lexicographically greatest suffix
// starts, less one (so -1 for the whole needle), and that suffix's period;
// with inverted, under the inverted byte order.
func maxSuffix(x []byte, inverted bool) (ms, period int) {
	ms, j, k, period := -1, 0, 1, 1
	for j+k < len(x) {
		a, b := x[j+k], x[ms+k]
		if inverted {
			a, b = b, a
		}
		switch {
		case a < b: // the suffix at j stays the greatest; extend
			j += k
			k = 1
			period = j - ms
		case a == b:
			if k != period {
				k++
			} else {
				j += period
				k = 1
			}
		default: // a greater suffix starts at j
			ms = j
			j = ms + 1
			k, period = 1, 1
		}
	}
	return ms, period
}

// choosePair chooses the prefilter's two bytes from a sample of data.
// The first is the rarest there among the needle's first and last
// pairScope bytes (ties go to the byte rarer in text, byteRank). Its first
// and its last position there are tried; for each, the second byte is the
// one, within pairReach before it and pairAhead after, that least often
// stands at its distance from the first byte's occurrences in the sample
// (by frequency alone when the first byte is too rare to measure that),
// and the pair with the fewer such co-occurrences wins. A haystack too
// short to be worth it gets no prefilter.
func (f *finder) choosePair(data []byte) {
	if len(data) < 256 {
		return
	}
	if len(data) < sampleMin { // a small haystack: by byteRank alone, at no cost
		f.pre = preByte
		f.i1, f.i2, f.i3 = rankedPair(f.needle)
		f.c1, f.c2, f.c3 = f.needle[f.i1], f.needle[f.i2], f.needle[f.i3]
		return
	}
	sample := sampleOf(data)
	var freq [256]int
	for _, w := range sample {
		for _, c := range w {
			freq[c]++
		}
	}
	needle := f.needle
	rarer := func(a, b byte, fa, fb int) bool {
		return fa < fb || fa == fb && byteRank[a] > byteRank[b]
	}
	first, last := 0, 0
	for i := 0; i < len(needle); i++ {
		if i == pairScope && len(needle) > 2*pairScope {
			i = len(needle) - pairScope // then the last bytes, not the middle
		}
		c := needle[i]
		switch {
		case rarer(c, needle[first], freq[c], freq[needle[first]]):
			first, last = i, i
		case c == needle[first]:
			last = i
		}
	}
	i2, score := f.second(sample, &freq, first, -1, -1)
	i1 := first
	if last != first {
		if j2, s := f.second(sample, &freq, last, -1, -1); s < score {
			i1, i2 = last, j2
		}
	}
	i3, _ := f.second(sample, &freq, i1, i2, i2)
	f.i1, f.i2, f.i3 = i1, i2, i3
	f.c1, f.c2, f.c3 = needle[i1], needle[i2], needle[i3]
	f.pre = preByte
	if freq[f.c1]*byteRare > sampleSize(sample) {
		f.pre = prePairs
	}
}

// second returns the best second byte for a pair whose first byte is at
// i1, other than the one at offset skip, and how often it stood at its
// distance from the first byte in the sample (or its frequency there).
// With cond, the offset of the second byte, it returns the best third:
// counted only where the second byte is present too, so that it is not
// one that always comes with the second (the same column of a repeated
// record). When the sample holds too few such places to tell, it is
// counted where the first byte is, as the second was: a byte that stands
// beside the first in every record (the first byte's column in the next
// record, the same distance on) is never the third.
func (f *finder) second(sample [][]byte, freq *[256]int, i1, cond, skip int) (i2, score int) {
	needle := f.needle
	c1 := needle[i1]
	lo, hi := max(0, i1-pairReach), min(len(needle), i1+pairAhead+1)
	// with[i-lo] counts, over the sample's occurrences of c1, those where
	// the byte at the distance of needle offset i from i1 matches it.
	with := make([]int, hi-lo)
	seen := 0
	for _, w := range sample {
		perWindow := 0
		for q, c := range w {
			if c != c1 {
				continue
			}
			if q-i1+lo < 0 || q-i1+hi > len(w) {
				continue // the needle's stretch falls outside the window
			}
			if cond >= 0 && w[q-i1+cond] != needle[cond] {
				continue // the third byte counts where the second is present
			}
			if perWindow++; perWindow > pairPerWindow {
				break
			}
			seen++
			for i := lo; i < hi; i++ {
				if w[q-i1+i] == needle[i] {
					with[i-lo]++
				}
			}
		}
	}
	if cond >= 0 && seen < 4 {
		return f.second(sample, freq, i1, -1, skip)
	}
	scoreOf := func(i int) int {
		if seen >= 4 {
			return with[i-lo]
		}
		return freq[needle[i]]
	}
	i2 = -1
	for i := lo; i < hi; i++ {
		if i == i1 || i == skip {
			continue
		}
		if s := scoreOf(i); i2 < 0 || s < score || s == score && byteRank[needle[i]] > byteRank[needle[i2]] {
			i2, score = i, s
		}
	}
	if i2 < 0 { // a needle of two bytes has no third
		i2 = i1
	}
	return i2, score
}

// rankedPair returns the offsets of the needle's three bytes rarest in
// text by byteRank, the others within pairReach before the first and
// pairAhead after it (the third is the first again when the needle has
// only two bytes).
func rankedPair(needle []byte) (i1, i2, i3 int) {
	for i := range min(len(needle), pairScope) {
		if byteRank[needle[i]] > byteRank[needle[i1]] {
			i1 = i
		}
	}
	rarest := func(not int) int {
		best := -1
		for i := max(0, i1-pairReach); i < min(len(needle), i1+pairAhead+1); i++ {
			if i != i1 && i != not && (best < 0 || byteRank[needle[i]] > byteRank[needle[best]]) {
				best = i
			}
		}
		return best
	}
	i2 = rarest(-1)
	if i3 = rarest(i2); i3 < 0 {
		i3 = i1
	}
	return i1, i2, i3
}

// sampleOf returns windows of data spread evenly from its start to its
// end: one per sampleMin bytes, at most sampleWindows, so that choosing
// the pair costs a small part of the search.
func sampleOf(data []byte) [][]byte {
	out := make([][]byte, min(sampleWindows, len(data)/sampleMin))
	if len(out) == 1 {
		return [][]byte{data[:sampleWindow]}
	}
	step := (len(data) - sampleWindow) / (len(out) - 1)
	for i := range out {
		out[i] = data[i*step : i*step+sampleWindow]
	}
	if len(data) >= bufferedMin {
		readSample(data, out)
	}
	return out
}

// readSample replaces the windows of a sample of data, when data is a
// file the Workspace mapped, by copies read from the file, which touch
// none of the mapping's pages (see cursor).
func readSample(data []byte, sample [][]byte) {
	src, off := mappingOf(data)
	if src == nil {
		return
	}
	room := make([]byte, len(sample)*sampleWindow)
	for i, w := range sample {
		at := cap(data) - cap(w) // w's offset in data
		into := room[i*sampleWindow : (i+1)*sampleWindow]
		if k, _ := src.file.ReadAt(into, int64(off+at)); k == len(into) {
			sample[i] = into
		}
	}
}

func sampleSize(sample [][]byte) int {
	n := 0
	for _, w := range sample {
		n += len(w)
	}
	return n
}

// byteRank orders bytes by how rare they are in source code and prose:
// the higher, the rarer. It breaks ties between bytes the sample sees
// equally often. commonBytes lists the common ones, most common first;
// every byte it does not list (controls, most punctuation, bytes of
// multi-byte UTF-8) ranks above all of them.
var byteRank = func() (rank [256]uint8) {
	const commonBytes = " e\nt\taoinsrlhdcumfpg.,_()=yb;w\"0v1k:-/E{}T*SAIRNCO'LxDP2M>F<#[]Bj3U4H5G8z96q7W+VK&!|%XYJQZ$@\\?`^~\r"
	for i := range rank {
		rank[i] = 255
	}
	for i := 0; i < len(commonBytes); i++ {
		rank[commonBytes[i]] = uint8(i)
	}
	return rank
}()
