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
// len(data)+len(needle) whatever the input: it stops counting at
// MatchCountLimit, and each occurrence is found by one finder (search.go),
// prepared once, whose search is linear in the bytes it passes plus the
// needle's length.
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
	f := newFinder(data, needle)
	for from := 0; from <= len(data); {
		i := f.index(data, from)
		if i < 0 || !yield(i) {
			return
		}
		from = i + 1
	}
}

// envelopes pairs each occurrence of before with the first occurrence of
// after that starts at or after its end. The occurrences of after are
// found in one pass: the one found for an earlier occurrence of before
// serves every later one that ends at or before it.
func envelopes(data, before, after []byte) Matches {
	var m Matches
	a := -1 // the first occurrence of after at or after the latest end
	fa := newFinder(data, after)
	scan(data, before, func(b int) bool {
		end := b + len(before)
		if a < end {
			if a = fa.index(data, end); a < 0 {
				return false
			}
		}
		if m.Count == MatchCountLimit {
			m.Truncated = true
			return false
		}
		m.Count++
		if len(m.Ranges) < MaxReportedRanges {
			m.Ranges = append(m.Ranges, Range{b, a + len(after)})
		}
		return true
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
		line += bytes.Count(data[at:r.Start], newline)
		at = r.Start
		last := max(r.End-1, r.Start)
		out = append(out, Range{line, line + bytes.Count(data[r.Start:last], newline)})
	}
	return out
}

var newline = []byte{'\n'}
