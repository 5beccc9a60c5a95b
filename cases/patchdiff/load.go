package pdcases

import (
	"bytes"
	"embed"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases/internal/caseerr"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

//go:embed testdata/corpus
var corpus embed.FS

// Corpus returns the embedded corpus, its case files at the root.
func Corpus() fs.FS {
	sub, err := fs.Sub(corpus, "testdata/corpus")
	if err != nil {
		panic(err) // the embed directive guarantees the folder
	}
	return sub
}

// Options tunes the loader.
type Options struct {
	// KnownRequirement reports whether a requirement ID exists; nil means
	// DefaultKnownRequirement.
	KnownRequirement func(id string) bool
}

// Load reads every case file (*.json) below root in fsys, sorted by name,
// with the default options.
func Load(fsys fs.FS, root string) ([]*Case, error) { return Options{}.Load(fsys, root) }

// LoadDir is Load(os.DirFS(dir), ".").
func LoadDir(dir string) ([]*Case, error) { return Load(os.DirFS(dir), ".") }

// LoadCorpus loads the embedded corpus.
func LoadCorpus() ([]*Case, error) { return Load(Corpus(), ".") }

// CaseError is a problem with one case, naming its field.
type CaseError = caseerr.Error

// Load reads every case file below root in fsys. Every problem of every
// case is reported, joined with errors.Join.
func (o Options) Load(fsys fs.FS, root string) ([]*Case, error) {
	var files []string
	err := fs.WalkDir(fsys, root, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(p, ".json") {
			files = append(files, p)
		}
		return err
	})
	if err != nil {
		return nil, err
	}
	var out []*Case
	var errs []error
	for _, p := range files {
		data, err := fs.ReadFile(fsys, p)
		if err != nil {
			return nil, err
		}
		rel := strings.TrimPrefix(p, strings.TrimSuffix(root, "/")+"/")
		if root == "." {
			rel = p
		}
		if c, err := o.Parse(strings.TrimSuffix(rel, ".json"), data); err != nil {
			errs = append(errs, err)
		} else {
			out = append(out, c)
		}
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(out, func(a, b *Case) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

var nameShape = regexp.MustCompile(`^[a-z0-9]+(-[a-z0-9]+)*/[a-z0-9]+([-.][a-z0-9]+)*$`)

type rawCase struct {
	Requirements []string        `json:"requirements"`
	Description  string          `json:"description"`
	Recommended  bool            `json:"recommended"`
	Operation    string          `json:"operation"`
	Request      json.RawMessage `json:"request"`
	Expect       json.RawMessage `json:"expect"`
}

type rawRequest struct {
	RuntimeVersion  *string         `json:"runtime_version"`
	Target          json.RawMessage `json:"target"`
	TargetVersion   *int64          `json:"target_version"`
	Transaction     json.RawMessage `json:"transaction"`
	Batch           json.RawMessage `json:"batch"`
	ScopeBounds     *ScopeBounds    `json:"scope_bounds"`
	CollectWarnings *bool           `json:"collect_warnings"`
}

type rawExpect struct {
	Status          string           `json:"status"`
	ValidationStage string           `json:"validation_stage"`
	Validity        *Validity        `json:"validity"`
	FailureReason   json.RawMessage  `json:"failure_reason"`
	ResultText      json.RawMessage  `json:"result_text"`
	ChangeFacts     []rawFact        `json:"change_facts"`
	Warnings        []map[string]any `json:"warnings"`
	Diagnostic      map[string]any   `json:"diagnostic"`
	DiagnosticRec   map[string]any   `json:"diagnostic_recommended"`
	DiagnosticLens  map[string]int   `json:"diagnostic_lengths"`
	BeforeHash      string           `json:"before_hash"`
	AfterHash       string           `json:"after_hash"`
	AssemblyOrder   []int            `json:"assembly_order"`
}

type rawFact struct {
	ChangeID          string          `json:"change_id"`
	Operation         string          `json:"operation"`
	SpanStart         *int            `json:"span_start"`
	SpanEnd           *int            `json:"span_end"`
	MatchedChars      *int            `json:"matched_chars"`
	ReplacementChars  *int            `json:"replacement_chars"`
	MatchedText       json.RawMessage `json:"matched_text"`
	ReplacementText   json.RawMessage `json:"replacement_text"`
	MatchedSHA256     string          `json:"matched_sha256"`
	ReplacementSHA256 string          `json:"replacement_sha256"`
	// An observed batch's fact members (BATCH-018).
	GroupIndex     *int    `json:"group_index"`
	OperationIndex *int    `json:"operation_index"`
	ObservationID  *string `json:"observation_id"`
	ScopeStart     *int    `json:"scope_start"`
	ScopeEnd       *int    `json:"scope_end"`
}

// checker gathers the problems of one case.
type checker struct {
	name string
	errs []error
}

func (c *checker) fail(field, format string, args ...any) {
	c.errs = append(c.errs, &CaseError{Case: c.name, Field: field, Err: fmt.Errorf(format, args...)})
}

// Parse reads one case file; name is its path below the corpus root
// without ".json".
func (o Options) Parse(name string, data []byte) (*Case, error) {
	known := o.KnownRequirement
	if known == nil {
		known = DefaultKnownRequirement
	}
	ck := &checker{name: name}
	if !nameShape.MatchString(name) {
		ck.fail("", "a case is named <area>/<name> in lower-case words joined by '-'")
	}
	if field, err := scanJSON(data); err != nil {
		ck.fail(field, "%v", err)
		return nil, errors.Join(ck.errs...)
	}
	var raw rawCase
	if err := strictUnmarshal(data, &raw); err != nil {
		ck.fail("", "%v", err)
		return nil, errors.Join(ck.errs...)
	}
	c := &Case{Name: name, Description: raw.Description, Recommended: raw.Recommended}

	if len(raw.Requirements) == 0 {
		ck.fail("requirements", "a case checks at least one requirement")
	}
	for i, id := range raw.Requirements {
		switch {
		case !IsRequirementID(id):
			ck.fail(fmt.Sprintf("requirements[%d]", i), "%q is not a requirement ID (AREA-NNN)", id)
		case !known(id):
			ck.fail(fmt.Sprintf("requirements[%d]", i), "no requirement %s in the spec", id)
		case slices.Contains(raw.Requirements[:i], id):
			ck.fail(fmt.Sprintf("requirements[%d]", i), "%s listed twice", id)
		}
	}
	c.Requirements = raw.Requirements
	if strings.TrimSpace(raw.Description) == "" || strings.ContainsAny(raw.Description, "\n\r") {
		ck.fail("description", "one non-empty line")
	}
	c.Operation = OperationApply
	switch {
	case raw.Operation == OperationReplay:
		c.Operation = OperationReplay
		if raw.Request == nil || raw.Expect == nil {
			ck.fail("", "a replay case has a request and an expectation")
		} else {
			ck.replay(raw.Request, raw.Expect, c)
		}
	case raw.Operation != "" && raw.Operation != OperationApply && raw.Operation != OperationObservedBatch:
		ck.fail("operation", "%q: want apply, replay or observed_batch", raw.Operation)
	case raw.Request == nil:
		ck.fail("request", "missing")
	default:
		if raw.Operation == OperationObservedBatch {
			c.Operation = OperationObservedBatch
		}
		ck.request(raw.Request, c)
	}
	if raw.Operation != OperationReplay {
		if raw.Expect == nil {
			ck.fail("expect", "missing")
		} else {
			ck.expect(raw.Expect, c)
		}
	}
	if len(ck.errs) > 0 {
		return nil, errors.Join(ck.errs...)
	}
	return c, nil
}

func (ck *checker) request(data json.RawMessage, c *Case) {
	r := &c.Request
	var raw rawRequest
	if err := strictUnmarshal(data, &raw); err != nil {
		ck.fail("request", "%v", err)
		return
	}
	if raw.RuntimeVersion != nil && *raw.RuntimeVersion == "" {
		ck.fail("request.runtime_version", "leave the member out rather than empty")
	}
	r.RuntimeVersion = raw.RuntimeVersion
	r.TargetVersion = raw.TargetVersion
	r.CollectWarnings = raw.CollectWarnings
	if raw.Target == nil {
		ck.fail("request.target", "missing")
	} else if t, err := parseText(raw.Target); err != nil {
		ck.fail("request.target", "%v", err)
	} else {
		r.Target = t
	}
	// An observed batch sends its envelope as batch, where a runtime call
	// sends its transaction (BATCH-002); the case keeps either in
	// Transaction.
	member, tx := "transaction", raw.Transaction
	if c.Operation == OperationObservedBatch {
		member, tx = "batch", raw.Batch
		if raw.Transaction != nil || raw.ScopeBounds != nil {
			ck.fail("request", "an observed batch sends batch, without transaction or scope_bounds")
		}
	} else if raw.Batch != nil {
		ck.fail("request.batch", "only an observed_batch case sends batch")
	}
	switch tx := bytes.TrimSpace(tx); {
	case tx == nil:
		ck.fail("request."+member, "missing")
	case tx[0] == '{':
		var b bytes.Buffer
		if err := json.Compact(&b, tx); err != nil {
			ck.fail("request."+member, "%v", err)
		}
		r.Transaction.Object = b.Bytes()
	default:
		t, err := parseText(tx)
		if err != nil {
			ck.fail("request."+member, "an object or a text: %v", err)
		}
		r.Transaction.Text = t
	}
	// Scope bounds are sent as written: cases check that bad bounds are
	// refused (SCOPE-008).
	r.ScopeBounds = raw.ScopeBounds
}

var diagPath = regexp.MustCompile(`^[a-z_]+(\.([a-z_]+|[0-9]+))*$`)

var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

func (ck *checker) expect(data json.RawMessage, c *Case) {
	var raw rawExpect
	if err := strictUnmarshal(data, &raw); err != nil {
		ck.fail("expect", "%v", err)
		return
	}
	e := &c.Expect
	e.Status, e.ValidationStage = raw.Status, raw.ValidationStage
	accepted := raw.Status == Accepted
	if raw.Status != Accepted && raw.Status != Rejected {
		ck.fail("expect.status", "%q: accepted or rejected", raw.Status)
	}
	pv, tv, ok := pdspec.StageValidity(pdspec.Stage(raw.ValidationStage))
	ok = ok && isStage(raw.ValidationStage)
	switch {
	case !ok:
		ck.fail("expect.validation_stage", "%q is not one of %v", raw.ValidationStage, Stages())
	case accepted != (raw.ValidationStage == "ACCEPTED"):
		ck.fail("expect.validation_stage", "%s with status %s", raw.ValidationStage, raw.Status)
	}
	if raw.Validity == nil {
		ck.fail("expect.validity", "missing")
	} else {
		e.Validity = *raw.Validity
		if ok && (!sameBool(pv, e.Validity.ProtocolValid) || !sameBool(tv, e.Validity.TransactionValid)) {
			ck.fail("expect.validity", "%s reports protocol_valid %s, transaction_valid %s", raw.ValidationStage, showBool(pv), showBool(tv))
		}
		if e.Validity.TaskCorrect != NotEvaluated() || e.Validity.Semantic != NotEvaluated() {
			ck.fail("expect.validity", "task_correct and semantic are %q", NotEvaluated())
		}
	}
	switch fr := string(bytes.TrimSpace(raw.FailureReason)); {
	case fr == "":
		ck.fail("expect.failure_reason", "missing (null when accepted)")
	case fr == "null":
		if !accepted {
			ck.fail("expect.failure_reason", "a rejection names its label")
		}
	default:
		var s string
		if json.Unmarshal(raw.FailureReason, &s) != nil || !isFailureReason(s) {
			ck.fail("expect.failure_reason", "%s is not one of the seed's labels", fr)
		} else if accepted {
			ck.fail("expect.failure_reason", "an accepted call has none")
		}
		e.FailureReason = s
	}
	for _, h := range []struct{ field, v string }{{"before_hash", raw.BeforeHash}, {"after_hash", raw.AfterHash}} {
		if h.v != "" && !sha256Hex.MatchString(h.v) {
			ck.fail("expect."+h.field, "64 lower-case hex digits")
		}
	}
	e.PinnedBeforeHash, e.PinnedAfterHash = raw.BeforeHash, raw.AfterHash
	batch := c.Operation == OperationObservedBatch
	if !accepted {
		if raw.ResultText != nil || raw.ChangeFacts != nil || raw.Warnings != nil || raw.AfterHash != "" || raw.AssemblyOrder != nil {
			ck.fail("expect", "a rejection has no result_text, change_facts, warnings or after_hash")
		}
		if raw.Diagnostic != nil && len(raw.Diagnostic) == 0 {
			ck.fail("expect.diagnostic", "leave out rather than empty")
		}
		e.Diagnostic = raw.Diagnostic
		for p, n := range raw.DiagnosticLens {
			if !diagPath.MatchString(p) || n < 0 {
				ck.fail("expect.diagnostic_lengths", "%q: %d: a dotted path to a string and a length", p, n)
			}
		}
		e.DiagnosticLengths = raw.DiagnosticLens
		if raw.DiagnosticRec != nil && len(raw.DiagnosticRec) == 0 {
			ck.fail("expect.diagnostic_recommended", "leave out rather than empty")
		}
		e.DiagnosticRecommended = raw.DiagnosticRec
		return
	}
	if raw.Diagnostic != nil || raw.DiagnosticLens != nil || raw.DiagnosticRec != nil {
		ck.fail("expect.diagnostic", "an accepted call has no diagnostic")
	}
	if raw.ResultText == nil {
		ck.fail("expect.result_text", "an accepted call states its text")
	} else if t, err := parseText(raw.ResultText); err != nil {
		ck.fail("expect.result_text", "%v", err)
	} else if !t.Valid() {
		ck.fail("expect.result_text", "not valid text")
	} else {
		e.ResultText = &t
	}
	if len(raw.ChangeFacts) == 0 {
		ck.fail("expect.change_facts", "an accepted call has at least one fact")
	}
	for i, f := range raw.ChangeFacts {
		e.ChangeFacts = append(e.ChangeFacts, ck.fact(fmt.Sprintf("expect.change_facts[%d]", i), f, batch))
	}
	switch {
	case batch && raw.AssemblyOrder == nil:
		ck.fail("expect.assembly_order", "an accepted batch states its assembly order")
	case !batch && raw.AssemblyOrder != nil:
		ck.fail("expect.assembly_order", "only an accepted batch has one")
	}
	e.AssemblyOrder = raw.AssemblyOrder
	if raw.Warnings == nil {
		ck.fail("expect.warnings", "an accepted call states its warnings ([] for none)")
	}
	if c.Request.CollectWarnings != nil && !*c.Request.CollectWarnings && len(raw.Warnings) > 0 {
		ck.fail("expect.warnings", "collect_warnings is false")
	}
	for i, w := range raw.Warnings {
		code, _ := w["code"].(string)
		if !slices.Contains(WarningCodes(), code) {
			ck.fail(fmt.Sprintf("expect.warnings[%d].code", i), "%q is not one of %v", code, WarningCodes())
		}
	}
	e.Warnings = raw.Warnings
	if e.Warnings == nil {
		e.Warnings = []map[string]any{}
	}
}

func (ck *checker) fact(field string, r rawFact, batch bool) Fact {
	f := Fact{ChangeID: r.ChangeID, Operation: r.Operation, PinnedMatchedSHA: r.MatchedSHA256, PinnedReplacedSHA: r.ReplacementSHA256}
	has := r.GroupIndex != nil || r.OperationIndex != nil || r.ObservationID != nil || r.ScopeStart != nil || r.ScopeEnd != nil
	switch {
	case batch && (r.GroupIndex == nil || r.OperationIndex == nil || r.ObservationID == nil || r.ScopeStart == nil || r.ScopeEnd == nil):
		ck.fail(field, "a batch fact states group_index, operation_index, observation_id, scope_start and scope_end")
	case batch:
		f.Batch = &BatchFact{GroupIndex: *r.GroupIndex, OperationIndex: *r.OperationIndex, ObservationID: *r.ObservationID, ScopeStart: *r.ScopeStart, ScopeEnd: *r.ScopeEnd}
		if f.Batch.GroupIndex < 1 || f.Batch.OperationIndex < 1 || f.Batch.ScopeStart >= f.Batch.ScopeEnd {
			ck.fail(field, "indices from 1 and a non-empty scope")
		}
	case has:
		ck.fail(field, "only a batch fact has group members")
	}
	if r.ChangeID == "" {
		ck.fail(field+".change_id", "missing")
	}
	if !isOperation(r.Operation) {
		ck.fail(field+".operation", "%q is not a fact operation", r.Operation)
	}
	for _, n := range []struct {
		name string
		p    *int
		dst  *int
	}{{"span_start", r.SpanStart, &f.SpanStart}, {"span_end", r.SpanEnd, &f.SpanEnd}, {"matched_chars", r.MatchedChars, &f.MatchedChars}, {"replacement_chars", r.ReplacementChars, &f.ReplacementChars}} {
		if n.p == nil || *n.p < 0 {
			ck.fail(field+"."+n.name, "a count of code points, required")
			continue
		}
		*n.dst = *n.p
	}
	var err error
	if f.MatchedText, err = parseText(r.MatchedText); err != nil {
		ck.fail(field+".matched_text", "%v", err)
	} else if f.MatchedText.Len() != f.MatchedChars {
		ck.fail(field+".matched_text", "%d code points, matched_chars says %d", f.MatchedText.Len(), f.MatchedChars)
	}
	if f.ReplacementText, err = parseText(r.ReplacementText); err != nil {
		ck.fail(field+".replacement_text", "%v", err)
	} else if f.ReplacementText.Len() != f.ReplacementChars {
		ck.fail(field+".replacement_text", "%d code points, replacement_chars says %d", f.ReplacementText.Len(), f.ReplacementChars)
	}
	if f.SpanEnd-f.SpanStart != f.MatchedChars {
		ck.fail(field, "span_end - span_start = %d, matched_chars %d", f.SpanEnd-f.SpanStart, f.MatchedChars)
	}
	for _, h := range []struct{ field, v string }{{"matched_sha256", r.MatchedSHA256}, {"replacement_sha256", r.ReplacementSHA256}} {
		if h.v != "" && !sha256Hex.MatchString(h.v) {
			ck.fail(field+"."+h.field, "64 lower-case hex digits")
		}
	}
	return f
}

func sameBool(a, b *bool) bool { return (a == nil) == (b == nil) && (a == nil || *a == *b) }

func showBool(p *bool) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

// strictUnmarshal decodes data into v, refusing unknown members and
// trailing data.
func strictUnmarshal(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if _, err := dec.Token(); err != io.EOF {
		return errors.New("data after the JSON value")
	}
	return nil
}

func jsonKind(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "a list"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// scanJSON checks what the strict decoder cannot: one JSON value, valid
// UTF-8, no key twice in any object, and unpaired surrogate escapes only
// inside request.target and request.transaction, where they are data. It
// returns the field at fault.
func scanJSON(data []byte) (string, error) {
	if !utf8.Valid(data) {
		return "", errors.New("not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	type frame struct {
		obj  bool
		keys map[string]bool
		path string
		key  string // the pending key of an object
		next bool   // the next string token is a key
		idx  int
	}
	var stack []*frame
	prev := int64(0)
	for {
		tok, err := dec.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return "", err
		}
		off := dec.InputOffset()
		raw := data[prev:off]
		prev = off
		here := ""
		if n := len(stack); n > 0 {
			f := stack[n-1]
			if f.obj {
				here = path.Join(f.path, f.key)
			} else {
				here = fmt.Sprintf("%s[%d]", f.path, f.idx)
			}
		}
		if s, ok := tok.(string); ok && len(stack) > 0 && stack[len(stack)-1].obj && stack[len(stack)-1].next {
			f := stack[len(stack)-1]
			if f.keys[s] {
				return path.Join(f.path, s), fmt.Errorf("member %q twice", s)
			}
			f.keys[s] = true
			f.key, f.next = s, false
			if loneSurrogate(raw) >= 0 && !dataField(f.path) {
				return path.Join(f.path, s), errors.New("an unpaired surrogate escape outside request.target and request.transaction")
			}
			continue
		}
		if _, ok := tok.(string); ok && loneSurrogate(raw) >= 0 && !dataField(here) {
			return here, errors.New("an unpaired surrogate escape outside request.target and request.transaction")
		}
		switch tok {
		case json.Delim('{'):
			stack = append(stack, &frame{obj: true, keys: map[string]bool{}, path: here, next: true})
			continue
		case json.Delim('['):
			stack = append(stack, &frame{path: here})
			continue
		case json.Delim('}'), json.Delim(']'):
			stack = stack[:len(stack)-1]
		}
		if n := len(stack); n > 0 {
			if stack[n-1].obj {
				stack[n-1].next = true
			} else {
				stack[n-1].idx++
			}
		}
	}
	return "", nil
}

// dataField reports whether the value at p (slash-joined) is text data.
func dataField(p string) bool {
	for _, root := range []string{"request/target", "request/transaction"} {
		if p == root || strings.HasPrefix(p, root+"/") || strings.HasPrefix(p, root+"[") {
			return true
		}
	}
	return false
}
