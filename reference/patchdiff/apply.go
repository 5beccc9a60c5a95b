package patchdiff

import (
	"fmt"
	"strings"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Request is one runtime call (ADAPTER-001).
type Request struct {
	// RuntimeVersion names the profile ("patchdiff-mvp-0.2.2"); empty or
	// unknown fails closed (PROFILE-002).
	RuntimeVersion string
	// Target is the target text as submitted; Apply canonicalizes it. Text
	// that is not UTF-8 (a lone surrogate arrives in its three-byte form)
	// or holds NUL is rejected (CANON-007).
	Target string
	// TargetVersion is the target's current version, which an
	// expected_target_version guard is checked against (GUARD-002).
	TargetVersion *int64
	// Transaction is the transaction's JSON text.
	Transaction string
	// Scope holds authoritative observed scope bounds, or nil (SCOPE).
	Scope *Scope
	// CollectWarnings turns the advisory warnings on (WARN-006); replay
	// calls with false. DecodeRequest defaults it to true.
	CollectWarnings bool
}

// Scope is an observed scope in code points of the canonical target.
type Scope struct {
	Start int64 `json:"scope_start"`
	End   int64 `json:"scope_end"`
}

// Apply evaluates req's transaction against its target and returns the
// result: never an error and never a panic (STAGE-007). The checks run in
// STAGE-006's order; then the operations are simulated in order (SEQ).
func Apply(req Request) (res Result) {
	defer func() {
		if p := recover(); p != nil {
			res = reject(res.BeforeHash, &Error{Reason: pdspec.TransactionInternalError, Stage: pdspec.TransactionApplicability,
				Offset: -1, Message: fmt.Sprint("internal fault: ", p)})
		}
	}()
	var before *string
	targetOK := validText(req.Target)
	var canon string
	if targetOK {
		canon = Canonicalize(req.Target)
		h := Hash(canon)
		before = &h
	}
	res.BeforeHash = before
	profile, ok := pdspec.LookupProfile(req.RuntimeVersion)
	if !ok {
		return reject(before, unknownProfile(req.RuntimeVersion))
	}
	if !targetOK {
		return reject(nil, &Error{Reason: pdspec.TargetEncodingInvalid, Stage: pdspec.ProtocolValidation, Offset: -1,
			Message: "the target holds an unpaired surrogate, a NUL or bytes that are not UTF-8"})
	}
	start := newBuffer(canon)
	if s := req.Scope; s != nil && (s.Start < 0 || s.Start > s.End || s.End > int64(start.n)) {
		return reject(before, &Error{Reason: pdspec.ContextInvalid, Stage: pdspec.PreconditionGuard, Offset: -1,
			Message: fmt.Sprintf("scope bounds [%d, %d) do not lie within the target's %d code points", s.Start, s.End, start.n)})
	}
	top, err := readTransactionJSON(req.Transaction)
	if err != nil {
		return reject(before, err)
	}
	g, err := readGuards(top)
	if err != nil {
		return reject(before, err)
	}
	if g.version != nil {
		if req.TargetVersion == nil {
			return reject(before, &Error{Reason: pdspec.ContextMissing, Stage: pdspec.PreconditionGuard, Offset: -1,
				Message: "expected_target_version needs the request's target_version"})
		}
		if *g.version != *req.TargetVersion {
			return reject(before, &Error{Reason: pdspec.TargetVersionMismatch, Stage: pdspec.PreconditionGuard, Path: "$.expected_target_version", Offset: -1,
				Message: fmt.Sprintf("expected version %d, the target is at %d", *g.version, *req.TargetVersion)})
		}
	}
	if g.hash != nil && *g.hash != *before {
		return reject(before, &Error{Reason: pdspec.TargetHashMismatch, Stage: pdspec.PreconditionGuard, Path: "$.expected_current_hash", Offset: -1,
			Message: "expected_current_hash differs from the canonical target's hash"})
	}
	tx, err := decodeStructure(profile, top)
	if err != nil {
		return reject(before, err)
	}
	tx.ExpectedTargetVersion, tx.ExpectedCurrentHash = g.version, g.hash
	return simulate(profile, tx, start, req.Scope, req.CollectWarnings, before)
}

// stageResult fills the members every result carries for stage.
func stageResult(stage pdspec.Stage, before *string) Result {
	pv, tv, _ := pdspec.StageValidity(stage)
	return Result{
		ValidationStage: stage,
		Validity:        Validity{ProtocolValid: pv, TransactionValid: tv, TaskCorrect: pdspec.NotEvaluated, Semantic: pdspec.NotEvaluated},
		BeforeHash:      before,
		ChangeFacts:     []ChangeFact{},
		Warnings:        []Warning{},
	}
}

// reject turns a rejection before the operations into its result.
func reject(before *string, e *Error) Result {
	d := &Diagnostic{Path: e.Path, Message: e.Message}
	if e.Reason == pdspec.TargetEncodingInvalid {
		// CANON-010: markers only, never the text.
		d.Message = ""
		d.InvalidInput = pdspec.InvalidInputTarget
		if e.Offset >= 0 {
			d.InvalidInput = pdspec.InvalidInputTransaction
			off := e.Offset
			d.ByteOffset = &off
		}
	}
	return rejectWith(before, e.Reason, e.Stage, d)
}

func rejectWith(before *string, reason pdspec.Reason, stage pdspec.Stage, d *Diagnostic) Result {
	r := stageResult(stage, before)
	r.Status = pdspec.StatusRejected
	r.FailureReason = &reason
	r.Diagnostic = d
	return r
}

// opFailure is the failure of one operation before its failure_context is
// added: the label, the diagnostic so far and the buffer position the
// failure is about (-1 for none: the excerpt is then a prefix).
type opFailure struct {
	reason   pdspec.Reason
	stage    pdspec.Stage // TRANSACTION_APPLICABILITY unless set
	diag     *Diagnostic
	position int
}

// simulation is the sequential evaluation of one transaction. Invariant:
// buf is the buffer after facts; scopeEnd is the running scope's end
// (SCOPE-005).
type simulation struct {
	profile    pdspec.Profile
	tx         *Transaction
	start, buf buffer
	facts      []ChangeFact
	hasScope   bool
	scopeStart int
	scopeEnd   int
	warn       bool
	warnings   []Warning
	budget     pdspec.Budgets
}

func simulate(profile pdspec.Profile, tx *Transaction, start buffer, scope *Scope, warn bool, before *string) Result {
	s := &simulation{profile: profile, tx: tx, start: start, buf: start, warn: warn, budget: pdspec.Budget()}
	if scope != nil {
		s.hasScope, s.scopeStart, s.scopeEnd = true, int(scope.Start), int(scope.End)
	}
	for i := range tx.Operations {
		op := &tx.Operations[i]
		if f := s.step(i, op); f != nil {
			return s.failure(i, op, f, before)
		}
	}
	r := stageResult(pdspec.Accepted, before)
	r.Status = pdspec.StatusAccepted
	text := s.buf.s
	after := Hash(text)
	r.ResultText, r.AfterHash = &text, &after
	r.ChangeFacts = s.facts
	if s.warn {
		if text == start.s {
			s.warnings = append(s.warnings, Warning{Code: pdspec.NoOpTransaction})
		}
		r.Warnings = s.warnings
	}
	return r
}

// failure completes an operation's failure with the failing buffer's
// excerpt and the operation's name (EVIDENCE-001 to -003, EVIDENCE-009).
func (s *simulation) failure(i int, op *Operation, f *opFailure, before *string) Result {
	d := f.diag
	if d == nil {
		d = &Diagnostic{}
	}
	d.EditIndex, d.ChangeID = i+1, op.ChangeID
	fc := &FailureContext{Buffer: pdspec.BufferTransactionStart, BufferLength: s.buf.n, PriorChanges: i, ExcerptKind: pdspec.ExcerptPrefix}
	if i > 0 {
		fc.Buffer = pdspec.BufferIntermediate
	}
	size := s.budget.FailureContext
	if f.position >= 0 {
		fc.ExcerptKind = pdspec.ExcerptWindow
		fc.ExcerptStart = max(0, min(f.position-size/2, s.buf.n-size))
	}
	fc.Excerpt = s.buf.slice(fc.ExcerptStart, fc.ExcerptStart+size)
	d.FailureContext = fc
	stage := f.stage
	if stage == "" {
		stage = pdspec.TransactionApplicability
	}
	return rejectWith(before, f.reason, stage, d)
}

// step evaluates operation i against s.buf and, when it holds, records its
// fact and moves the buffer on.
func (s *simulation) step(i int, op *Operation) *opFailure {
	var (
		from, to int // code points of the selected span
		bFrom    int // its byte offsets
		bTo      int //
		shift    *Warning
	)
	switch op.Kind {
	case pdspec.OpMatch:
		sel, f := s.selectMatch(i, op)
		if f != nil {
			return f
		}
		from, to = sel.cp, sel.cp+cpCount(op.Match)
		bFrom, bTo = sel.b, sel.b+len(op.Match)
		if f := s.admit(from, to); f != nil {
			return f
		}
		if s.warn && i > 0 && op.OccurrenceIndex != nil {
			shift = s.basisShift(i, op, from, to)
		}
	case pdspec.OpSpan:
		if f := s.checkSpan(op); f != nil {
			return f
		}
		from, to = int(op.Start), int(op.End)
		bFrom = s.buf.byteAt(from)
		bTo = bFrom + len(s.buf.slice(from, to))
	case pdspec.OpReplaceAll:
		from, to, bFrom, bTo = 0, s.buf.n, 0, len(s.buf.s)
		if f := s.admit(from, to); f != nil {
			return f
		}
	default:
		panic("unknown operation kind " + op.Kind)
	}
	matched := s.buf.s[bFrom:bTo]
	fact := ChangeFact{
		ChangeID: op.ChangeID, Operation: op.Kind,
		SpanStart: from, SpanEnd: to, MatchedChars: to - from, ReplacementChars: cpCount(op.Replace),
		MatchedSHA256: Hash(matched), ReplacementSHA256: Hash(op.Replace),
	}
	if s.warn {
		s.collectWarnings(i, op, fact, matched, shift)
	}
	s.facts = append(s.facts, fact)
	n := s.buf.n - fact.MatchedChars + fact.ReplacementChars
	s.buf = buffer{s: s.buf.s[:bFrom] + op.Replace + s.buf.s[bTo:], n: n,
		ascii: s.buf.ascii && len(op.Replace) == fact.ReplacementChars}
	s.scopeEnd += fact.ReplacementChars - fact.MatchedChars
	return nil
}

// occurrence is one match position: its byte and code-point offsets.
type occurrence struct{ b, cp int }

// selectMatch finds the one occurrence a match operation selects (FIND,
// SELECT) or the failure that says why there is none.
func (s *simulation) selectMatch(i int, op *Operation) (occurrence, *opFailure) {
	text := s.buf.s
	abEnd, aaStart := -1, -1
	if op.AnchorBefore != nil {
		if j := strings.Index(text, *op.AnchorBefore); j >= 0 {
			abEnd = j + len(*op.AnchorBefore)
		} else {
			abEnd = len(text) + 1 // holds for no occurrence
		}
	}
	if op.AnchorAfter != nil {
		aaStart = strings.LastIndex(text, *op.AnchorAfter) // -1 holds for none
	}
	var (
		count, passing int
		first          []occurrence
		sel            occurrence
	)
	forEachOccurrence(s.buf, op.Match, func(o occurrence) bool {
		count++
		if len(first) < s.budget.Candidates {
			first = append(first, o)
		}
		if (op.OccurrenceIndex == nil || *op.OccurrenceIndex == int64(count)) &&
			(op.AnchorBefore == nil || abEnd <= o.b) &&
			(op.AnchorAfter == nil || aaStart >= o.b+len(op.Match)) {
			passing++
			if passing == 1 {
				sel = o
			}
		}
		return true
	})
	switch {
	case count == 0:
		return sel, s.absent(i, op)
	case count == 1 && (!op.hasSelectors() || s.profile.SingletonSelectors == pdspec.SingletonIgnored):
		return first[0], nil // SELECT-009, SELECT-011, SELECT-012
	case op.hasSelectors() && passing == 1:
		return sel, nil // SELECT-005
	}
	reason := pdspec.DisambiguationInvalid // SELECT-006, -007, -008, -010
	if !op.hasSelectors() && op.RegionHint == nil {
		reason = pdspec.MatchAmbiguous // SELECT-001
	}
	d := &Diagnostic{CandidateCount: &count}
	for k, o := range first {
		d.Candidates = append(d.Candidates, s.candidate(k+1, o, op.Match))
	}
	if i > 0 {
		d.FailureDetail = pdspec.DetailSequentialBuffer
	}
	return sel, &opFailure{reason: reason, diag: d, position: first[0].cp}
}

// candidate is the bounded evidence of one occurrence (EVIDENCE-004).
func (s *simulation) candidate(index int, o occurrence, match string) Candidate {
	ctx := s.budget.CandidateContext
	end := o.b + len(match)
	return Candidate{
		OccurrenceIndex: index, SpanStart: o.cp, SpanEnd: o.cp + cpCount(match),
		ContextBefore: suffixCP(s.buf.s[:o.b], ctx),
		ContextAfter:  prefixCP(s.buf.s[end:], ctx),
		Preview:       prefixCP(match, s.budget.CandidatePreview),
	}
}

// absent labels a match with no occurrence: sequential_match_invalid when
// the transaction-start buffer holds it (SEQ-003), else match_absent
// (FIND-004), each with its evidence (EVIDENCE-006 to -008).
func (s *simulation) absent(i int, op *Operation) *opFailure {
	if i > 0 {
		var orig []OriginalOccurrence
		forEachOccurrence(s.start, op.Match, func(o occurrence) bool {
			oo := OriginalOccurrence{OccurrenceIndex: len(orig) + 1, SpanStart: o.cp, SpanEnd: o.cp + cpCount(op.Match)}
			oo.OverlappedBy = s.overlappedBy(oo.SpanStart, oo.SpanEnd)
			orig = append(orig, oo)
			return len(orig) < s.budget.OriginalOccurrences
		})
		if len(orig) > 0 {
			return &opFailure{reason: pdspec.SequentialMatchInvalid, diag: &Diagnostic{OriginalOccurrences: orig}, position: -1}
		}
	}
	d := &Diagnostic{NearMissStatus: pdspec.NearMissMatchTooLarge}
	if cpCount(op.Match) <= s.budget.NearMissQuery {
		q := op.Match
		d.NearMissQuery, d.NearMissStatus = &q, pdspec.NearMissCaptured
	}
	p := prefixCP(s.buf.s, s.budget.MatchAbsentPrefix)
	d.MatchAbsentPrefix = &p
	return &opFailure{reason: pdspec.MatchAbsent, diag: d, position: -1}
}

// overlappedBy follows the original span [from, to) through the earlier
// changes and names the first that overlapped it (EVIDENCE-011).
func (s *simulation) overlappedBy(from, to int) *string {
	for _, f := range s.facts {
		a, b := f.SpanStart, f.SpanEnd
		if (a < b && from < b && a < to) || (a == b && from < a && a < to) {
			id := f.ChangeID
			return &id
		}
		if b <= from { // wholly before, or an insertion at its start

			d := f.ReplacementChars - f.MatchedChars
			from, to = from+d, to+d
		}
	}
	return nil
}

// admit applies observed scope admission to the span of a match or
// replace_all operation (SCOPE-001, SCOPE-009).
func (s *simulation) admit(from, to int) *opFailure {
	if !s.hasScope {
		return nil
	}
	inside := s.scopeStart <= from && to <= s.scopeEnd
	if from == to {
		inside = s.scopeStart < from && from < s.scopeEnd
	}
	if inside {
		return nil
	}
	return s.spanFailure(pdspec.SpanOutOfBounds, pdspec.SpanCheckBounds, pdspec.OperationOutsideObservedScope, s.buf.slice(from, to), from)
}

// spanFailure builds a span failure's diagnostic (SPAN-004).
func (s *simulation) spanFailure(reason pdspec.Reason, check, code, actual string, position int) *opFailure {
	n := s.buf.n
	actual = prefixCP(actual, s.budget.ActualText)
	return &opFailure{reason: reason, position: position,
		diag: &Diagnostic{SpanCheck: check, Code: code, BufferLength: &n, ActualText: &actual}}
}

// checkSpan runs a span operation's checks in SPAN-010 and SCOPE-007's
// order: span context allowed, bounds, scope admission, expected_text,
// expected_before, expected_after.
func (s *simulation) checkSpan(op *Operation) *opFailure {
	start, end, n := int(op.Start), int(op.End), s.buf.n
	if !s.profile.SpanContext && (op.ExpectedBefore != nil || op.ExpectedAfter != nil) {
		return &opFailure{reason: pdspec.ManifestInvalid, position: -1, diag: &Diagnostic{
			Message: s.profile.RuntimeVersion + " has no span context: expected_before and expected_after are refused"}}
	}
	if int64(n) < op.End {
		from := min(start, n)
		return s.spanFailure(pdspec.SpanOutOfBounds, pdspec.SpanCheckBounds, "", s.buf.slice(from, n), from)
	}
	eb, ea := 0, 0
	if op.ExpectedBefore != nil {
		eb = cpCount(*op.ExpectedBefore)
	}
	if op.ExpectedAfter != nil {
		ea = cpCount(*op.ExpectedAfter)
	}
	if s.hasScope {
		outside := start < s.scopeStart || end > s.scopeEnd
		if start == end {
			outside = !(s.scopeStart < start && start < s.scopeEnd)
		}
		if outside {
			return s.spanFailure(pdspec.SpanOutOfBounds, pdspec.SpanCheckBounds, pdspec.OperationOutsideObservedScope, s.buf.slice(start, end), start)
		}
		if start == end {
			if eb == 0 {
				return s.spanFailure(pdspec.SpanExpectedTextMismatch, pdspec.SpanCheckExpectedBefore, pdspec.ObservedInsertionGuardsRequired, "", start)
			}
			if ea == 0 {
				return s.spanFailure(pdspec.SpanExpectedTextMismatch, pdspec.SpanCheckExpectedAfter, pdspec.ObservedInsertionGuardsRequired, "", start)
			}
			if start-eb < s.scopeStart || end+ea > s.scopeEnd {
				return s.spanFailure(pdspec.SpanOutOfBounds, pdspec.SpanCheckBounds, pdspec.OperationOutsideObservedScope, "", start)
			}
		}
	}
	if actual := s.buf.slice(start, end); actual != op.ExpectedText {
		return s.spanFailure(pdspec.SpanExpectedTextMismatch, pdspec.SpanCheckExpectedText, "", actual, start)
	}
	if eb > 0 {
		if actual := s.buf.slice(start-eb, start); start < eb || actual != *op.ExpectedBefore {
			return s.spanFailure(pdspec.SpanExpectedTextMismatch, pdspec.SpanCheckExpectedBefore, "", actual, start)
		}
	}
	if ea > 0 {
		if actual := s.buf.slice(end, end+ea); end+ea > n || actual != *op.ExpectedAfter {
			return s.spanFailure(pdspec.SpanExpectedTextMismatch, pdspec.SpanCheckExpectedAfter, "", actual, end)
		}
	}
	return nil
}
