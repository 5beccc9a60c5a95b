package cases

import (
	"encoding/json"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file checks the expected error details and success results.

// rawErrorDetails is error as written.
type rawErrorDetails struct {
	Path             *string           `json:"path"`
	Phase            *string           `json:"phase"`
	Field            *string           `json:"field"`
	Anchor           *string           `json:"anchor"`
	Matches          *int              `json:"matches"`
	MatchesTruncated *bool             `json:"matches_truncated"`
	Ranges           []json.RawMessage `json:"ranges"`
	LineRanges       []json.RawMessage `json:"line_ranges"`
	SourceRange      json.RawMessage   `json:"source_range"`
	TargetRange      json.RawMessage   `json:"target_range"`
	PayloadSHA256    *string           `json:"payload_sha256"`
	SuggestedAction  *string           `json:"suggested_action"`
}

func (c *checker) errorDetails(field string, raw json.RawMessage) *ErrorDetails {
	var r rawErrorDetails
	if err := strictUnmarshal(raw, &r); err != nil {
		c.add(decodeError(field, err))
		return nil
	}
	d := &ErrorDetails{
		Path: r.Path, Phase: r.Phase, Field: r.Field, Anchor: r.Anchor,
		Matches: r.Matches, MatchesTruncated: r.MatchesTruncated,
		PayloadSHA256: r.PayloadSHA256, SuggestedAction: r.SuggestedAction,
	}
	var members map[string]json.RawMessage
	if json.Unmarshal(raw, &members) == nil && len(members) == 0 {
		c.errorf(field, "empty; leave it out")
		return nil
	}
	for name, s := range map[string]*string{"path": r.Path, "phase": r.Phase, "field": r.Field, "anchor": r.Anchor, "suggested_action": r.SuggestedAction} {
		if s != nil && *s == "" {
			c.errorf(fieldName(field, name), "empty string; an absent detail is not asserted, so leave it out")
		}
	}
	if r.Phase != nil && *r.Phase != "" && !slices.Contains(spec.Phases, *r.Phase) {
		c.errorf(fieldName(field, "phase"), "%q is not one of %s", *r.Phase, strings.Join(spec.Phases, ", "))
	}
	if r.PayloadSHA256 != nil && !sha256Hex.MatchString(*r.PayloadSHA256) {
		c.errorf(fieldName(field, "payload_sha256"), "not 64 lower-case hex digits")
	}
	if r.Matches != nil && *r.Matches < 0 {
		c.errorf(fieldName(field, "matches"), "negative")
	}
	if r.MatchesTruncated != nil {
		c.errorf(fieldName(field, "matches_truncated"), "state the exact count in matches instead: a truncated lower bound is accepted for it (MatchError)")
	}
	d.Ranges = c.ranges(fieldName(field, "ranges"), r.Ranges, 0)
	d.LineRanges = c.ranges(fieldName(field, "line_ranges"), r.LineRanges, 1)
	listed := -1
	if r.Matches != nil {
		listed = min(*r.Matches, spec.MaxReportedRanges)
	}
	for _, l := range []struct {
		name  string
		items []json.RawMessage
	}{{"ranges", r.Ranges}, {"line_ranges", r.LineRanges}} {
		if l.items != nil && listed >= 0 && len(l.items) != listed {
			c.errorf(fieldName(field, l.name), "%d items, but matches %d lists %d (decision D3)", len(l.items), *r.Matches, listed)
		}
	}
	if r.Ranges != nil && r.LineRanges != nil && len(r.Ranges) != len(r.LineRanges) {
		c.errorf(fieldName(field, "line_ranges"), "%d items for %d ranges; they describe the same matches", len(r.LineRanges), len(r.Ranges))
	}
	if r.SourceRange != nil {
		d.SourceRange = c.rangeValue(fieldName(field, "source_range"), r.SourceRange, 0)
	}
	if r.TargetRange != nil {
		d.TargetRange = c.rangeValue(fieldName(field, "target_range"), r.TargetRange, 0)
	}
	return d
}

func (c *checker) ranges(field string, items []json.RawMessage, low int) []Range {
	if items == nil {
		return nil
	}
	if len(items) == 0 {
		c.errorf(field, "empty list; an absent detail is not asserted, so leave it out")
	}
	if len(items) > spec.MaxReportedRanges {
		c.errorf(field, "%d items; an error lists at most %d (decision D3)", len(items), spec.MaxReportedRanges)
	}
	out := make([]Range, 0, len(items))
	for i, raw := range items {
		if r := c.rangeValue(fieldIndex(field, i), raw, low); r != nil {
			out = append(out, *r)
		}
	}
	return out
}

// rangeValue decodes {"start": s, "end": e} with low <= s <= e.
func (c *checker) rangeValue(field string, raw json.RawMessage, low int) *Range {
	var r struct {
		Start *int `json:"start"`
		End   *int `json:"end"`
	}
	if err := strictUnmarshal(raw, &r); err != nil {
		c.add(decodeError(field, err))
		return nil
	}
	switch {
	case r.Start == nil || r.End == nil:
		c.errorf(field, `a range needs both "start" and "end"`)
	case *r.Start < low:
		c.errorf(field, "start %d is below %d", *r.Start, low)
	case *r.Start > *r.End:
		c.errorf(field, "start %d is after end %d", *r.Start, *r.End)
	default:
		return &Range{Start: *r.Start, End: *r.End}
	}
	return nil
}

// rawResult and rawMove give the types of a result subset.
type rawResult struct {
	OK              *bool             `json:"ok"`
	Status          *string           `json:"status"`
	Changed         *[]string         `json:"changed"`
	Affected        *[]string         `json:"affected"`
	Written         *bool             `json:"written"`
	Noop            *bool             `json:"noop"`
	StripComponents *int              `json:"strip_components"`
	Moves           []json.RawMessage `json:"moves"`
	Warnings        []rawWarning      `json:"warnings"`
}

// rawWarning is one of the warnings a 1.1.1 move result may carry.
type rawWarning struct {
	Code            *string `json:"code"`
	Message         *string `json:"message"`
	Path            *string `json:"path"`
	Phase           *string `json:"phase"`
	Boundary        *string `json:"boundary"`
	SuggestedAction *string `json:"suggested_action"`
}

type rawMove struct {
	ID            *string         `json:"id"`
	Src           *string         `json:"src"`
	Dst           *string         `json:"dst"`
	PayloadSHA256 *string         `json:"payload_sha256"`
	PayloadBytes  *int            `json:"payload_bytes"`
	SourceRange   json.RawMessage `json:"source_range"`
	TargetRange   json.RawMessage `json:"target_range"`
	InsertIndex   json.RawMessage `json:"insert_index"`
}

var nullableMoveFields = []string{"source_range", "target_range", "insert_index"}

func (c *checker) result(field string, raw json.RawMessage, strip *int) map[string]any {
	var m map[string]any
	if firstByte(raw) != '{' || json.Unmarshal(raw, &m) != nil {
		c.errorf(field, "want an object, the expected subset of the success JSON")
		return nil
	}
	if len(m) == 0 {
		c.errorf(field, "empty; leave it out")
	}
	for k, v := range m {
		if v == nil && k != "warnings" {
			c.errorf(fieldName(field, k), "null; only warnings (no warnings) and a move's source_range, target_range and insert_index can be null")
		}
	}
	var r rawResult
	if err := strictUnmarshal(raw, &r); err != nil {
		c.add(decodeError(field, err))
		return m
	}
	if r.OK != nil && !*r.OK {
		c.errorf(fieldName(field, "ok"), "a success result has ok true")
	}
	if r.Status != nil && !slices.Contains(spec.Statuses, *r.Status) {
		c.errorf(fieldName(field, "status"), "%q is not one of %s", *r.Status, strings.Join(spec.Statuses, ", "))
	}
	if r.Status != nil && r.Noop != nil && *r.Noop != (*r.Status != "applied") {
		c.errorf(fieldName(field, "noop"), "%v contradicts status %q: noop is true exactly for noop and already_applied (decision D13)", *r.Noop, *r.Status)
	}
	if r.Status != nil && r.Changed != nil && *r.Status != "applied" && len(*r.Changed) > 0 {
		c.errorf(fieldName(field, "changed"), "not empty with status %q (decision D13)", *r.Status)
	}
	if r.Noop != nil && r.Changed != nil && *r.Noop != (len(*r.Changed) == 0) {
		c.errorf(fieldName(field, "changed"), "noop is %v but changed has %d paths (decision D13)", *r.Noop, len(*r.Changed))
	}
	if r.Written != nil && *r.Written && r.Status != nil && *r.Status != "applied" {
		c.errorf(fieldName(field, "written"), "true with status %q: nothing is written then", *r.Status)
	}
	if r.StripComponents != nil {
		switch {
		case *r.StripComponents < 0:
			c.errorf(fieldName(field, "strip_components"), "negative")
		case strip != nil && *strip != *r.StripComponents:
			c.errorf(fieldName(field, "strip_components"), "%d, but strip is %d", *r.StripComponents, *strip)
		}
	}
	if r.Changed != nil && r.Affected != nil {
		for _, p := range *r.Changed {
			if !slices.Contains(*r.Affected, p) {
				c.errorf(fieldName(field, "changed"), "%q is not in affected", p)
			}
		}
	}
	for i, w := range r.Warnings {
		f := fieldIndex(fieldName(field, "warnings"), i)
		if w.Code == nil || !slices.Contains(spec.WarningCodes, *w.Code) {
			c.errorf(fieldName(f, "code"), "want one of %s", strings.Join(spec.WarningCodes, ", "))
		}
		if w.Boundary != nil && !slices.Contains(spec.Boundaries, *w.Boundary) {
			c.errorf(fieldName(f, "boundary"), "%q is not one of %s", *w.Boundary, strings.Join(spec.Boundaries, ", "))
		}
		if w.Message != nil {
			c.errorf(fieldName(f, "message"), "messages are not part of the contract; leave it out")
		}
	}
	for i, mr := range r.Moves {
		c.move(fieldIndex(fieldName(field, "moves"), i), mr, r.Status)
	}
	return m
}

func (c *checker) move(field string, raw json.RawMessage, status *string) {
	var mv rawMove
	if err := strictUnmarshal(raw, &mv); err != nil {
		c.add(decodeError(field, err))
		return
	}
	var m map[string]any
	_ = json.Unmarshal(raw, &m)
	for k, v := range m {
		if v == nil && !slices.Contains(nullableMoveFields, k) {
			c.errorf(fieldName(field, k), "null; only source_range, target_range and insert_index can be null")
		}
	}
	if mv.PayloadSHA256 != nil && !sha256Hex.MatchString(*mv.PayloadSHA256) {
		c.errorf(fieldName(field, "payload_sha256"), "not 64 lower-case hex digits")
	}
	if mv.PayloadBytes != nil && *mv.PayloadBytes < 0 {
		c.errorf(fieldName(field, "payload_bytes"), "negative")
	}
	for _, rr := range []struct {
		name string
		raw  json.RawMessage
	}{{"source_range", mv.SourceRange}, {"target_range", mv.TargetRange}} {
		if rr.raw == nil || isNull(rr.raw) {
			continue
		}
		f := fieldName(field, rr.name)
		r := c.rangeValue(f, rr.raw, 0)
		if r != nil && rr.name == "source_range" && mv.PayloadBytes != nil && r.End-r.Start != *mv.PayloadBytes {
			c.errorf(f, "spans %d bytes, but payload_bytes is %d", r.End-r.Start, *mv.PayloadBytes)
		}
	}
	if mv.InsertIndex != nil && !isNull(mv.InsertIndex) {
		var n int
		if err := json.Unmarshal(mv.InsertIndex, &n); err != nil || n < 0 {
			c.errorf(fieldName(field, "insert_index"), "want null or a byte offset")
		}
	}
	if status != nil && *status == "already_applied" && mv.SourceRange != nil && !isNull(mv.SourceRange) {
		c.errorf(fieldName(field, "source_range"), "already_applied has no source range (decision D14)")
	}
}
