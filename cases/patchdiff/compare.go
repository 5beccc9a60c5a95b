package pdcases

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math/big"
	"slices"
	"strings"

	"github.com/google/go-cmp/cmp"
)

// Result is a runtime's answer to one call, as the adapter protocol
// returns it. Members a case cannot pin stay raw.
type Result struct {
	Status          string           `json:"status"`
	ValidationStage string           `json:"validation_stage"`
	Validity        *Validity        `json:"validity"`
	FailureReason   *string          `json:"failure_reason"`
	BeforeHash      *string          `json:"before_hash"`
	AfterHash       *string          `json:"after_hash"`
	ResultText      *string          `json:"result_text"`
	ChangeFacts     []map[string]any `json:"change_facts"`
	Warnings        []map[string]any `json:"warnings"`
	Diagnostic      map[string]any   `json:"diagnostic"`
	AssemblyOrder   []json.Number    `json:"assembly_order"`
}

// ParseResult decodes a result; numbers stay exact (json.Number).
func ParseResult(data []byte) (*Result, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var r Result
	if err := dec.Decode(&r); err != nil {
		return nil, fmt.Errorf("result: %w", err)
	}
	return &r, nil
}

// Canonicalize returns s with CRLF and then bare CR turned into LF, the
// seed's only canonicalisation: no Unicode normalisation, tabs, trailing
// spaces and the final newline kept.
func Canonicalize(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

// SHA256 returns the lower-case hex SHA-256 of the UTF-8 bytes of s.
func SHA256(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// Difference is one way a result differs from a case's expectation.
type Difference struct {
	// Text says what differs, one readable line or a go-cmp block
	// (-want +got).
	Text string
	// Recommended is true when the difference concerns only what the seed
	// leaves open and spec/patchdiff chose (the case's
	// diagnostic_recommended and diagnostic_lengths): it never fails a
	// certificate.
	Recommended bool
}

func (d Difference) String() string {
	if d.Recommended {
		return "(recommended) " + d.Text
	}
	return d.Text
}

// Failed reports whether ds holds a difference that fails the case: any
// that is not Recommended, or any at all in a case marked recommended.
func Failed(ds []Difference) bool {
	for _, d := range ds {
		if !d.Recommended {
			return true
		}
	}
	return false
}

// Compare checks got against the case's expectation and returns the
// differences; none means the result conforms. Hashes are recomputed from
// the texts: the canonical target for before_hash, the expected
// result_text for after_hash, each fact's matched and replacement text for
// its hashes. A case marked Recommended returns every difference as
// recommended.
func (c *Case) Compare(got *Result) []Difference {
	ds := c.compare(got)
	if c.Recommended {
		for i := range ds {
			ds[i].Recommended = true
		}
	}
	return ds
}

func (c *Case) compare(got *Result) []Difference {
	var d []Difference
	add := func(format string, args ...any) { d = append(d, Difference{Text: fmt.Sprintf(format, args...)}) }
	e := &c.Expect
	if got.Status != e.Status {
		add("status: want %q, got %q", e.Status, got.Status)
	}
	if got.ValidationStage != e.ValidationStage {
		add("validation_stage: want %q, got %q", e.ValidationStage, got.ValidationStage)
	}
	// ADAPTER-004: both lists are members of every result, [] when empty.
	if got.ChangeFacts == nil {
		add("change_facts: want a list ([] for none), got null or no member")
	}
	if got.Warnings == nil {
		add("warnings: want a list ([] for none), got null or no member")
	}
	if got.Validity == nil {
		add("validity: missing")
	} else if diff := cmp.Diff(e.Validity, *got.Validity); diff != "" {
		add("validity (-want +got):\n%s", diff)
	}
	switch {
	case e.FailureReason == "" && got.FailureReason != nil:
		add("failure_reason: want null, got %q", *got.FailureReason)
	case e.FailureReason != "" && (got.FailureReason == nil || *got.FailureReason != e.FailureReason):
		add("failure_reason: want %q, got %s", e.FailureReason, showString(got.FailureReason))
	}

	target, err := c.Request.Target.String()
	validTarget := err == nil && !strings.ContainsRune(target, 0)
	switch {
	case validTarget:
		if want := SHA256(Canonicalize(target)); got.BeforeHash == nil || *got.BeforeHash != want {
			add("before_hash: want %s (SHA-256 of the canonical target), got %s", want, showString(got.BeforeHash))
		}
	case got.BeforeHash != nil:
		add("before_hash: want null for a target that is not valid text, got %q", *got.BeforeHash)
	}
	if e.PinnedBeforeHash != "" && (got.BeforeHash == nil || *got.BeforeHash != e.PinnedBeforeHash) {
		add("before_hash: want %s (pinned), got %s", e.PinnedBeforeHash, showString(got.BeforeHash))
	}

	if e.Status == Rejected {
		if got.AfterHash != nil {
			add("after_hash: want null on rejection, got %q", *got.AfterHash)
		}
		if got.ResultText != nil {
			add("result_text: a rejection has none")
		}
		if len(got.ChangeFacts) > 0 {
			add("change_facts: a rejection has none, got %d", len(got.ChangeFacts))
		}
		if len(got.Warnings) > 0 {
			add("warnings: a rejection has none, got %d", len(got.Warnings))
		}
		if got.AssemblyOrder != nil {
			add("assembly_order: a rejection assembles nothing")
		}
		if got.Diagnostic == nil {
			add("diagnostic: missing on rejection")
			return d
		}
		if e.Diagnostic != nil {
			if diff := MatchSubset(e.Diagnostic, got.Diagnostic); diff != "" {
				add("diagnostic: %s", diff)
			}
		}
		for _, t := range checkBudgets(c, got) {
			add("%s", t)
		}
		if e.DiagnosticRecommended != nil {
			if diff := MatchSubset(e.DiagnosticRecommended, got.Diagnostic); diff != "" {
				d = append(d, Difference{Text: "diagnostic: " + diff, Recommended: true})
			}
		}
		for _, t := range checkLengths(c, got) {
			d = append(d, Difference{Text: t, Recommended: true})
		}
		return d
	}

	want := e.ResultText.MustString()
	if got.ResultText == nil {
		add("result_text: missing")
	} else if *got.ResultText != want {
		add("result_text (-want +got):\n%s", cmp.Diff(want, *got.ResultText))
	}
	if h := SHA256(want); got.AfterHash == nil || *got.AfterHash != h {
		add("after_hash: want %s (SHA-256 of result_text), got %s", h, showString(got.AfterHash))
	}
	if e.PinnedAfterHash != "" && (got.AfterHash == nil || *got.AfterHash != e.PinnedAfterHash) {
		add("after_hash: want %s (pinned), got %s", e.PinnedAfterHash, showString(got.AfterHash))
	}
	if c.Operation == OperationObservedBatch {
		var order []string
		for _, n := range got.AssemblyOrder {
			order = append(order, n.String())
		}
		if want := fmt.Sprint(e.AssemblyOrder); fmt.Sprint(order) != want {
			add("assembly_order: want %s, got %v", want, order)
		}
	}
	if diff := cmp.Diff(wantFacts(e.ChangeFacts), gotFacts(got.ChangeFacts, c.Operation == OperationObservedBatch)); diff != "" {
		add("change_facts (-want +got):\n%s", diff)
	}
	if diff := matchWarnings(e.Warnings, got.Warnings); diff != "" {
		add("warnings: %s", diff)
	}
	return d
}

// factView is the part of a fact a case pins.
type factView struct {
	ChangeID, Operation                                string
	SpanStart, SpanEnd, MatchedChars, ReplacementChars string
	MatchedSHA256, ReplacementSHA256                   string
	// Batch is an observed batch's group members (BATCH-018), empty for
	// a runtime call's fact.
	Batch string
}

func wantFacts(fs []Fact) []factView {
	out := []factView{}
	for _, f := range fs {
		ms, rs := SHA256(f.MatchedText.MustString()), SHA256(f.ReplacementText.MustString())
		if f.PinnedMatchedSHA != "" {
			ms = f.PinnedMatchedSHA
		}
		if f.PinnedReplacedSHA != "" {
			rs = f.PinnedReplacedSHA
		}
		var batch string
		if b := f.Batch; b != nil {
			batch = fmt.Sprintf("group_index %d, operation_index %d, observation_id %q, scope_start %d, scope_end %d",
				b.GroupIndex, b.OperationIndex, b.ObservationID, b.ScopeStart, b.ScopeEnd)
		}
		out = append(out, factView{f.ChangeID, f.Operation, fmt.Sprint(f.SpanStart), fmt.Sprint(f.SpanEnd),
			fmt.Sprint(f.MatchedChars), fmt.Sprint(f.ReplacementChars), ms, rs, batch})
	}
	return out
}

func gotFacts(fs []map[string]any, batch bool) []factView {
	out := []factView{}
	s := func(m map[string]any, k string) string {
		v, ok := m[k]
		if !ok {
			return "<missing>"
		}
		return fmt.Sprint(v)
	}
	for _, m := range fs {
		var b string
		if batch {
			id, ok := m["observation_id"].(string)
			if !ok {
				id = "<missing>"
			}
			b = fmt.Sprintf("group_index %s, operation_index %s, observation_id %q, scope_start %s, scope_end %s",
				s(m, "group_index"), s(m, "operation_index"), id, s(m, "scope_start"), s(m, "scope_end"))
		}
		out = append(out, factView{s(m, "change_id"), s(m, "operation"), s(m, "span_start"), s(m, "span_end"),
			s(m, "matched_chars"), s(m, "replacement_chars"), s(m, "matched_sha256"), s(m, "replacement_sha256"), b})
	}
	return out
}

// matchWarnings pairs each expected warning with a distinct actual one it
// is a subset of, in any order; the counts must be equal.
func matchWarnings(want, got []map[string]any) string {
	used := make([]bool, len(got))
	var missing []string
	for _, w := range want {
		found := false
		for i, g := range got {
			if !used[i] && MatchSubset(w, g) == "" {
				used[i], found = true, true
				break
			}
		}
		if !found {
			b, _ := json.Marshal(w)
			missing = append(missing, string(b))
		}
	}
	var extra []string
	for i, g := range got {
		if !used[i] {
			b, _ := json.Marshal(g)
			extra = append(extra, string(b))
		}
	}
	if len(missing) == 0 && len(extra) == 0 {
		return ""
	}
	return fmt.Sprintf("missing %v, unexpected %v", missing, extra)
}

// MatchSubset reports how got differs from the subset want: each member of
// an object in want must match the member of the same name in got (others
// are free); a list matches a list of the same length item by item; null
// in want matches null or a missing member; numbers compare by value.
func MatchSubset(want, got any) string {
	var d []string
	matchAt("", want, got, true, &d)
	return strings.Join(d, "; ")
}

func matchAt(at string, want, got any, present bool, d *[]string) {
	name := at
	if name == "" {
		name = "(top)"
	}
	if want == nil {
		if present && got != nil {
			*d = append(*d, fmt.Sprintf("%s: want null, got %s", name, show(got)))
		}
		return
	}
	if !present {
		*d = append(*d, fmt.Sprintf("%s: missing, want %s", name, show(want)))
		return
	}
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			*d = append(*d, fmt.Sprintf("%s: want an object, got %s", name, show(got)))
			return
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			gv, ok := g[k]
			matchAt(strings.TrimPrefix(at+"."+k, "."), w[k], gv, ok, d)
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			*d = append(*d, fmt.Sprintf("%s: want a list of %d, got %s", name, len(w), show(got)))
			return
		}
		for i := range w {
			matchAt(fmt.Sprintf("%s[%d]", at, i), w[i], g[i], true, d)
		}
	default:
		if !sameScalar(want, got) {
			*d = append(*d, fmt.Sprintf("%s: want %s, got %s", name, show(want), show(got)))
		}
	}
}

func sameScalar(a, b any) bool {
	na, aok := number(a)
	nb, bok := number(b)
	if aok || bok {
		return aok && bok && na.Cmp(nb) == 0
	}
	return a == b
}

func number(v any) (*big.Rat, bool) {
	var s string
	switch n := v.(type) {
	case json.Number:
		s = n.String()
	case float64:
		s = fmt.Sprint(n)
	case int:
		s = fmt.Sprint(n)
	default:
		return nil, false
	}
	r, ok := new(big.Rat).SetString(s)
	return r, ok
}

func show(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	if len(b) > 120 {
		return string(b[:117]) + "..."
	}
	return string(b)
}

func showString(p *string) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprintf("%q", *p)
}
