package cases

import (
	"encoding/json"
	"errors"
	"maps"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file checks the expected error details and success results.

// errorDetails reads an expected error object: the details of
// spec.ErrorDetailFields, each of its kind, then the rules that tie them.
func (c *checker) errorDetails(field string, raw json.RawMessage) *ErrorDetails {
	var members map[string]json.RawMessage
	if firstByte(raw) != '{' || json.Unmarshal(raw, &members) != nil {
		c.errorf(field, "got JSON %s, want an object", jsonKind(raw))
		return nil
	}
	if len(members) == 0 {
		c.errorf(field, "empty; leave it out")
		return nil
	}
	d := ErrorDetails{}
	var ranges, lineRanges []json.RawMessage
	for _, name := range slices.Sorted(maps.Keys(members)) {
		f, v := fieldName(field, name), members[name]
		detail, ok := spec.LookupDetail(name)
		if !ok {
			c.add(childField(field, name), errors.New("unknown field"))
			continue
		}
		switch detail.Kind {
		case spec.String:
			var s string
			if firstByte(v) != '"' || json.Unmarshal(v, &s) != nil {
				c.errorf(f, "got JSON %s, want a string", jsonKind(v))
				continue
			}
			if s == "" {
				c.errorf(f, "empty string; an absent detail is not asserted, so leave it out")
			}
			d[name] = s
		case spec.Integer:
			var n int
			if json.Unmarshal(v, &n) != nil {
				c.errorf(f, "got JSON %s, want an integer", jsonKind(v))
				continue
			}
			if n < 0 {
				c.errorf(f, "negative")
			}
			d[name] = float64(n)
		case spec.Boolean:
			var b bool
			if json.Unmarshal(v, &b) != nil {
				c.errorf(f, "got JSON %s, want true or false", jsonKind(v))
				continue
			}
			d[name] = b
		case spec.RangeKind:
			if r := c.rangeValue(f, v, 0); r != nil {
				d[name] = r.value()
			}
		case spec.RangeList:
			var items []json.RawMessage
			if firstByte(v) != '[' || json.Unmarshal(v, &items) != nil {
				c.errorf(f, "got JSON %s, want a list", jsonKind(v))
				continue
			}
			low := 0
			if name == "line_ranges" {
				low, lineRanges = 1, items
			} else {
				ranges = items
			}
			var list []any
			for _, r := range c.ranges(f, items, low) {
				list = append(list, r.value())
			}
			d[name] = list
		}
	}
	if p, ok := d["phase"].(string); ok && p != "" && !slices.Contains(spec.Phases, p) {
		c.errorf(fieldName(field, "phase"), "%q is not one of %s", p, strings.Join(spec.Phases, ", "))
	}
	if h, ok := d["payload_sha256"].(string); ok && !sha256Hex.MatchString(h) {
		c.errorf(fieldName(field, "payload_sha256"), "not 64 lower-case hex digits")
	}
	if _, ok := members["matches_truncated"]; ok {
		c.errorf(fieldName(field, "matches_truncated"), "state the exact count in matches instead: a truncated lower bound is accepted for it (MatchError)")
	}
	if m, ok := d["matches"].(float64); ok {
		listed := min(int(m), spec.MaxReportedRanges)
		for _, l := range []struct {
			name  string
			items []json.RawMessage
		}{{"ranges", ranges}, {"line_ranges", lineRanges}} {
			if l.items != nil && listed >= 0 && len(l.items) != listed {
				c.errorf(fieldName(field, l.name), "%d items, but matches %d lists %d (decision D3)", len(l.items), int(m), listed)
			}
		}
	}
	if ranges != nil && lineRanges != nil && len(ranges) != len(lineRanges) {
		c.errorf(fieldName(field, "line_ranges"), "%d items for %d ranges; they describe the same matches", len(lineRanges), len(ranges))
	}
	return &d
}

// jsonKind names the kind of a JSON value for a message.
func jsonKind(raw json.RawMessage) string {
	switch b := firstByte(raw); {
	case b == '"':
		return "string"
	case b == '{':
		return "object"
	case b == '[':
		return "array"
	case b == 't' || b == 'f':
		return "bool"
	case b == 'n':
		return "null"
	}
	return "number"
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
