package patchdiff

import (
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Transaction is a decoded transaction: the ParsedPDCP representation that
// all three formats lower into. Payload strings are canonical (CANON-001,
// CANON-002); the others are as submitted (CANON-005).
type Transaction struct {
	Format       string
	TargetFileID string
	Intent       string
	// The state guards (GUARD); nil when absent.
	ExpectedTargetVersion *int64
	ExpectedCurrentHash   *string
	// Service data the runtime decodes but never uses.
	ClientRequestID *string
	ParentPDCPLogID *string
	Attempt         *int64
	HasMetadata     bool
	Operations      []Operation
}

// Operation is one edit or operation. Kind says which fields are used:
// match (Match, Replace, selectors, RegionHint), span (Start, End,
// ExpectedText, Replace, ExpectedBefore, ExpectedAfter) or replace_all
// (Replace).
type Operation struct {
	Kind      string // pdspec.OpMatch, OpSpan or OpReplaceAll
	ChangeID  string // given or defaulted (DECODE-013)
	Rationale *string
	Risk      string // "" when absent

	Match           string
	Replace         string
	OccurrenceIndex *int64
	AnchorBefore    *string
	AnchorAfter     *string
	RegionHint      *string

	Start, End     int64
	ExpectedText   string
	ExpectedBefore *string
	ExpectedAfter  *string
}

// hasSelectors reports whether a match operation carries a selecting field.
func (op *Operation) hasSelectors() bool {
	return op.OccurrenceIndex != nil || op.AnchorBefore != nil || op.AnchorAfter != nil
}

// Decode checks and lowers a transaction text under the profile named
// runtimeVersion, without the target: every check of Apply up to the
// operations except the comparison of the state guards. It returns an
// *Error with the reasons context_invalid (unknown profile, PROFILE-002),
// target_encoding_invalid (CANON-008), manifest_missing, manifest_invalid
// (DECODE) or context_missing (no state guard, GUARD-001).
func Decode(runtimeVersion, transaction string) (*Transaction, error) {
	profile, ok := pdspec.LookupProfile(runtimeVersion)
	if !ok {
		return nil, unknownProfile(runtimeVersion)
	}
	top, err := readTransactionJSON(transaction)
	if err != nil {
		return nil, err
	}
	g, err := readGuards(top)
	if err != nil {
		return nil, err
	}
	tx, err := decodeStructure(profile, top)
	if err != nil {
		return nil, err
	}
	tx.ExpectedTargetVersion, tx.ExpectedCurrentHash = g.version, g.hash
	return tx, nil
}

func unknownProfile(runtimeVersion string) *Error {
	return &Error{Reason: pdspec.ContextInvalid, Stage: pdspec.PreconditionGuard, Offset: -1,
		Message: fmt.Sprintf("runtime_version %q names no profile", runtimeVersion)}
}

// CheckJSONText runs the checks a transaction text takes before its
// members are read, in STAGE-006's order: invalid text
// (target_encoding_invalid, CANON-008), empty (manifest_missing,
// DECODE-002), syntax, duplicate names and depth, a top-level object
// (manifest_invalid, DECODE-001, DECODE-003 to DECODE-005). It returns nil
// or an *Error; package batch reads its envelope through it (BATCH-004).
func CheckJSONText(text string) error {
	if _, err := readTransactionJSON(text); err != nil {
		return err
	}
	return nil
}

// readTransactionJSON runs the text checks in STAGE-006's order: invalid
// text, empty transaction, syntax and strictness, a top-level object.
func readTransactionJSON(text string) (*jsonValue, *Error) {
	if at := firstInvalidText(text); at >= 0 {
		return nil, &Error{Reason: pdspec.TargetEncodingInvalid, Stage: pdspec.ProtocolValidation, Offset: at,
			Message: "the transaction holds an unpaired surrogate, a NUL or bytes that are not UTF-8"}
	}
	if t := strings.Trim(text, " \t\r\n"); t == "" || t == "null" {
		return nil, &Error{Reason: pdspec.ManifestMissing, Stage: pdspec.ProtocolValidation, Offset: -1, Message: "no transaction"}
	}
	v, serr := parseJSON(text, pdspec.Budget().JSONNestingDepth, false)
	if serr != nil {
		return nil, &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.ProtocolValidation, Offset: serr.offset, Message: serr.msg}
	}
	if v.kind != jsonObject {
		return nil, manifestInvalid("$", "the transaction is a JSON %s, not an object", v.kind)
	}
	return v, nil
}

type guards struct {
	version *int64
	hash    *string
}

var hashRE = regexp.MustCompile(`^[0-9a-f]{64}$`)

// readGuards reads the state guards from the top-level object alone
// (GUARD-007): ill-formed ones are manifest_invalid (GUARD-005), none at
// all is context_missing (GUARD-001).
func readGuards(top *jsonValue) (guards, *Error) {
	var g guards
	if v := present(top.member("expected_target_version")); v != nil {
		n, ok := integer(v, 0)
		if !ok {
			return g, manifestInvalid("$.expected_target_version", "want a non-negative integer")
		}
		g.version = &n
	}
	if v := present(top.member("expected_current_hash")); v != nil {
		if v.kind != jsonString || !hashRE.MatchString(v.text) {
			return g, manifestInvalid("$.expected_current_hash", "want 64 lowercase hexadecimal digits")
		}
		g.hash = &v.text
	}
	if g.version == nil && g.hash == nil {
		return g, &Error{Reason: pdspec.ContextMissing, Stage: pdspec.ProtocolValidation, Offset: -1,
			Message: "the transaction carries neither expected_target_version nor expected_current_hash"}
	}
	return g, nil
}

// present returns v unless it is absent or null (DECODE-016).
func present(v *jsonValue) *jsonValue {
	if v == nil || v.kind == jsonNull {
		return nil
	}
	return v
}

var integerRE = regexp.MustCompile(`^(0|[1-9][0-9]{0,15})$`)

// integer reads a non-negative integer of at least min written without
// fraction or exponent and at most 2^53-1 (DECODE-019).
func integer(v *jsonValue, min int64) (int64, bool) {
	if v.kind != jsonNumber || !integerRE.MatchString(v.text) {
		return 0, false
	}
	n, err := strconv.ParseInt(v.text, 10, 64)
	if err != nil || n > pdspec.Budget().MaxInteger || n < min {
		return 0, false
	}
	return n, true
}

// The members each object may carry (DECODE-011, DECODE-020, DECODE-024,
// DECODE-026, DECODE-028).
var (
	topMembers = map[string][]string{
		pdspec.FormatTx1: {"format", "target_file_id", "intent", "edits", "expected_target_version", "expected_current_hash", "client_request_id", "parent_pdcp_log_id", "attempt", "metadata"},
		pdspec.FormatTx2: {"format", "target_file_id", "intent", "operations", "expected_target_version", "expected_current_hash", "client_request_id", "parent_pdcp_log_id", "attempt", "metadata"},
	}
	editMembers       = []string{"match", "replace", "change_id", "rationale", "risk", "occurrence_index", "anchor_before", "anchor_after"}
	matchOpMembers    = append([]string{"op", "region_hint"}, editMembers...)
	spanMembers       = []string{"op", "start", "end", "expected_text", "replace", "change_id", "rationale", "risk", "expected_before", "expected_after"}
	replaceAllMembers = []string{"op", "replace", "change_id", "rationale", "risk"}
)

func init() { topMembers[pdspec.FormatTx3] = topMembers[pdspec.FormatTx2] }

// labels is labels.json, copied once rather than at every operation.
var labels = sync.OnceValue(pdspec.LabelSet)

// decoder reads members of one object, stopping at the first fault.
type decoder struct {
	obj  *jsonValue
	path string
	err  *Error
}

func (d *decoder) fail(member, format string, args ...any) {
	if d.err == nil {
		d.err = manifestInvalid(d.path+"."+member, format, args...)
	}
}

func (d *decoder) only(allowed []string) {
	for _, m := range d.obj.members {
		if !slices.Contains(allowed, m.name) {
			d.fail(m.name, "unknown member")
			return
		}
	}
}

// str reads a string member; required ones must be present, nonEmpty ones
// must not be "".
func (d *decoder) str(name string, required, nonEmpty bool) *string {
	v := present(d.obj.member(name))
	if v == nil {
		if required {
			d.fail(name, "missing")
		}
		return nil
	}
	if v.kind != jsonString {
		d.fail(name, "want a string, not a %s", v.kind)
		return nil
	}
	if nonEmpty && v.text == "" {
		d.fail(name, "must not be empty")
		return nil
	}
	s := v.text
	return &s
}

func (d *decoder) integer(name string, required bool, min int64) *int64 {
	v := present(d.obj.member(name))
	if v == nil {
		if required {
			d.fail(name, "missing")
		}
		return nil
	}
	n, ok := integer(v, min)
	if !ok {
		d.fail(name, "want an integer from %d to 2^53-1", min)
		return nil
	}
	return &n
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// canonPtr canonicalizes an optional payload (CANON-002).
func canonPtr(s *string) *string {
	if s == nil {
		return nil
	}
	c := Canonicalize(*s)
	return &c
}

// decodeStructure lowers the top-level object under profile (DECODE,
// PROFILE-005, SOLE-001).
func decodeStructure(profile pdspec.Profile, top *jsonValue) (*Transaction, *Error) {
	d := &decoder{obj: top, path: "$"}
	format := d.str("format", true, false)
	if d.err != nil {
		return nil, d.err
	}
	allowed, known := topMembers[*format]
	if !known {
		return nil, manifestInvalid("$.format", "unknown format %q", *format)
	}
	if !profile.Accepts(*format) {
		return nil, manifestInvalid("$.format", "profile %s does not accept %s", profile.RuntimeVersion, *format)
	}
	d.only(allowed)
	tx := &Transaction{Format: *format}
	tx.TargetFileID = deref(d.str("target_file_id", true, true))
	tx.Intent = deref(d.str("intent", true, true))
	tx.ClientRequestID = d.str("client_request_id", false, false)
	tx.ParentPDCPLogID = d.str("parent_pdcp_log_id", false, false)
	tx.Attempt = d.integer("attempt", false, 1)
	if v := present(top.member("metadata")); v != nil {
		if v.kind != jsonObject {
			d.fail("metadata", "want an object, not a %s", v.kind)
		}
		tx.HasMetadata = true
	}
	if d.err != nil {
		return nil, d.err
	}
	listName := "operations"
	if *format == pdspec.FormatTx1 {
		listName = "edits"
	}
	list := present(top.member(listName))
	if list == nil {
		return nil, &Error{Reason: pdspec.ManifestMissing, Stage: pdspec.ProtocolValidation, Path: "$." + listName, Offset: -1, Message: "missing"}
	}
	if list.kind != jsonArray || len(list.items) == 0 {
		return nil, manifestInvalid("$."+listName, "want a non-empty array")
	}
	if *format == pdspec.FormatTx3 && len(list.items) != 1 {
		return nil, manifestInvalid("$.operations", "patchdiff-tx/3 holds exactly one replace_all, not %d operations", len(list.items))
	}
	seen := map[string]int{}
	for i, item := range list.items {
		path := fmt.Sprintf("$.%s[%d]", listName, i)
		op, err := decodeOperation(profile, *format, item, path)
		if err != nil {
			return nil, err
		}
		if op.ChangeID == "" {
			op.ChangeID = fmt.Sprintf(labels().ChangeIDFormat, i+1)
		}
		if prev, dup := seen[op.ChangeID]; dup {
			return nil, manifestInvalid(path+".change_id", "change_id %q already used by operation %d", op.ChangeID, prev)
		}
		seen[op.ChangeID] = i + 1
		tx.Operations = append(tx.Operations, op)
	}
	return tx, nil
}

func decodeOperation(profile pdspec.Profile, format string, item *jsonValue, path string) (Operation, *Error) {
	if item.kind != jsonObject {
		return Operation{}, manifestInvalid(path, "want an object, not a %s", item.kind)
	}
	d := &decoder{obj: item, path: path}
	kind := pdspec.OpMatch
	if format != pdspec.FormatTx1 {
		k := d.str("op", true, false)
		if d.err != nil {
			return Operation{}, d.err
		}
		kind = *k
		switch {
		case format == pdspec.FormatTx2 && (kind == pdspec.OpMatch || kind == pdspec.OpSpan):
		case format == pdspec.FormatTx3 && kind == pdspec.OpReplaceAll:
		default:
			return Operation{}, manifestInvalid(path+".op", "%s takes no operation %q", format, kind)
		}
	}
	op := Operation{Kind: kind}
	switch {
	case format == pdspec.FormatTx1:
		d.only(editMembers)
	case kind == pdspec.OpMatch:
		d.only(matchOpMembers)
	case kind == pdspec.OpSpan:
		d.only(spanMembers)
	default:
		d.only(replaceAllMembers)
	}
	op.ChangeID = deref(d.str("change_id", false, true))
	op.Rationale = d.str("rationale", false, false)
	if r := d.str("risk", false, false); r != nil {
		if !slices.Contains(labels().Risks, *r) {
			d.fail("risk", "want low, medium or high")
		}
		op.Risk = *r
	}
	op.Replace = Canonicalize(deref(d.str("replace", true, false)))
	switch kind {
	case pdspec.OpMatch:
		op.Match = Canonicalize(deref(d.str("match", true, true)))
		op.OccurrenceIndex = d.integer("occurrence_index", false, 1)
		op.AnchorBefore = canonPtr(d.str("anchor_before", false, true))
		op.AnchorAfter = canonPtr(d.str("anchor_after", false, true))
		if format == pdspec.FormatTx2 {
			op.RegionHint = d.str("region_hint", false, false)
		}
	case pdspec.OpSpan:
		start := d.integer("start", true, 0)
		end := d.integer("end", true, 0)
		if start != nil && end != nil {
			if *start > *end {
				d.fail("start", "start %d is greater than end %d", *start, *end)
			}
			op.Start, op.End = *start, *end
		}
		op.ExpectedText = Canonicalize(deref(d.str("expected_text", true, false)))
		op.ExpectedBefore = canonPtr(d.str("expected_before", false, false))
		op.ExpectedAfter = canonPtr(d.str("expected_after", false, false))
		// DECODE-027: the 0.3.0 grammar has no span context; other
		// profiles without it refuse in the applier (SPAN-009).
		if profile.SpanContextRefusedAt == pdspec.ProtocolValidation && (op.ExpectedBefore != nil || op.ExpectedAfter != nil) {
			d.fail("expected_before", "%s takes no span context", profile.RuntimeVersion)
		}
	}
	if d.err != nil {
		return Operation{}, d.err
	}
	return op, nil
}
