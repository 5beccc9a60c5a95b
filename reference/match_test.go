package reference

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tally counts an occurrence at r into m for the oracles below, written
// apart from the searches they judge: false, with m truncated, once
// MatchCountLimit are counted and r is one more.
func tally(m *Matches, r Range) bool {
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

// naiveFind is the quadratic oracle: try every offset.
func naiveFind(data, needle []byte) Matches {
	var m Matches
	for i := 0; i+len(needle) <= len(data); i++ {
		if bytes.Equal(data[i:i+len(needle)], needle) && !tally(&m, Range{i, i + len(needle)}) {
			break
		}
	}
	return m
}

func TestFind(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, data, needle string
		count              int
		truncated          bool
		ranges             []Range
	}{
		{"absent", "abc", "x", 0, false, nil},
		{"unique", "abc", "b", 1, false, []Range{{1, 2}}},
		{"overlapping pair", "aaa", "aa", 2, false, []Range{{0, 2}, {1, 3}}},
		{"overlapping period", "abababa", "aba", 3, false, []Range{{0, 3}, {2, 5}, {4, 7}}},
		{"needle longer", "ab", "abc", 0, false, nil},
		{"whole", "abc", "abc", 1, false, []Range{{0, 3}}},
		{"crlf is not lf", "a\r\nb\n", "a\nb", 0, false, nil},
		{"ranges capped at ten", string(bytes.Repeat([]byte("x"), 11)), "x", 11, false,
			[]Range{{0, 1}, {1, 2}, {2, 3}, {3, 4}, {4, 5}, {5, 6}, {6, 7}, {7, 8}, {8, 9}, {9, 10}}},
		{"count at limit is exact", string(bytes.Repeat([]byte("x"), MatchCountLimit)), "x", MatchCountLimit, false, nil},
		{"count past limit truncates", string(bytes.Repeat([]byte("x"), MatchCountLimit+1)), "x", MatchCountLimit, true, nil},
		{"upstream stops at eleven", string(bytes.Repeat([]byte("x"), 150)), "x", 11, true, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			m := Find([]byte(tt.data), []byte(tt.needle))
			if m.Count != tt.count || m.Truncated != tt.truncated {
				t.Errorf("count %d truncated %v; want %d %v", m.Count, m.Truncated, tt.count, tt.truncated)
			}
			if tt.ranges != nil || tt.count == 0 {
				if diff := cmp.Diff(tt.ranges, m.Ranges); diff != "" {
					t.Errorf("ranges (-want +got):\n%s", diff)
				}
			}
		})
	}
}

// TestFindAgreesWithOracle compares Find with the quadratic oracle on
// random small inputs over a tiny alphabet, where overlaps are common.
func TestFindAgreesWithOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	gen := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab\n"[rng.IntN(3)]
		}
		return b
	}
	for i := 0; i < 20000; i++ {
		data, needle := gen(rng.IntN(300)), gen(1+rng.IntN(4))
		if i%7 == 0 { // long runs of one byte
			data = bytes.Repeat([]byte("a"), rng.IntN(400))
			needle = bytes.Repeat([]byte("a"), 1+rng.IntN(5))
		}
		want, got := naiveFind(data, needle), Find(data, needle)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("Find(%q, %q) (-want +got):\n%s", data, needle, diff)
		}
	}
}

// TestIndexAgreesWithOracle compares index with the runtime's search on
// periodic inputs with near misses, for needles on both sides of the
// 64-byte comparison head, so every path of index runs: skipping, the
// head comparison, failed full comparisons, and both fallbacks.
func TestIndexAgreesWithOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(3, 4))
	for i := 0; i < 3000; i++ {
		unit := make([]byte, 1+rng.IntN(20))
		for j := range unit {
			unit[j] = "ab\nx"[rng.IntN(4)]
		}
		data := bytes.Repeat(unit, rng.IntN(4000/len(unit)+1))
		needle := bytes.Repeat(unit, 1+rng.IntN(200/len(unit)+1))
		for range rng.IntN(3) { // near misses: change a byte of each
			if len(data) > 0 {
				data[rng.IntN(len(data))] = "abxy"[rng.IntN(4)]
			}
			needle[rng.IntN(len(needle))] = "abxy"[rng.IntN(4)]
		}
		if rng.IntN(4) == 0 && len(data) > 0 { // a needle cut from data
			a := rng.IntN(len(data))
			needle = data[a : a+rng.IntN(len(data)-a+1)]
		}
		if got, want := index(data, needle), bytes.Index(data, needle); got != want {
			t.Fatalf("index(%q, %q) = %d, want %d", data, needle, got, want)
		}
	}
}

// TestEnvelopesAgreeWithOracle compares envelopes with pairing each start
// occurrence with the first end occurrence after it, done naively.
func TestEnvelopesAgreeWithOracle(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(5, 6))
	gen := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = "ab\n"[rng.IntN(3)]
		}
		return b
	}
	for i := 0; i < 20000; i++ {
		data, before, after := gen(rng.IntN(200)), gen(1+rng.IntN(3)), gen(rng.IntN(3))
		var want Matches
		for b := 0; b+len(before) <= len(data); b++ {
			if !bytes.Equal(data[b:b+len(before)], before) {
				continue
			}
			end := b + len(before)
			a := bytes.Index(data[end:], after)
			if a < 0 {
				break
			}
			if !tally(&want, Range{b, end + a + len(after)}) {
				break
			}
		}
		if diff := cmp.Diff(want, envelopes(data, before, after, nil)); diff != "" {
			t.Fatalf("envelopes(%q, %q, %q) (-want +got):\n%s", data, before, after, diff)
		}
	}
}

// TestByteRankListsEachByteOnce: a byte listed twice takes its later
// rank and leaves its earlier one unused, a gap in the ranks.
func TestByteRankListsEachByteOnce(t *testing.T) {
	t.Parallel()
	used := map[uint8]bool{}
	top := uint8(0)
	for c := range 256 {
		if r := byteRank[c]; r != 255 {
			used[r], top = true, max(top, r)
		}
	}
	for r := range top {
		if !used[r] {
			t.Errorf("rank %d is unused: a byte is listed twice", r)
		}
	}
}

func TestLineRanges(t *testing.T) {
	t.Parallel()
	data := []byte("one\ntwo\nthree\nfour")
	tests := []struct {
		name string
		in   Range
		want Range
	}{
		{"first line", Range{0, 3}, Range{1, 1}},
		{"line with newline", Range{0, 4}, Range{1, 1}},
		{"two lines", Range{0, 5}, Range{1, 2}},
		{"last line without newline", Range{14, 18}, Range{4, 4}},
		{"mid line", Range{5, 6}, Range{2, 2}},
		{"newline only", Range{3, 4}, Range{1, 1}},
		{"span", Range{4, 14}, Range{2, 3}},
	}
	for _, tt := range tests {
		if got := LineRanges(data, []Range{tt.in}); got[0] != tt.want {
			t.Errorf("%s: LineRanges(%v) = %v, want %v", tt.name, tt.in, got[0], tt.want)
		}
	}
	// Overlapping ranges in order, as ambiguous matches produce.
	got := LineRanges([]byte("a\na\na\n"), []Range{{0, 4}, {2, 6}})
	if diff := cmp.Diff([]Range{{1, 2}, {2, 3}}, got); diff != "" {
		t.Errorf("overlapping (-want +got):\n%s", diff)
	}
}

// BenchmarkFindAdversarial measures the matcher on inputs that make naive
// search quadratic: a run of one byte searched for a needle that almost
// matches everywhere or matches everywhere; a short period whose first byte
// recurs every 17 bytes, searched for 64 KiB of the same period that fails on
// its last byte (near misses too sparse for a fallback that judges by how
// far the first byte skips); long identical lines searched for three of them
// with the last byte changed; and an envelope whose start occurs on every
// line and whose end only at the end of the file. Compare ns/op across
// sizes: time must grow linearly with the input (MB/s flat).
func BenchmarkFindAdversarial(b *testing.B) {
	period := []byte("abbbbbbbbbbbbbbb\n")
	line := append(bytes.Repeat([]byte("x"), 8<<10), '\n')
	for _, size := range []int{1 << 20, 4 << 20, 16 << 20} {
		runs := bytes.Repeat([]byte("a"), size)
		periodic := bytes.Repeat(period, size/len(period))
		lines := bytes.Repeat(line, size/len(line))
		nearLines := bytes.Repeat(line, 3)
		nearLines[len(nearLines)-2] = 'y'
		cases := []struct {
			name         string
			data, needle []byte
		}{
			{"near-miss-1k", runs, append(bytes.Repeat([]byte("a"), 1000), 'b')},
			{"near-miss-40", runs, append(bytes.Repeat([]byte("a"), 40), 'b')},
			{"all-match-64k", runs, bytes.Repeat([]byte("a"), 64<<10)},
			{"periodic-near-miss-64k", periodic, append(bytes.Repeat(period, 64<<10/len(period)), 'b')},
			{"long-lines-near-miss", lines, nearLines},
		}
		for _, c := range cases {
			b.Run(c.name+"/"+strconv.Itoa(size>>20)+"MiB", func(b *testing.B) {
				b.SetBytes(int64(len(c.data)))
				for b.Loop() {
					Find(c.data, c.needle)
				}
			})
		}
		b.Run("envelope-end-at-eof/"+strconv.Itoa(size>>20)+"MiB", func(b *testing.B) {
			data := append(bytes.Clone(lines), "END"...)
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				envelopes(data, []byte("x\n"), []byte("END"), nil)
			}
		})
	}
}

// TestFindJoinedAgreesWithFind: searching a needle's parts where they lie
// answers as Find does on the joined needle, on periodic haystacks with a
// few bytes changed (the longest part recurring where the others do not,
// so some searches run out of budget and join) and needles of 64 KiB and
// more cut from them, split at random points, sometimes changed; a
// third of the haystacks leave splitMin places or more, searched by
// halves at once.
func TestFindJoinedAgreesWithFind(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 9))
	check := func(name string, data []byte, parts ...[]byte) {
		t.Helper()
		got, want := findJoined(data, parts...), Find(data, concat(parts...))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Fatalf("%s: findJoined differs from Find (-want +got):\n%s", name, diff)
		}
	}
	for i := range 24 {
		unit := make([]byte, 1+rng.IntN(30))
		for j := range unit {
			unit[j] = "ab\nx"[rng.IntN(1+i%4)]
		}
		size := 2*joinedMin + rng.IntN(2*joinedMin)
		if i%3 == 0 {
			size += splitMin
		}
		data := bytes.Repeat(unit, size/len(unit)+1)
		for range rng.IntN(6) {
			data[rng.IntN(len(data))] = "abxy"[rng.IntN(4)]
		}
		n := joinedMin + rng.IntN(joinedMin)
		at := rng.IntN(len(data) - n)
		needle := bytes.Clone(data[at : at+n])
		if rng.IntN(2) == 0 {
			needle[rng.IntN(len(needle))] = "abxy"[rng.IntN(4)]
		}
		cut1 := rng.IntN(n + 1)
		cut2 := cut1 + rng.IntN(n-cut1+1)
		check(fmt.Sprint("case ", i), data, needle[:cut1], needle[cut1:cut2], needle[cut2:])
	}
	// The longest part occurs everywhere; the part before it fails on its
	// last byte each time, so the comparisons outrun the budget.
	run := bytes.Repeat([]byte("a"), 4*joinedMin)
	check("recurring longest part", run, append(bytes.Repeat([]byte("a"), joinedMin/2), 'b'), run[:joinedMin])
	check("recurring, found at the end", append(bytes.Clone(run), 'b'), run[:joinedMin], []byte("b"))
	check("short needle", run, []byte("a"), []byte("a"))
	// The same by halves: the first half runs out of budget, or counts
	// its fill, or finds nothing where the second finds one across the
	// middle.
	halves := bytes.Repeat([]byte("a"), splitMin+4*joinedMin)
	check("halves, recurring longest part", halves, append(bytes.Repeat([]byte("a"), joinedMin/2), 'b'), halves[:joinedMin])
	check("halves, more than the limit in the first", halves, halves[:joinedMin], []byte("a"))
	check("halves, found at the end", append(bytes.Clone(halves), 'b'), halves[:joinedMin], []byte("b"))
	// Found once in the first half, whose probe recurs everywhere (its
	// budget runs out), and nowhere in the second, whose search is done.
	once := bytes.Clone(halves)
	once[len(once)/4] = 'b'
	for j := len(once) / 2; j < len(once); j++ {
		once[j] = 'c'
	}
	check("halves, recurring longest part found once", once, []byte("b"), halves[:joinedMin])
	// A needle whose longest part starts 600 KB in: its parts before it
	// and its probe lie in place past the last place it fits, by a byte
	// and by a thousand.
	random := func(n int) []byte {
		b := make([]byte, n)
		for j := range b {
			b[j] = "abcdefgh"[rng.IntN(8)]
		}
		return b
	}
	before, long := random(600_000), random(610_000)
	for _, past := range []int{1, 1000} {
		data := random(2_306_867)
		last := len(data) - len(before) - len(long) + len(before)
		copy(data[last+past-len(before):], before)
		copy(data[last+past:], long[:joinedProbe])
		check(fmt.Sprint("a probe ", past, " past the last place"), data, before, long)
	}
	middle := bytes.Clone(halves)
	middle[len(middle)/2] = 'm'
	check("halves, found across the middle", middle, middle[len(middle)/2-joinedMin:len(middle)/2], middle[len(middle)/2:len(middle)/2+joinedMin])
	// The longest part found once, at each place either side of where
	// the halves meet: its probe holds the one m.
	for _, q := range []int{-1, 0} {
		const short = 10
		n := short + joinedMin
		at := (len(halves)-n+1)/2 + q // the needle's start, its longest part at the middle of the places
		edge := bytes.Clone(halves)
		edge[at+short+100] = 'm'
		check(fmt.Sprint("halves, found at the middle ", q), edge, edge[at:at+short], edge[at+short:at+n])
	}
	check("empty parts", run, nil, run[:joinedMin], nil)
}

// TestFindBothAgreesWithFind: the two searches taking turns a stretch at
// a time answer as findText and findJoined do one after the other, with
// needles cut across the stretches' ends, occurring often (counts
// truncated) or not at all, empty or long.
func TestFindBothAgreesWithFind(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 10))
	for i := range 24 {
		k := 2 + i%3
		data := make([]byte, 2*bothChunk+rng.IntN(bothChunk))
		for j := range data {
			data[j] = "ab\nx"[rng.IntN(k)]
		}
		cut := func() []byte {
			at := (1+rng.IntN(2))*bothChunk - rng.IntN(40)
			return data[at : at+1+rng.IntN(60)]
		}
		a := [][]byte{cut()[:rng.IntN(3)], cut(), nil}
		b := [][]byte{cut(), cut()[:rng.IntN(2)]}
		if i%7 == 0 {
			b = [][]byte{nil, nil}
		}
		if i%11 == 0 {
			a = [][]byte{data[:joinedMin]}
		}
		gotA, gotB := findBoth(data, a, b)
		if diff := cmp.Diff(findText(data, a...), gotA); diff != "" {
			t.Fatalf("case %d, first needle (-want +got):\n%s", i, diff)
		}
		if diff := cmp.Diff(findJoined(data, b...), gotB); diff != "" {
			t.Fatalf("case %d, second needle (-want +got):\n%s", i, diff)
		}
	}
}

// TestEnvelopesAlongAgree: envelopes taking turns with a search of the
// anchor (plan's move within one file) answers as both do alone, with
// starts, ends and anchors cut across the stretches' ends.
func TestEnvelopesAlongAgree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 11))
	for i := range 24 {
		data := make([]byte, 2*bothChunk+rng.IntN(bothChunk))
		for j := range data {
			data[j] = "ab\nx"[rng.IntN(2+i%3)]
		}
		cut := func() []byte {
			at := (1+rng.IntN(2))*bothChunk - rng.IntN(40)
			return data[at : at+1+rng.IntN(40)]
		}
		before, after, anchor := cut(), cut()[:rng.IntN(4)], cut()
		along := stepper{f: newFinder(data, anchor)}
		if diff := cmp.Diff(envelopes(data, before, after, nil), envelopes(data, before, after, &along)); diff != "" {
			t.Fatalf("case %d: envelopes (-alone +along):\n%s", i, diff)
		}
		if diff := cmp.Diff(Find(data, anchor), along.m); diff != "" {
			t.Fatalf("case %d: the anchor (-Find +along):\n%s", i, diff)
		}
	}
}

// indexOracle is Find by the runtime's bytes.Index, resumed one byte past
// each occurrence: an oracle fast enough for files of megabytes.
func indexOracle(data, needle []byte) Matches {
	var m Matches
	for from := 0; from <= len(data); {
		i := bytes.Index(data[from:], needle)
		if i < 0 {
			break
		}
		if !tally(&m, Range{from + i, from + i + len(needle)}) {
			break
		}
		from += i + 1
	}
	return m
}

// TestFindShortHalvesAgree: a file of splitMin bytes or more is searched
// as two halves at once; the joined answer is the oracle's with copies of
// the needles placed on both sides of the middle, across it and at the
// ends, in numbers that make each half's count, or only their sum, pass
// MatchCountLimit and the reported ranges.
func TestFindShortHalvesAgree(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 12))
	for i := range 40 {
		data := make([]byte, splitMin+rng.IntN(splitMin))
		for j := range data {
			data[j] = "ab\nxy"[rng.IntN(5)]
		}
		mid := len(data) / 2
		needle := []byte(fmt.Sprintf("<needle %d>", i))
		other := []byte("<other>")
		place := func(at int, n []byte) {
			if at >= 0 && at+len(n) <= len(data) {
				copy(data[at:], n)
			}
		}
		// Copies in the first half, in the second, one across the
		// middle at any cut of the needle, and at the very ends.
		copies := func() int { return []int{0, 1, 5, 6, 10, 11, 12, 13}[rng.IntN(8)] }
		for range copies() {
			place(rng.IntN(mid-len(needle)), needle)
		}
		for range copies() {
			place(mid+rng.IntN(len(data)-mid-len(needle)), needle)
		}
		if rng.IntN(2) == 0 { // starting just before, at or after the middle
			place(mid-1+rng.IntN(3), needle)
		} else {
			place(mid-rng.IntN(len(needle)+1), needle)
		}
		if rng.IntN(4) == 0 {
			place(len(data)-len(needle), needle)
			place(0, other)
		}
		if rng.IntN(3) == 0 {
			place(mid-rng.IntN(len(other)+1), other)
		}
		got := findShort(data, needle, other)
		for k, n := range [][]byte{needle, other} {
			if diff := cmp.Diff(indexOracle(data, n), got[k]); diff != "" {
				t.Fatalf("case %d, needle %q (-want +got):\n%s", i, n, diff)
			}
		}
		if diff := cmp.Diff(indexOracle(data, needle), Find(data, needle)); diff != "" {
			t.Fatalf("case %d: Find (-want +got):\n%s", i, diff)
		}
	}
}

// TestJoin pins how two halves' matches join at the limits.
func TestJoin(t *testing.T) {
	t.Parallel()
	ranges := func(from, n int) []Range {
		var out []Range
		for i := range n {
			out = append(out, Range{from + i, from + i + 1})
		}
		return out
	}
	half := func(from, count int, truncated bool) Matches {
		return Matches{Count: count, Truncated: truncated, Ranges: ranges(from, min(count, MaxReportedRanges))}
	}
	tests := []struct {
		name string
		a, b Matches
		want Matches
	}{
		{"none", Matches{}, Matches{}, Matches{}},
		{"second only", Matches{}, half(100, 1, false), half(100, 1, false)},
		{"one each", half(0, 1, false), half(100, 1, false), Matches{Count: 2, Ranges: []Range{{0, 1}, {100, 101}}}},
		{"eleven exactly", half(0, 5, false), half(100, 6, false),
			Matches{Count: 11, Ranges: append(ranges(0, 5), ranges(100, 5)...)}},
		{"twelve in all", half(0, 6, false), half(100, 6, false),
			Matches{Count: 11, Truncated: true, Ranges: append(ranges(0, 6), ranges(100, 4)...)}},
		{"first truncated", half(0, 11, true), half(100, 3, false), half(0, 11, true)},
		{"first truncated, none after", half(0, 11, true), Matches{}, half(0, 11, true)},
		{"second truncated", Matches{}, half(100, 11, true), half(100, 11, true)},
		{"second truncated after one", half(0, 1, false), half(100, 11, true),
			Matches{Count: 11, Truncated: true, Ranges: append(ranges(0, 1), ranges(100, 9)...)}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, join(tt.a, tt.b)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestParallelRaisesPanics: a panic on the other goroutine is raised in
// the caller's once both are done, where the caller can recover it; the
// caller's own panic wins.
func TestParallelRaisesPanics(t *testing.T) {
	t.Parallel()
	recovered := func(f, g func()) (p any) {
		defer func() { p = recover() }()
		parallel(f, g)
		return nil
	}
	ran := false
	if p := recovered(func() { ran = true }, func() { panic("g") }); p != "g" || !ran {
		t.Errorf("panic in g: recovered %v, f ran %v", p, ran)
	}
	gDone := false
	if p := recovered(func() { panic("f") }, func() { gDone = true }); p != "f" || !gDone {
		t.Errorf("panic in f: recovered %v, g done %v", p, gDone)
	}
	if p := recovered(func() {}, func() {}); p != nil {
		t.Errorf("no panic: recovered %v", p)
	}
}

// TestEqualHalves: a long comparison taken as two halves at once finds a
// difference in either half, at its edges too.
func TestEqualHalves(t *testing.T) {
	t.Parallel()
	a := bytes.Repeat([]byte("0123456789abcdef"), splitMin/8+3)
	if !equal(a, bytes.Clone(a)) {
		t.Error("equal bytes: not equal")
	}
	for _, at := range []int{0, len(a)/2 - 1, len(a) / 2, len(a) - 1} {
		b := bytes.Clone(a)
		b[at] ^= 1
		if equal(a, b) {
			t.Errorf("a byte changed at %d of %d: equal", at, len(a))
		}
	}
	if equal(a, a[:len(a)-1]) {
		t.Error("a shorter slice: equal")
	}
}

// TestFindJoinedNeedleOverhangingTheEnd: a long needle whose longest part
// starts where the needle cannot fit, at the end of the data, is not
// found there and is not compared past the end.
func TestFindJoinedNeedleOverhangingTheEnd(t *testing.T) {
	t.Parallel()
	long := bytes.Repeat([]byte("a long part "), joinedMin/12+1)
	data := append(bytes.Repeat([]byte("filler "), 1000), long...)
	data = data[:len(data):len(data)]
	for _, parts := range [][][]byte{{long, []byte("a")}, {long, []byte("after")}, {[]byte("x"), long, []byte("y")}} {
		if m := findJoined(data, parts...); m.Count != 0 {
			t.Errorf("%d parts: %d matches, want none", len(parts), m.Count)
		}
	}
	if m := findJoined(data, []byte("filler "), long); m.Count != 1 {
		t.Errorf("the needle that fits: %d matches, want 1", m.Count)
	}
	// The same by halves of the places, and searched along a short needle,
	// in one pass and by halves.
	large := append(bytes.Repeat([]byte("filler "), splitMin/7), long...)
	large = large[:len(large):len(large)]
	for _, parts := range [][][]byte{{long, []byte("a")}, {long, []byte("after")}, {[]byte("x"), long, []byte("y")}} {
		if m := findJoined(large, parts...); m.Count != 0 {
			t.Errorf("%d parts in %d bytes: %d matches, want none", len(parts), len(large), m.Count)
		}
	}
	for _, data := range [][]byte{data, large} {
		for _, parts := range [][][]byte{{long, []byte("a")}, {long, []byte("after")}, {[]byte("x"), long, []byte("y")}} {
			if m, _ := findBoth(data, parts, [][]byte{[]byte("ler")}); m.Count != 0 {
				t.Errorf("%d parts along another needle in %d bytes: %d matches, want none", len(parts), len(data), m.Count)
			}
		}
	}
}

// TestFindAlongAgreesWithFind: a long needle's probe searched along a
// short needle answers as findJoined does on each, on haystacks of a few
// letters either side of splitMin (one pass, or halves at once), with
// long needles cut from them across the middle and elsewhere, sometimes
// changed, and on a run of a's where the long needle's probe recurs
// everywhere (the budget runs out, in one half or both).
func TestFindAlongAgreesWithFind(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 11))
	check := func(name string, data []byte, a [][]byte, b []byte) {
		t.Helper()
		gotA, gotB := findBoth(data, a, [][]byte{b})
		if diff := cmp.Diff(findText(data, a...), gotA); diff != "" {
			t.Errorf("%s: long needle (-findText +findBoth):\n%s", name, diff)
		}
		if diff := cmp.Diff(Find(data, b), gotB); diff != "" {
			t.Errorf("%s: short needle (-Find +findBoth):\n%s", name, diff)
		}
	}
	for i := range 16 {
		data := make([]byte, splitMin-bothChunk+rng.IntN(3*bothChunk))
		for j := range data {
			data[j] = "ab\nx"[rng.IntN(2+i%3)]
		}
		n := joinedMin + rng.IntN(joinedMin)
		at := rng.IntN(len(data) - n)
		switch i % 4 {
		case 0:
			at = len(data)/2 - rng.IntN(n)
		case 1:
			at = len(data) - n // the last place
		}
		needle := bytes.Clone(data[at : at+n])
		if i%3 == 0 {
			needle[rng.IntN(n)] ^= 1
		}
		cut1 := rng.IntN(n + 1)
		cut2 := cut1 + rng.IntN(n-cut1+1)
		short := rng.IntN(len(data) - 8)
		check(fmt.Sprint("case ", i), data, [][]byte{needle[:cut1], needle[cut1:cut2], needle[cut2:]}, data[short:short+1+rng.IntN(8)])
	}
	check("no long needle", []byte("abc"), [][]byte{nil, nil}, []byte("b"))
	// The last place the long needle fits is the first of a stretch.
	n := joinedMin + 10
	edge := make([]byte, 2*bothChunk+n)
	for j := range edge {
		edge[j] = "ab\nx"[rng.IntN(4)]
	}
	check("the last place first in its stretch", edge, [][]byte{edge[len(edge)-n : len(edge)-5], edge[len(edge)-5:]}, []byte("ab"))
	run := bytes.Repeat([]byte("a"), splitMin+4*joinedMin)
	check("recurring probe", run, [][]byte{append(bytes.Repeat([]byte("a"), joinedMin/2), 'b'), run[:joinedMin]}, []byte("aa"))
	check("recurring probe, one write", run[:4*joinedMin], [][]byte{append(bytes.Repeat([]byte("a"), joinedMin/2), 'b'), run[:joinedMin]}, []byte("aa"))
	late := append(bytes.Clone(run), 'b')
	check("recurring probe, found at the end", late, [][]byte{run[:joinedMin], []byte("b")}, []byte("ab"))
	early := append([]byte("b"), run...)
	check("recurring probe, found at the start", early, [][]byte{[]byte("b"), run[:joinedMin]}, []byte("ba"))
	once := bytes.Clone(run)
	once[len(once)/4] = 'b'
	for j := len(once) / 2; j < len(once); j++ {
		once[j] = 'c'
	}
	check("recurring probe, found once in the first half", once, [][]byte{[]byte("b"), run[:joinedMin]}, []byte("ba"))
	// The short needle is counted to the limit in the first stretch; the
	// long one lies at the end.
	tail := make([]byte, splitMin+bothChunk)
	for j := range tail {
		tail[j] = "bcd"[rng.IntN(3)]
	}
	copy(tail, bytes.Repeat([]byte("a"), 64))
	check("the short needle done first", tail, [][]byte{tail[len(tail)-n : len(tail)-5], tail[len(tail)-5:]}, []byte("aa"))
	check("the short needle done first, one pass", tail[:3*bothChunk], [][]byte{tail[3*bothChunk-n : 3*bothChunk-5], tail[3*bothChunk-5 : 3*bothChunk]}, []byte("aa"))
}

// TestFirstPiece: the first true piece of every pattern of up to 7 pieces,
// or n, each piece before it looked at, and no piece looked at twice.
func TestFirstPiece(t *testing.T) {
	t.Parallel()
	for n := range 8 {
		for pattern := range 1 << n {
			want := n
			for i := n - 1; i >= 0; i-- {
				if pattern&(1<<i) != 0 {
					want = i
				}
			}
			var looked [8]atomic.Int32
			got := firstPiece(n, func() (func(int) bool, func()) {
				return func(i int) bool {
					if i >= n {
						t.Errorf("%d pieces: piece %d looked at", n, i)
						return true
					}
					looked[i].Add(1)
					return pattern&(1<<i) != 0
				}, func() {}
			})
			if got != want {
				t.Errorf("%d pieces, pattern %b: %d, want %d", n, pattern, got, want)
			}
			for i := range n {
				if c := looked[i].Load(); c > 1 || i < want && c != 1 {
					t.Errorf("%d pieces, pattern %b: piece %d looked at %d times", n, pattern, i, c)
				}
			}
		}
	}
}
