package patchdiff

import (
	"github.com/rivo/uniseg"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// collectWarnings adds operation i's advisory warnings in WARN-008's order.
// It reads s.buf before the operation moves it on, and changes nothing
// else (WARN-005).
func (s *simulation) collectWarnings(i int, op *Operation, fact ChangeFact, matched string, shift *Warning) {
	if matched == op.Replace {
		s.warnings = append(s.warnings, Warning{Code: pdspec.NoOpChange, EditIndex: i + 1, ChangeID: op.ChangeID})
	}
	if shift != nil {
		s.warnings = append(s.warnings, *shift)
	}
	offsets := []int{fact.SpanStart}
	if fact.SpanEnd != fact.SpanStart {
		offsets = append(offsets, fact.SpanEnd)
	}
	for _, off := range offsets {
		if !s.graphemeBoundary(off) {
			o := off
			s.warnings = append(s.warnings, Warning{Code: pdspec.GraphemeBoundarySplit, EditIndex: i + 1, ChangeID: op.ChangeID, Offset: &o})
		}
	}
}

// basisShift maps the span a sequential occurrence_index selected back
// through the earlier changes to the transaction-start buffer and returns
// the warning when it is not the original occurrence of the same index
// (WARN-003), or nil.
func (s *simulation) basisShift(i int, op *Operation, from, to int) *Warning {
	mapped := true
	for k := len(s.facts) - 1; k >= 0 && mapped; k-- {
		f := s.facts[k]
		a, r := f.SpanStart, f.ReplacementChars
		switch {
		case r > 0 && from < a+r && a < to, r == 0 && from < a && a < to:
			mapped = false // the span touches text an earlier change wrote
		case from >= a+r:
			d := f.MatchedChars - r
			from, to = from+d, to+d
		}
	}
	orig := -1
	if mapped {
		n := 0
		forEachOccurrence(s.start, op.Match, func(o occurrence) bool {
			n++
			if o.cp == from {
				orig = n
			}
			return o.cp < from
		})
	}
	if orig == int(*op.OccurrenceIndex) {
		return nil
	}
	idx := *op.OccurrenceIndex
	w := &Warning{Code: pdspec.OccurrenceIndexBasisShift, EditIndex: i + 1, ChangeID: op.ChangeID, OccurrenceIndex: &idx, basisShift: true}
	if orig > 0 {
		w.OriginalIndex = &orig
	}
	return w
}

// graphemeBoundary reports whether code point offset off of s.buf is an
// extended grapheme cluster boundary (UAX #29). It segments only the
// window of GraphemeWindow code points either side (WARN-004): a cluster
// longer than the window may be judged a boundary, so the warning can be
// missed but is never raised on a boundary the window shows whole.
func (s *simulation) graphemeBoundary(off int) bool {
	if off <= 0 || off >= s.buf.n {
		return true
	}
	w := s.budget.GraphemeWindow
	lo := max(0, off-w)
	bLo := s.buf.byteAt(lo)
	bOff := byteOffset(s.buf.s, bLo, off-lo)
	bHi := byteOffset(s.buf.s, bOff, w)
	window := s.buf.s[bLo:bHi]
	target := bOff - bLo
	state := -1
	for pos := 0; pos < len(window); {
		cluster, rest, _, st := uniseg.FirstGraphemeClusterInString(window[pos:], state)
		state = st
		pos += len(cluster)
		if pos == target {
			return true
		}
		if pos > target {
			return false
		}
		_ = rest
	}
	return true
}
