package patchdiff

import (
	"bytes"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Result is the runtime's answer to one Request (ADAPTER-004). Its JSON
// form, from MarshalJSON, is the result document: members in this order,
// null where the spec says null, result_text only when accepted and
// diagnostic only when rejected.
type Result struct {
	Status          string         `json:"status"`
	ValidationStage pdspec.Stage   `json:"validation_stage"`
	Validity        Validity       `json:"validity"`
	FailureReason   *pdspec.Reason `json:"failure_reason"`
	BeforeHash      *string        `json:"before_hash"`
	AfterHash       *string        `json:"after_hash"`
	ResultText      *string        `json:"result_text,omitempty"`
	ChangeFacts     []ChangeFact   `json:"change_facts"`
	Warnings        []Warning      `json:"warnings"`
	Diagnostic      *Diagnostic    `json:"diagnostic,omitempty"`
}

// Accepted reports whether the simulation accepted the transaction.
func (r *Result) Accepted() bool { return r.Status == pdspec.StatusAccepted }

// Reason returns the failure_reason, or "" when accepted.
func (r *Result) Reason() pdspec.Reason {
	if r.FailureReason == nil {
		return ""
	}
	return *r.FailureReason
}

// Validity is the validity object every result carries (STAGE-001,
// STAGE-002).
type Validity struct {
	ProtocolValid    *bool  `json:"protocol_valid"`
	TransactionValid *bool  `json:"transaction_valid"`
	TaskCorrect      string `json:"task_correct"`
	Semantic         string `json:"semantic"`
}

// ChangeFact is the runtime-derived fact of one accepted operation, in
// the sequential buffer's code points (FACT).
type ChangeFact struct {
	ChangeID          string `json:"change_id"`
	Operation         string `json:"operation"`
	SpanStart         int    `json:"span_start"`
	SpanEnd           int    `json:"span_end"`
	MatchedChars      int    `json:"matched_chars"`
	ReplacementChars  int    `json:"replacement_chars"`
	MatchedSHA256     string `json:"matched_sha256"`
	ReplacementSHA256 string `json:"replacement_sha256"`
}

// Warning is one advisory warning (WARN-007).
type Warning struct {
	Code      pdspec.WarningCode `json:"code"`
	EditIndex int                `json:"edit_index,omitempty"`
	ChangeID  string             `json:"change_id,omitempty"`
	// occurrence_index_basis_shift
	OccurrenceIndex *int64 `json:"occurrence_index,omitempty"`
	OriginalIndex   *int   `json:"original_index,omitempty"`
	// grapheme_boundary_split
	Offset *int `json:"offset,omitempty"`
	// basisShift marks an occurrence_index_basis_shift whose selected span
	// has no original occurrence, so original_index is written as null.
	basisShift bool
}

// MarshalJSON writes original_index as null when a basis shift found no
// original occurrence, and leaves it out of other warnings.
func (w Warning) MarshalJSON() ([]byte, error) {
	type plain Warning
	data, err := plainjson.Marshal(plain(w))
	if err != nil || !w.basisShift || w.OriginalIndex != nil {
		return data, err
	}
	return append(bytes.TrimSuffix(data, []byte("}")), []byte(`,"original_index":null}`)...), nil
}

// Diagnostic is the evidence of a rejection. Which members appear depends
// on the failure_reason (CANON-010, SPAN-004, SCOPE, EVIDENCE).
type Diagnostic struct {
	// target_encoding_invalid (CANON-010).
	InvalidInput string `json:"invalid_input,omitempty"`
	ByteOffset   *int   `json:"byte_offset,omitempty"`
	// manifest_invalid and other decoding faults: the member at fault.
	Path string `json:"path,omitempty"`
	// The failing operation (EVIDENCE-009).
	EditIndex int    `json:"edit_index,omitempty"`
	ChangeID  string `json:"change_id,omitempty"`
	// Scope admission (SCOPE).
	Code string `json:"code,omitempty"`
	// Span failures (SPAN-004).
	SpanCheck    string  `json:"span_check,omitempty"`
	BufferLength *int    `json:"buffer_length,omitempty"`
	ActualText   *string `json:"actual_text,omitempty"`
	// Every TRANSACTION_APPLICABILITY rejection (EVIDENCE-001).
	FailureContext *FailureContext `json:"failure_context,omitempty"`
	// match_ambiguous and disambiguation_invalid (EVIDENCE-004, -005).
	CandidateCount *int        `json:"candidate_count,omitempty"`
	Candidates     []Candidate `json:"candidates,omitempty"`
	FailureDetail  string      `json:"failure_detail,omitempty"`
	// match_absent (EVIDENCE-006, -007).
	NearMissQuery     *string `json:"near_miss_query,omitempty"`
	NearMissStatus    string  `json:"near_miss_status,omitempty"`
	MatchAbsentPrefix *string `json:"match_absent_prefix,omitempty"`
	// sequential_match_invalid (EVIDENCE-008).
	OriginalOccurrences []OriginalOccurrence `json:"original_occurrences,omitempty"`
	// Message says what is wrong, for people; no requirement reads it.
	Message string `json:"message,omitempty"`
}

// FailureContext is the bounded excerpt of the failing buffer
// (EVIDENCE-001 to EVIDENCE-003).
type FailureContext struct {
	Buffer       string `json:"buffer"`
	BufferLength int    `json:"buffer_length"`
	PriorChanges int    `json:"prior_changes"`
	ExcerptKind  string `json:"excerpt_kind"`
	ExcerptStart int    `json:"excerpt_start"`
	Excerpt      string `json:"excerpt"`
}

// Candidate is one exact occurrence offered as evidence (EVIDENCE-004).
type Candidate struct {
	OccurrenceIndex int    `json:"occurrence_index"`
	SpanStart       int    `json:"span_start"`
	SpanEnd         int    `json:"span_end"`
	ContextBefore   string `json:"context_before"`
	ContextAfter    string `json:"context_after"`
	Preview         string `json:"preview"`
}

// OriginalOccurrence is an occurrence of the transaction-start buffer that
// an earlier operation destroyed (EVIDENCE-008).
type OriginalOccurrence struct {
	OccurrenceIndex int     `json:"occurrence_index"`
	SpanStart       int     `json:"span_start"`
	SpanEnd         int     `json:"span_end"`
	OverlappedBy    *string `json:"overlapped_by"`
}

// MarshalJSON writes the result document without HTML escaping, so the
// same result always gives the same bytes (ADAPTER-005). json.Marshal
// escapes <, > and & in it again; an adapter writes r.MarshalJSON() or
// uses an Encoder with SetEscapeHTML(false).
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	p := plain(r)
	if p.ChangeFacts == nil {
		p.ChangeFacts = []ChangeFact{}
	}
	if p.Warnings == nil {
		p.Warnings = []Warning{}
	}
	return plainjson.Marshal(p)
}
