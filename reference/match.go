package reference

import "bytes"

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
// len(data)+len(needle) whatever the input: the common case uses the
// runtime's vectorised search, and once a second hit shows the needle is
// ambiguous the rest of the count uses Knuth-Morris-Pratt.
func Find(data, needle []byte) Matches {
	var m Matches
	scan(data, needle, func(start int) bool {
		if m.Count == MatchCountLimit {
			m.Truncated = true
			return false
		}
		m.Count++
		if len(m.Ranges) < MaxReportedRanges {
			m.Ranges = append(m.Ranges, Range{start, start + len(needle)})
		}
		return true
	})
	return m
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
	// Fast path: a unique needle costs two vectorised searches.
	from := 0
	for hits := 0; hits < 2; hits++ {
		i := bytes.Index(data[from:], needle)
		if i < 0 {
			return
		}
		if !yield(from + i) {
			return
		}
		from += i + 1
	}
	kmpScan(data, needle, from, yield)
}

// kmpScan reports the occurrences of needle starting at or after from.
func kmpScan(data, needle []byte, from int, yield func(start int) bool) {
	if from+len(needle) > len(data) {
		return
	}
	fail := make([]int32, len(needle))
	for i, k := 1, int32(0); i < len(needle); i++ {
		for k > 0 && needle[i] != needle[k] {
			k = fail[k-1]
		}
		if needle[i] == needle[k] {
			k++
		}
		fail[i] = k
	}
	k := int32(0)
	for i := from; i < len(data); i++ {
		for k > 0 && data[i] != needle[k] {
			k = fail[k-1]
		}
		if data[i] == needle[k] {
			k++
		}
		if int(k) == len(needle) {
			if !yield(i + 1 - len(needle)) {
				return
			}
			k = fail[k-1]
		}
	}
}

// LineRanges converts byte ranges of data, in ascending order of Start, to
// 1-based inclusive line ranges: the lines holding the first and the last
// byte of each range. An empty range covers the line its offset is on.
func LineRanges(data []byte, ranges []Range) []Range {
	out := make([]Range, 0, len(ranges))
	line, at := 1, 0 // line is the line number of offset at
	for _, r := range ranges {
		line += bytes.Count(data[at:r.Start], newline)
		at = r.Start
		last := max(r.End-1, r.Start)
		out = append(out, Range{line, line + bytes.Count(data[r.Start:last], newline)})
	}
	return out
}

var newline = []byte{'\n'}
