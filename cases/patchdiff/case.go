package pdcases

import (
	"encoding/json"
	"strconv"
)

// Case is one loaded, validated PatchDIFF case: one call of the core
// runtime and what it must answer.
type Case struct {
	// Name is the case file's path below the corpus root without ".json":
	// "find/overlap-aa-in-aaa". Its first element is the case's area.
	Name string

	// Requirements lists the requirement IDs the case checks.
	Requirements []string
	// Description says in one line why the expectation holds.
	Description string
	// Recommended marks a case that checks what the seed leaves open but
	// implementers should do: its failure never fails a certificate.
	Recommended bool

	// Operation is what the case asks of the applier: OperationApply (a
	// runtime call: Request and Expect), OperationObservedBatch (an
	// observed batch: Request, whose Transaction is the envelope, and
	// Expect) or OperationReplay (Replay).
	Operation string

	Request Request
	Expect  Expect
	// Replay is the replay request and expectation; nil for a runtime
	// call.
	Replay *ReplayCase
}

// Area returns the first element of the case's name.
func (c *Case) Area() string {
	for i := range len(c.Name) {
		if c.Name[i] == '/' {
			return c.Name[:i]
		}
	}
	return c.Name
}

// Request is the one runtime call a case makes.
type Request struct {
	// RuntimeVersion is the profile the call runs under; nil when the
	// case leaves it out to check that a missing profile fails closed.
	RuntimeVersion *string
	// Target is the target as submitted, before canonicalisation.
	Target Text
	// TargetVersion is the target's current version, for
	// expected_target_version; nil when not sent.
	TargetVersion *int64
	// Transaction is the transaction's JSON text.
	Transaction Transaction
	// ScopeBounds is the authoritative observed scope, when supplied.
	ScopeBounds *ScopeBounds
	// CollectWarnings is the collect_warnings member; nil when not sent
	// (the runtime's default, true).
	CollectWarnings *bool
}

// ScopeBounds is an observed scope in code points of the transaction-start
// canonical buffer.
type ScopeBounds struct {
	ScopeStart int `json:"scope_start"`
	ScopeEnd   int `json:"scope_end"`
}

// Transaction is the transaction a case submits. A case gives it as a JSON
// object, sent as its compact form (members, order, escapes and number
// spellings exactly as written), or as a Text holding any JSON text at all,
// well-formed or not.
type Transaction struct {
	// Object is the compact JSON of a transaction given as an object; nil
	// for one given as text.
	Object json.RawMessage
	// Text is the transaction given as text; zero for an object.
	Text Text
}

// JSON returns the transaction text as a JSON string literal, as a request
// carries it.
func (t Transaction) JSON() []byte {
	if t.Object != nil {
		return []byte(strconv.Quote(string(t.Object)))
	}
	return t.Text.JSON()
}

// Format returns the format member of a transaction given as an object
// with a string format, else "".
func (t Transaction) Format() string {
	if t.Object == nil {
		return ""
	}
	var v struct {
		Format any `json:"format"`
	}
	if json.Unmarshal(t.Object, &v) != nil {
		return ""
	}
	s, _ := v.Format.(string)
	return s
}

// The two statuses of a result.
const (
	Accepted = "accepted"
	Rejected = "rejected"
)

// Expect is what the runtime must answer: the members of its result that
// the seed pins. Hash members are checked by recomputing them (see
// README.md); the Pinned* members, when set, are checked as written too.
type Expect struct {
	Status          string
	ValidationStage string
	Validity        Validity
	// FailureReason is "" for an accepted call (null in the result).
	FailureReason string
	// ResultText is the canonical text after the transaction; accepted only.
	ResultText *Text
	// ChangeFacts are the facts of an accepted call, in order.
	ChangeFacts []Fact
	// Warnings are the warnings of an accepted call, in any order; each
	// is a subset of one warning. Accepted calls always state them.
	Warnings []map[string]any
	// Diagnostic is a subset of a rejected call's diagnostic; nil when the
	// case pins none of it.
	Diagnostic map[string]any
	// DiagnosticRecommended is a subset of the diagnostic whose values the
	// seed leaves open and spec/patchdiff chose (where an excerpt window
	// starts, which candidates are listed, spellings the seed does not
	// give): a difference there is only Recommended.
	DiagnosticRecommended map[string]any
	// DiagnosticLengths pins the code-point length of diagnostic strings
	// by dotted path ("failure_context.excerpt", "candidates.0.preview"),
	// so a budget is checked without committing megabytes.
	DiagnosticLengths map[string]int

	PinnedBeforeHash string
	PinnedAfterHash  string

	// AssemblyOrder is an accepted observed batch's assembly_order: the
	// group indices by descending scope_start (BATCH-017).
	AssemblyOrder []int
}

// Validity is the result's validity object.
type Validity struct {
	ProtocolValid    *bool  `json:"protocol_valid"`
	TransactionValid *bool  `json:"transaction_valid"`
	TaskCorrect      string `json:"task_correct"`
	Semantic         string `json:"semantic"`
}

// Fact is one expected change fact. MatchedText and ReplacementText are the
// case's own members: the canonical matched and replacement text, from
// which matched_sha256 and replacement_sha256 are recomputed.
type Fact struct {
	ChangeID          string
	Operation         string
	SpanStart         int
	SpanEnd           int
	MatchedChars      int
	ReplacementChars  int
	MatchedText       Text
	ReplacementText   Text
	PinnedMatchedSHA  string
	PinnedReplacedSHA string
	// Batch holds an observed batch's fact members; nil for a runtime
	// call's fact.
	Batch *BatchFact
}

// BatchFact is what an observed batch adds to a group's fact (BATCH-018):
// the group, the operation within it, the observation and the group's
// original scope. SpanStart and SpanEnd are then in the group's
// scope-local buffer.
type BatchFact struct {
	GroupIndex     int
	OperationIndex int
	ObservationID  string
	ScopeStart     int
	ScopeEnd       int
}

// RequestJSON returns the request a runner sends for the case (ADAPTER-001):
// its members in a fixed order, absent ones left out, the target and
// transaction as JSON strings with their escapes exactly as the case wrote
// them, so invalid text reaches the runtime unchanged.
func (c *Case) RequestJSON() []byte {
	if c.Replay != nil {
		return c.Replay.Request
	}
	r := &c.Request
	var b []byte
	b = append(b, '{')
	member := func(name string, value []byte) {
		if len(b) > 1 {
			b = append(b, ',')
		}
		b = append(b, '"')
		b = append(b, name...)
		b = append(b, '"', ':')
		b = append(b, value...)
	}
	if r.RuntimeVersion != nil {
		v, _ := json.Marshal(*r.RuntimeVersion)
		member("runtime_version", v)
	}
	member("target", r.Target.JSON())
	if r.TargetVersion != nil {
		member("target_version", strconv.AppendInt(nil, *r.TargetVersion, 10))
	}
	if c.Operation == OperationObservedBatch {
		member("batch", r.Transaction.JSON())
	} else {
		member("transaction", r.Transaction.JSON())
	}
	if r.ScopeBounds != nil {
		v, _ := json.Marshal(r.ScopeBounds)
		member("scope_bounds", v)
	}
	if r.CollectWarnings != nil {
		member("collect_warnings", strconv.AppendBool(nil, *r.CollectWarnings))
	}
	return append(b, '}')
}
