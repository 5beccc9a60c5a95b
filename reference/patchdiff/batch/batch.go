package batch

import (
	"bytes"
	"fmt"
	"slices"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Request is one observed batch call (BATCH-002).
type Request struct {
	// RuntimeVersion must be the batch's, patchdiff-observed-batch-r1
	// (BATCH-003).
	RuntimeVersion string
	// Target is the whole target text as submitted; TargetVersion its
	// version, which the envelope's expected_target_version is checked
	// against (BATCH-007).
	Target        string
	TargetVersion *int64
	// Batch is the envelope's JSON text.
	Batch string
	// CollectWarnings is handed to every group's application (BATCH-020).
	CollectWarnings bool
}

// DecodeRequest reads a batch request document (BATCH-002). Its error is a
// protocol error of the adapter, as the runtime's DecodeRequest's.
func DecodeRequest(data []byte) (Request, error) {
	r, err := pd.DecodeBatchRequest(data)
	return Request{RuntimeVersion: r.RuntimeVersion, Target: r.Target, TargetVersion: r.TargetVersion, Batch: r.Transaction, CollectWarnings: r.CollectWarnings}, err
}

// Result is a batch's answer (BATCH-022): a runtime result's members, with
// batch facts and warnings, and assembly_order when accepted.
type Result struct {
	Status          string         `json:"status"`
	ValidationStage pdspec.Stage   `json:"validation_stage"`
	Validity        pd.Validity    `json:"validity"`
	FailureReason   *pdspec.Reason `json:"failure_reason"`
	BeforeHash      *string        `json:"before_hash"`
	AfterHash       *string        `json:"after_hash"`
	ResultText      *string        `json:"result_text,omitempty"`
	// AssemblyOrder lists the group_index of each group in the order its
	// local result was put into the target: descending scope_start
	// (BATCH-017).
	AssemblyOrder []int       `json:"assembly_order,omitempty"`
	ChangeFacts   []Fact      `json:"change_facts"`
	Warnings      []Warning   `json:"warnings"`
	Diagnostic    *Diagnostic `json:"diagnostic,omitempty"`
}

// Accepted reports whether the batch was accepted.
func (r *Result) Accepted() bool { return r.Status == pdspec.StatusAccepted }

// Reason returns the failure_reason, or "" when accepted.
func (r *Result) Reason() pdspec.Reason {
	if r.FailureReason == nil {
		return ""
	}
	return *r.FailureReason
}

// Fact is a group's runtime change fact, in the scope-local buffer's
// sequential coordinates, with the group it came from (BATCH-018).
type Fact struct {
	GroupIndex     int    `json:"group_index"`
	OperationIndex int    `json:"operation_index"`
	ObservationID  string `json:"observation_id"`
	ScopeStart     int    `json:"scope_start"`
	ScopeEnd       int    `json:"scope_end"`
	pd.ChangeFact
}

// Warning is a group's warning with its group (BATCH-020).
type Warning struct {
	GroupIndex int
	pd.Warning
}

// MarshalJSON writes the runtime warning with group_index first.
func (w Warning) MarshalJSON() ([]byte, error) {
	inner, err := w.Warning.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return fmt.Appendf(nil, `{"group_index":%d,%s`, w.GroupIndex, inner[1:]), nil
}

// Diagnostic is a rejection's evidence: the failing group's runtime
// diagnostic (BATCH-015) or the envelope's fault, with the group it
// concerns.
type Diagnostic struct {
	GroupIndex    int    `json:"group_index,omitempty"`
	ObservationID string `json:"observation_id,omitempty"`
	*pd.Diagnostic
}

// MarshalJSON writes the result document without HTML escaping (BATCH-022).
func (r Result) MarshalJSON() ([]byte, error) {
	type plain Result
	p := plain(r)
	if p.ChangeFacts == nil {
		p.ChangeFacts = []Fact{}
	}
	if p.Warnings == nil {
		p.Warnings = []Warning{}
	}
	return plainjson.Marshal(p)
}

func stageResult(stage pdspec.Stage, before *string) Result {
	pv, tv, _ := pdspec.StageValidity(stage)
	return Result{ValidationStage: stage, BeforeHash: before,
		Validity: pd.Validity{ProtocolValid: pv, TransactionValid: tv, TaskCorrect: pdspec.NotEvaluated, Semantic: pdspec.NotEvaluated}}
}

func reject(before *string, reason pdspec.Reason, stage pdspec.Stage, d *Diagnostic) Result {
	r := stageResult(stage, before)
	r.Status = pdspec.StatusRejected
	r.FailureReason = &reason
	r.Diagnostic = d
	return r
}

// rejectFault turns a fault before the groups into its result.
func rejectFault(before *string, f *fault) Result {
	d := &pd.Diagnostic{Path: f.path, Message: f.msg}
	if f.reason == pdspec.TargetEncodingInvalid {
		d = &pd.Diagnostic{InvalidInput: pdspec.InvalidInputTarget} // CANON-010: markers only
		if f.offset >= 0 {
			off := f.offset
			d.InvalidInput, d.ByteOffset = pdspec.InvalidInputTransaction, &off
		}
	}
	return reject(before, f.reason, f.stage, &Diagnostic{GroupIndex: f.group, Diagnostic: d})
}

// Apply evaluates an observed batch (BATCH): never an error, never a
// panic. Checks run in BATCH-021's order; then the groups are applied in
// envelope order and assembled in descending scope order.
func Apply(req Request) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = reject(res.BeforeHash, pdspec.TransactionInternalError, pdspec.TransactionApplicability,
				&Diagnostic{Diagnostic: &pd.Diagnostic{Message: fmt.Sprint("internal fault: ", p)}})
		}
	}()
	bp := pdspec.ObservedBatch()
	targetOK := pd.ValidText(req.Target)
	var canon string
	var before *string
	if targetOK {
		canon = pd.Canonicalize(req.Target)
		h := pd.Hash(canon)
		before = &h
	}
	res.BeforeHash = before
	if req.RuntimeVersion != bp.RuntimeVersion {
		return rejectFault(before, &fault{reason: pdspec.ContextInvalid, stage: pdspec.PreconditionGuard, offset: -1,
			msg: fmt.Sprintf("runtime_version %q is not the observed batch's %q", req.RuntimeVersion, bp.RuntimeVersion)})
	}
	if !targetOK {
		return rejectFault(nil, &fault{reason: pdspec.TargetEncodingInvalid, stage: pdspec.ProtocolValidation, offset: -1})
	}
	top, f := readEnvelopeText(req.Batch)
	if f != nil {
		return rejectFault(before, f)
	}
	env := &Envelope{}
	if env.ExpectedTargetVersion, env.ExpectedCurrentHash, f = readGuards(top); f != nil {
		return rejectFault(before, f)
	}
	if f := checkGuards(req, env, *before); f != nil {
		return rejectFault(before, f)
	}
	if f := readStructure(top, env); f != nil {
		return rejectFault(before, f)
	}
	spans, f := scopeEvidence(canon, env)
	if f != nil {
		return rejectFault(before, f)
	}
	return applyGroups(req, env, canon, spans, before)
}

// checkGuards compares both global guards with the target (BATCH-007).
func checkGuards(req Request, env *Envelope, hash string) *fault {
	pre := func(reason pdspec.Reason, path, format string, args ...any) *fault {
		return &fault{reason: reason, stage: pdspec.PreconditionGuard, path: path, offset: -1, msg: fmt.Sprintf(format, args...)}
	}
	switch {
	case req.TargetVersion == nil:
		return pre(pdspec.ContextMissing, "", "expected_target_version needs the request's target_version")
	case *req.TargetVersion != env.ExpectedTargetVersion:
		return pre(pdspec.TargetVersionMismatch, "$.expected_target_version", "expected version %d, the target is at %d", env.ExpectedTargetVersion, *req.TargetVersion)
	case env.ExpectedCurrentHash != hash:
		return pre(pdspec.TargetHashMismatch, "$.expected_current_hash", "expected_current_hash differs from the canonical target's hash")
	}
	return nil
}

// scopeEvidence checks every group's bounds against the target, then every
// group's target_hash against its slice (BATCH-012, BATCH-013), and returns
// the slices, the groups' original scope-local buffers.
func scopeEvidence(canon string, env *Envelope) ([]byteSpan, *fault) {
	n := utf8.RuneCountInString(canon)
	for i, g := range env.Groups {
		if g.ScopeEnd > n {
			return nil, &fault{reason: pdspec.ContextInvalid, stage: pdspec.PreconditionGuard, path: fmt.Sprintf("$.groups[%d].scope_bounds", i), group: i + 1, offset: -1,
				msg: fmt.Sprintf("scope [%d, %d) does not lie within the target's %d code points", g.ScopeStart, g.ScopeEnd, n)}
		}
	}
	spans := byteSpans(canon, env.Groups)
	for i, g := range env.Groups {
		if h := pd.Hash(canon[spans[i].from:spans[i].to]); h != g.TargetHash {
			return nil, &fault{reason: pdspec.TargetHashMismatch, stage: pdspec.PreconditionGuard, path: fmt.Sprintf("$.groups[%d].target_hash", i), group: i + 1, offset: -1,
				msg: fmt.Sprintf("target_hash %s, the target's slice [%d, %d) hashes to %s", g.TargetHash, g.ScopeStart, g.ScopeEnd, h)}
		}
	}
	return spans, nil
}

// byteSpan is a group's scope in bytes of the canonical target.
type byteSpan struct{ from, to int }

// byteSpans converts every group's code-point scope to bytes in one pass.
func byteSpans(canon string, groups []Group) []byteSpan {
	var cps []int
	for _, g := range groups {
		cps = append(cps, g.ScopeStart, g.ScopeEnd)
	}
	sorted := slices.Clone(cps)
	slices.Sort(sorted)
	at := map[int]int{}
	cp, b := 0, 0
	for _, want := range sorted {
		for cp < want {
			_, size := utf8.DecodeRuneInString(canon[b:])
			b += size
			cp++
		}
		at[want] = b
	}
	out := make([]byteSpan, len(groups))
	for i, g := range groups {
		out[i] = byteSpan{at[g.ScopeStart], at[g.ScopeEnd]}
	}
	return out
}

// applyGroups applies each group to its slice through the runtime
// (BATCH-014, BATCH-015) and assembles the accepted results (BATCH-017 to
// BATCH-020).
func applyGroups(req Request, env *Envelope, canon string, spans []byteSpan, before *string) Result {
	bp := pdspec.ObservedBatch()
	var facts []Fact
	var warnings []Warning
	local := make([]string, len(env.Groups))
	for i, g := range env.Groups {
		slice := canon[spans[i].from:spans[i].to]
		r := pd.Apply(pd.Request{
			RuntimeVersion:  bp.GroupRuntimeVersion,
			Target:          slice,
			Transaction:     localTransaction(g.Transaction, pd.Hash(slice)),
			Scope:           &pd.Scope{Start: 0, End: int64(utf8.RuneCountInString(slice))},
			CollectWarnings: req.CollectWarnings,
		})
		if !r.Accepted() {
			return reject(before, r.Reason(), r.ValidationStage, &Diagnostic{GroupIndex: i + 1, ObservationID: g.ObservationID, Diagnostic: r.Diagnostic})
		}
		for k, cf := range r.ChangeFacts {
			facts = append(facts, Fact{GroupIndex: i + 1, OperationIndex: k + 1, ObservationID: g.ObservationID, ScopeStart: g.ScopeStart, ScopeEnd: g.ScopeEnd, ChangeFact: cf})
		}
		for _, w := range r.Warnings {
			warnings = append(warnings, Warning{GroupIndex: i + 1, Warning: w})
		}
		local[i] = *r.ResultText
	}
	order := make([]int, len(env.Groups))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return env.Groups[b].ScopeStart - env.Groups[a].ScopeStart })
	var out bytes.Buffer
	out.Grow(len(canon))
	prev := len(canon)
	// Descending scope order: each replacement leaves the offsets of the
	// scopes before it as they were. The pieces are written back to front
	// and reversed once, so the assembly costs one copy of the text.
	pieces := make([]string, 0, 2*len(order)+1)
	for _, i := range order {
		pieces = append(pieces, canon[spans[i].to:prev], local[i])
		prev = spans[i].from
	}
	pieces = append(pieces, canon[:prev])
	for k := len(pieces) - 1; k >= 0; k-- {
		out.WriteString(pieces[k])
	}
	text := out.String()
	after := pd.Hash(text)
	res := stageResult(pdspec.Accepted, before)
	res.Status = pdspec.StatusAccepted
	res.ResultText, res.AfterHash = &text, &after
	res.ChangeFacts, res.Warnings = facts, warnings
	for _, i := range order {
		res.AssemblyOrder = append(res.AssemblyOrder, i+1)
	}
	return res
}
