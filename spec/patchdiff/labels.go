package pdspec

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"
)

//go:embed labels.json
var labelsJSON []byte

// Reason is a failure_reason label. The constants mirror labels.json
// (a test keeps them equal); callers branch on them, never on text.
type Reason string

// The seed's canonical core failure labels, in its order.
const (
	ContextMissing           Reason = "context_missing"
	ContextInvalid           Reason = "context_invalid"
	TargetNotFound           Reason = "target_not_found"
	TargetEncodingInvalid    Reason = "target_encoding_invalid"
	ManifestMissing          Reason = "manifest_missing"
	ManifestInvalid          Reason = "manifest_invalid"
	BlockMalformed           Reason = "block_malformed"
	MatchAbsent              Reason = "match_absent"
	MatchAmbiguous           Reason = "match_ambiguous"
	DisambiguationInvalid    Reason = "disambiguation_invalid"
	TargetHashMismatch       Reason = "target_hash_mismatch"
	TargetVersionMismatch    Reason = "target_version_mismatch"
	TargetDiverged           Reason = "target_diverged"
	SequentialMatchInvalid   Reason = "sequential_match_invalid"
	TransactionInternalError Reason = "transaction_internal_error"
)

// The span failure labels the seed names in its span rules (STAGE-008).
const (
	SpanOutOfBounds          Reason = "span_out_of_bounds"
	SpanExpectedTextMismatch Reason = "span_expected_text_mismatch"
)

// The replay-only labels; the runtime never reports them (STAGE-004).
const (
	ReplayHashMismatch       Reason = "replay_hash_mismatch"
	ReplayProtocolInvalid    Reason = "replay_protocol_invalid"
	ReplayTransactionInvalid Reason = "replay_transaction_invalid"
)

// Stage is a ValidationStage.
type Stage string

// The validation stages in the seed's order (STAGE-001).
const (
	PreconditionGuard        Stage = "PRECONDITION_GUARD"
	ProtocolValidation       Stage = "PROTOCOL_VALIDATION"
	TransactionApplicability Stage = "TRANSACTION_APPLICABILITY"
	CommitGuard              Stage = "COMMIT_GUARD"
	Accepted                 Stage = "ACCEPTED"
)

// WarningCode is an advisory warning's code (WARN).
type WarningCode string

// The advisory warnings.
const (
	NoOpChange                WarningCode = "no_op_change"
	NoOpTransaction           WarningCode = "no_op_transaction"
	OccurrenceIndexBasisShift WarningCode = "occurrence_index_basis_shift"
	GraphemeBoundarySplit     WarningCode = "grapheme_boundary_split"
)

// The diagnostic codes of observed scope admission (SCOPE).
const (
	ObservedInsertionGuardsRequired = "OBSERVED_INSERTION_GUARDS_REQUIRED"
	OperationOutsideObservedScope   = "OPERATION_OUTSIDE_OBSERVED_SCOPE"
)

// Formats, operation kinds and other fixed strings of the result.
const (
	FormatTx1 = "patchdiff-tx/1"
	FormatTx2 = "patchdiff-tx/2"
	FormatTx3 = "patchdiff-tx/3"

	OpMatch      = "match"
	OpSpan       = "span"
	OpReplaceAll = "replace_all"

	NotEvaluated = "not_evaluated"

	StatusAccepted = "accepted"
	StatusRejected = "rejected"

	BufferTransactionStart  = "transaction_start"
	BufferIntermediate      = "intermediate_buffer"
	ExcerptPrefix           = "prefix"
	ExcerptWindow           = "window"
	NearMissCaptured        = "captured"
	NearMissMatchTooLarge   = "match_too_large"
	InvalidInputTarget      = "target"
	InvalidInputTransaction = "transaction"

	SpanCheckBounds         = "bounds"
	SpanCheckExpectedText   = "expected_text"
	SpanCheckExpectedBefore = "expected_before"
	SpanCheckExpectedAfter  = "expected_after"

	// DetailSequentialBuffer is failure_detail after earlier simulated
	// operations (EVIDENCE-005).
	DetailSequentialBuffer = "selectors_count_sequential_buffer"
)

// StageInfo is one validation stage with the validity it reports.
type StageInfo struct {
	Name             Stage `json:"name"`
	ProtocolValid    *bool `json:"protocol_valid"`
	TransactionValid *bool `json:"transaction_valid"`
	// Runtime is false for COMMIT_GUARD, which only the service reports.
	Runtime bool `json:"runtime"`
}

// Budgets are the evidence budgets (EVIDENCE) and decoding limits
// (DECODE-005, DECODE-019); every count is in code points except the
// candidate and occurrence counts.
type Budgets struct {
	FailureContext      int   `json:"failure_context_code_points"`     // 256
	Candidates          int   `json:"candidates"`                      // 5
	CandidateContext    int   `json:"candidate_context_code_points"`   // 20
	CandidatePreview    int   `json:"candidate_preview_code_points"`   // 64
	NearMissQuery       int   `json:"near_miss_query_code_points"`     // 64
	ActualText          int   `json:"actual_text_code_points"`         // 64
	MatchAbsentPrefix   int   `json:"match_absent_prefix_code_points"` // 65,536
	OriginalOccurrences int   `json:"original_occurrences"`            // 5
	JSONNestingDepth    int   `json:"json_nesting_depth"`              // 64
	MaxInteger          int64 `json:"max_integer"`                     // 2^53-1
	GraphemeWindow      int   `json:"grapheme_window_code_points"`     // 64
}

// Labels is labels.json.
type Labels struct {
	FailureReasons        []Reason      `json:"failure_reasons"`
	ReplayFailureReasons  []Reason      `json:"replay_failure_reasons"`
	RuntimeFailureReasons []Reason      `json:"runtime_failure_reasons"`
	ValidationStages      []StageInfo   `json:"validation_stages"`
	NotEvaluated          string        `json:"not_evaluated"`
	Statuses              []string      `json:"statuses"`
	Formats               []string      `json:"formats"`
	Operations            []string      `json:"operations"`
	Risks                 []string      `json:"risks"`
	WarningCodes          []WarningCode `json:"warning_codes"`
	DiagnosticCodes       []string      `json:"diagnostic_codes"`
	SpanChecks            []string      `json:"span_checks"`
	Buffers               []string      `json:"buffers"`
	ExcerptKinds          []string      `json:"excerpt_kinds"`
	NearMissStatuses      []string      `json:"near_miss_statuses"`
	InvalidInputs         []string      `json:"invalid_inputs"`
	FailureDetails        []string      `json:"failure_details"`
	ChangeIDFormat        string        `json:"change_id_format"`
	Budgets               Budgets       `json:"budgets"`
}

var labels = sync.OnceValue(func() Labels {
	var l Labels
	if err := json.Unmarshal(labelsJSON, &l); err != nil {
		return Labels{}
	}
	return l
})

// LabelSet returns labels.json decoded; its slices are copies.
func LabelSet() Labels {
	l := labels()
	l.FailureReasons = slices.Clone(l.FailureReasons)
	l.ReplayFailureReasons = slices.Clone(l.ReplayFailureReasons)
	l.RuntimeFailureReasons = slices.Clone(l.RuntimeFailureReasons)
	l.ValidationStages = slices.Clone(l.ValidationStages)
	l.Statuses = slices.Clone(l.Statuses)
	l.Formats = slices.Clone(l.Formats)
	l.Operations = slices.Clone(l.Operations)
	l.Risks = slices.Clone(l.Risks)
	l.WarningCodes = slices.Clone(l.WarningCodes)
	l.DiagnosticCodes = slices.Clone(l.DiagnosticCodes)
	l.SpanChecks = slices.Clone(l.SpanChecks)
	l.Buffers = slices.Clone(l.Buffers)
	l.ExcerptKinds = slices.Clone(l.ExcerptKinds)
	l.NearMissStatuses = slices.Clone(l.NearMissStatuses)
	l.InvalidInputs = slices.Clone(l.InvalidInputs)
	l.FailureDetails = slices.Clone(l.FailureDetails)
	return l
}

// Budget returns the evidence budgets and decoding limits.
func Budget() Budgets { return labels().Budgets }

// StageValidity returns the protocol_valid and transaction_valid a stage
// reports (STAGE-001); ok is false for an unknown stage.
func StageValidity(s Stage) (protocolValid, transactionValid *bool, ok bool) {
	for _, st := range labels().ValidationStages {
		if st.Name == s {
			return st.ProtocolValid, st.TransactionValid, true
		}
	}
	return nil, nil, false
}
