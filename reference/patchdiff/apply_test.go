package patchdiff

import (
	"encoding/json"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Every expectation in this file is read from the seed (003_*.txt) or from
// a clarification of spec/patchdiff that cites it, never from the output.

const (
	v010 = "patchdiff-mvp-0.1.0"
	v021 = "patchdiff-mvp-0.2.1"
	v022 = "patchdiff-mvp-0.2.2"
	v030 = "patchdiff-mvp-0.3.0"
	v040 = "patchdiff-mvp-0.4.0"
	v050 = "patchdiff-mvp-0.5.0"
)

type obj = map[string]any

// tx builds a transaction of format with a version guard of 1 and ops as
// its edits (tx/1) or operations.
func tx(format string, ops ...obj) string {
	list := "operations"
	if format == pdspec.FormatTx1 {
		list = "edits"
	}
	items := make([]any, len(ops))
	for i, o := range ops {
		items[i] = o
	}
	data, err := json.Marshal(obj{"format": format, "target_file_id": "t-1", "intent": "edit", "expected_target_version": 1, list: items})
	if err != nil {
		panic(err)
	}
	return string(data)
}

func tx1(ops ...obj) string { return tx(pdspec.FormatTx1, ops...) }
func tx2(ops ...obj) string { return tx(pdspec.FormatTx2, ops...) }

func one(n int64) *int64 { return &n }

func run(version, target, transaction string) Result {
	return Apply(Request{RuntimeVersion: version, Target: target, TargetVersion: one(1), Transaction: transaction, CollectWarnings: true})
}

// outcome is what most rows compare: the verdict, its stage and label, the
// result text.
type outcome struct {
	Status string
	Stage  pdspec.Stage
	Reason pdspec.Reason
	Text   string
}

func outcomeOf(r Result) outcome {
	o := outcome{Status: r.Status, Stage: r.ValidationStage, Reason: r.Reason()}
	if r.ResultText != nil {
		o.Text = *r.ResultText
	}
	return o
}

func accepted(text string) outcome {
	return outcome{Status: "accepted", Stage: pdspec.Accepted, Text: text}
}

func rejected(stage pdspec.Stage, reason pdspec.Reason) outcome {
	return outcome{Status: "rejected", Stage: stage, Reason: reason}
}

var (
	applicability = pdspec.TransactionApplicability
	protocol      = pdspec.ProtocolValidation
	precondition  = pdspec.PreconditionGuard
)

func TestApplyOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, why       string
		version, target string
		tx              string
		want            outcome
	}{
		{"overlapping occurrences are ambiguous", "FIND-003: aa in aaa has spans 0..2 and 1..3", v022, "aaa",
			tx1(obj{"match": "aa", "replace": "b"}), rejected(applicability, pdspec.MatchAmbiguous)},
		{"occurrence_index counts overlapping occurrences", "SELECT-002: index 2 is span 1..3", v022, "aaa",
			tx1(obj{"match": "aa", "replace": "b", "occurrence_index": 2}), accepted("ab")},
		{"absent match", "FIND-004", v022, "abc", tx1(obj{"match": "x", "replace": "y"}), rejected(applicability, pdspec.MatchAbsent)},
		{"matching is case-sensitive", "FIND-001", v022, "ABC", tx1(obj{"match": "abc", "replace": "y"}), rejected(applicability, pdspec.MatchAbsent)},
		{"CRLF target and LF match", "CANON-001: the target's CRLF becomes LF before matching", v022, "a\r\nb\rc",
			tx1(obj{"match": "a\nb\nc", "replace": "x\r\ny"}), accepted("x\ny")},
		{"no Unicode normalization", "CANON-004: precomposed é does not match e + combining acute", v022, "caf\u00e9",
			tx1(obj{"match": "cafe\u0301", "replace": "x"}), rejected(applicability, pdspec.MatchAbsent)},
		{"tabs and trailing spaces kept", "CANON-003", v022, "a\t \n", tx1(obj{"match": "\t \n", "replace": "!"}), accepted("a!")},
		{"empty replace deletes", "DECODE-010", v022, "abc", tx1(obj{"match": "b", "replace": ""}), accepted("ac")},
		{"anchors need no adjacency", "SELECT-003, SELECT-004", v022, "x1 k y | x2 k y",
			tx1(obj{"match": "k", "replace": "K", "anchor_before": "x2"}), accepted("x1 k y | x2 K y")},
		{"anchor_after selects the earlier occurrence", "SELECT-004", v022, "k | end k",
			tx1(obj{"match": "k", "replace": "K", "anchor_after": "end"}), accepted("K | end k")},
		{"selectors are conjunctive", "SELECT-005: index 2 and anchor_before x2 both hold only for the second", v022, "x1 k x2 k k",
			tx1(obj{"match": "k", "replace": "K", "occurrence_index": 2, "anchor_before": "x2"}), accepted("x1 k x2 K k")},
		{"conjunctive selectors that exclude every occurrence", "SELECT-006", v022, "x1 k x2 k",
			tx1(obj{"match": "k", "replace": "K", "occurrence_index": 1, "anchor_before": "x2"}), rejected(applicability, pdspec.DisambiguationInvalid)},
		{"index beyond the occurrences", "SELECT-007", v022, "k k", tx1(obj{"match": "k", "replace": "K", "occurrence_index": 3}),
			rejected(applicability, pdspec.DisambiguationInvalid)},
		{"singleton with no selector", "SELECT-009", v022, "abc", tx1(obj{"match": "b", "replace": "B"}), accepted("aBc")},
		{"0.2.2 constrains a singleton's out-of-range index", "SELECT-010", v022, "abc",
			tx1(obj{"match": "b", "replace": "B", "occurrence_index": 2}), rejected(applicability, pdspec.DisambiguationInvalid)},
		{"0.2.2 constrains a singleton's excluding anchor", "SELECT-010", v022, "abc",
			tx1(obj{"match": "b", "replace": "B", "anchor_before": "c"}), rejected(applicability, pdspec.DisambiguationInvalid)},
		{"0.2.1 ignores a singleton's selectors", "SELECT-011: historical ignored-singleton-selector behaviour", v021, "abc",
			tx1(obj{"match": "b", "replace": "B", "occurrence_index": 2}), accepted("aBc")},
		{"0.1.0 ignores a singleton's anchors", "SELECT-011", v010, "abc",
			tx1(obj{"match": "b", "replace": "B", "anchor_before": "c"}), accepted("aBc")},
		{"historical profiles enumerate overlaps too", "PROFILE-007", v010, "aaa",
			tx1(obj{"match": "aa", "replace": "b"}), rejected(applicability, pdspec.MatchAmbiguous)},
		{"region_hint is unknown in tx/1", "DECODE-011: unknown fields (including region_hint) are manifest_invalid", v022, "k k",
			tx1(obj{"match": "k", "replace": "K", "region_hint": "top"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"advisory-only mapping cannot select", "SELECT-008", v030, "k k",
			tx2(obj{"op": "match", "match": "k", "replace": "K", "region_hint": "top"}), rejected(applicability, pdspec.DisambiguationInvalid)},
		{"region_hint on a singleton is harmless", "SELECT-012", v030, "k",
			tx2(obj{"op": "match", "match": "k", "replace": "K", "region_hint": "top"}), accepted("K")},
		{"edit 2 sees edit 1's buffer", "SEQ-001", v022, "abc",
			tx1(obj{"match": "b", "replace": "xy"}, obj{"match": "xyc", "replace": "z"}), accepted("az")},
		{"edit 2 matched only the start text", "SEQ-003", v022, "abc",
			tx1(obj{"match": "b", "replace": "x"}, obj{"match": "bc", "replace": "z"}), rejected(applicability, pdspec.SequentialMatchInvalid)},
		{"edit 1 absent is never sequential", "SEQ-003 needs N > 1", v022, "abc",
			tx1(obj{"match": "q", "replace": "x"}), rejected(applicability, pdspec.MatchAbsent)},
		{"edit 2 absent everywhere", "FIND-004", v022, "abc",
			tx1(obj{"match": "b", "replace": "x"}, obj{"match": "q", "replace": "z"}), rejected(applicability, pdspec.MatchAbsent)},
		{"a later failure rejects the whole transaction", "SEQ-002", v022, "abc",
			tx1(obj{"match": "a", "replace": "A"}, obj{"match": "q", "replace": "z"}), rejected(applicability, pdspec.MatchAbsent)},
		{"span replaces code points", "SPAN-003 over code points (FIND-005): é is one", v030, "caf\u00e9!",
			tx2(obj{"op": "span", "start": 3, "end": 4, "expected_text": "\u00e9", "replace": "e"}), accepted("cafe!")},
		{"supplementary characters are one code point", "FIND-005", v030, "a\U0001F600b",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "\U0001F600", "replace": ":)"}), accepted("a:)b")},
		{"zero-width span inserts", "SPAN-003", v030, "ac", tx2(obj{"op": "span", "start": 1, "end": 1, "expected_text": "", "replace": "b"}), accepted("abc")},
		{"span end beyond the buffer", "SPAN-001", v030, "abc",
			tx2(obj{"op": "span", "start": 2, "end": 4, "expected_text": "c", "replace": ""}), rejected(applicability, pdspec.SpanOutOfBounds)},
		{"span expected text differs", "SPAN-002", v030, "abc",
			tx2(obj{"op": "span", "start": 0, "end": 1, "expected_text": "b", "replace": ""}), rejected(applicability, pdspec.SpanExpectedTextMismatch)},
		{"span expected text is canonicalized", "SPAN-002", v030, "a\nb",
			tx2(obj{"op": "span", "start": 0, "end": 3, "expected_text": "a\r\nb", "replace": "x"}), accepted("x")},
		{"spans count the sequential buffer", "SPAN: code points of the sequential canonical buffer", v030, "abc",
			tx2(obj{"op": "match", "match": "a", "replace": "xx"}, obj{"op": "span", "start": 2, "end": 3, "expected_text": "b", "replace": "B"}), accepted("xxBc")},
		{"start after end is malformed", "DECODE-025", v030, "abc",
			tx2(obj{"op": "span", "start": 2, "end": 1, "expected_text": "", "replace": ""}), rejected(protocol, pdspec.ManifestInvalid)},
		{"boolean span offset", "DECODE-025: non-bool integers", v030, "abc",
			tx2(obj{"op": "span", "start": true, "end": 1, "expected_text": "a", "replace": ""}), rejected(protocol, pdspec.ManifestInvalid)},
		{"0.3.0 rejects span context at decoding", "DECODE-027", v030, "abc",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_before": "a"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"0.4.0's applier refuses span context", "SPAN-009", v040, "abc",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_before": "a"}), rejected(applicability, pdspec.ManifestInvalid)},
		{"0.5.0 accepts matching span context", "SPAN-006, SPAN-007", v050, "abc",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_before": "a", "expected_after": "c"}), accepted("aBc")},
		{"0.5.0 expected_before mismatch", "SPAN-006", v050, "abc",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_before": "x"}), rejected(applicability, pdspec.SpanExpectedTextMismatch)},
		{"expected_after longer than the rest", "SPAN-008", v050, "abc",
			tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_after": "cd"}), rejected(applicability, pdspec.SpanExpectedTextMismatch)},
		{"0.2.2 does not accept tx/2", "PROFILE-004, PROFILE-005", v022, "abc",
			tx2(obj{"op": "match", "match": "a", "replace": "b"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"0.3.0 does not accept tx/3", "PROFILE-004", v030, "abc",
			tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": "x"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"0.5.0 does not accept tx/3", "PROFILE-004: 0.5.0 enables spans and span context only", v050, "abc",
			tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": "x"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"0.4.0 replaces everything", "SOLE-002", v040, "abc", tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": "x\r\n"}), accepted("x\n")},
		{"tx/3 with two operations", "SOLE-001", v040, "abc",
			tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": "x"}, obj{"op": "replace_all", "replace": "y"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"tx/3 with a span", "SOLE-001", v040, "abc",
			tx(pdspec.FormatTx3, obj{"op": "span", "start": 0, "end": 0, "expected_text": "", "replace": "y"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"tx/2 with replace_all", "DECODE-023", v040, "abc", tx2(obj{"op": "replace_all", "replace": "x"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"tx/1 runs under 0.5.0", "PROFILE-006", v050, "abc", tx1(obj{"match": "b", "replace": "B"}), accepted("aBc")},
		{"unknown profile fails closed", "PROFILE-002", "patchdiff-mvp-9.9.9", "abc", tx1(obj{"match": "b", "replace": "B"}), rejected(precondition, pdspec.ContextInvalid)},
		{"missing profile fails closed", "PROFILE-002", "", "abc", tx1(obj{"match": "b", "replace": "B"}), rejected(precondition, pdspec.ContextInvalid)},
		{"NUL in the target", "CANON-007", v022, "a\x00b", tx1(obj{"match": "a", "replace": "b"}), rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"lone surrogate in the target", "CANON-007: it arrives in its three-byte form", v022, "a\xed\xa0\x80", tx1(obj{"match": "a", "replace": "b"}),
			rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"default change IDs collide with a given one", "DECODE-014", v022, "abc",
			tx1(obj{"match": "a", "replace": "A", "change_id": "chg_002"}, obj{"match": "b", "replace": "B"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"risk outside low, medium, high", "DECODE-012", v022, "abc", tx1(obj{"match": "a", "replace": "A", "risk": "severe"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"empty match", "DECODE-010", v022, "abc", tx1(obj{"match": "", "replace": "A"}), rejected(protocol, pdspec.ManifestInvalid)},
		{"occurrence_index zero", "DECODE-017", v022, "abc", tx1(obj{"match": "a", "replace": "A", "occurrence_index": 0}), rejected(protocol, pdspec.ManifestInvalid)},
		{"occurrence_index as a float", "DECODE-019", v022, "abc", tx1(obj{"match": "a", "replace": "A", "occurrence_index": 1.5}), rejected(protocol, pdspec.ManifestInvalid)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := outcomeOf(run(tt.version, tt.target, tt.tx))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("%s (-want +got):\n%s", tt.why, diff)
			}
		})
	}
}

// Raw transaction texts that strict decoding must refuse, each with the
// label the seed or a clarification gives it.
func TestStrictDecoding(t *testing.T) {
	t.Parallel()
	const head = `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":1,`
	const edits = `"edits":[{"match":"a","replace":"b"}]`
	tests := []struct {
		name, text string
		want       outcome
	}{
		{"valid control row", head + edits + `}`, accepted("bbc")},
		{"duplicate key", head + edits + `,"intent":"j"}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"duplicate key in nested metadata", head + edits + `,"metadata":{"k":1,"k":2}}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"duplicate key through an escape", head + edits + `,"int\u0065nt":"j"}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"trailing data", head + edits + `} {}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"trailing comma", head + edits + `,}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"huge version", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":100000000000000000000,` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"boolean version", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":true,` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"exponent version", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":1e0,` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"deep nesting", head + edits + `,"metadata":` + strings.Repeat(`{"a":`, 70) + `1` + strings.Repeat(`}`, 70) + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"nesting at the limit", head + edits + `,"metadata":` + strings.Repeat(`{"a":`, 63) + `1` + strings.Repeat(`}`, 63) + `}`, accepted("bbc")},
		{"lone surrogate escape in metadata", head + edits + `,"metadata":{"x":["\ud800"]}}`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"lone low surrogate escape", head + `"edits":[{"match":"a","replace":"\udc00"}]}`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"NUL escape in a member name", head + edits + `,"metadata":{"\u0000":1}}`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"NUL escape in intent", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"\u0000","expected_target_version":1,` + edits + `}`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"invalid text outranks a syntax error", `{"intent":"\ud800",,`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"bytes that are not UTF-8", head + `"edits":[{"match":"a","replace":"` + "\xff" + `"}]}`, rejected(protocol, pdspec.TargetEncodingInvalid)},
		{"a surrogate pair is fine", head + `"edits":[{"match":"a","replace":"\ud83d\ude00"}]}`, accepted("\U0001F600bc")},
		{"empty transaction", "", rejected(protocol, pdspec.ManifestMissing)},
		{"null transaction", " null ", rejected(protocol, pdspec.ManifestMissing)},
		{"array transaction", "[]", rejected(protocol, pdspec.ManifestInvalid)},
		{"no edits", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":1}`, rejected(protocol, pdspec.ManifestMissing)},
		{"empty edits", head + `"edits":[]}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"unknown top-level member", head + edits + `,"extra":1}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"empty intent", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"","expected_target_version":1,` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"unknown format", `{"format":"patchdiff-tx/9","target_file_id":"t","intent":"i","expected_target_version":1,` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"no state guard", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i",` + edits + `}`, rejected(protocol, pdspec.ContextMissing)},
		{"guard mismatch outranks structure", `{"format":"nope","expected_target_version":2}`, rejected(precondition, pdspec.TargetVersionMismatch)},
		{"uppercase hash is ill-formed", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_current_hash":"` + strings.Repeat("A", 64) + `",` + edits + `}`, rejected(protocol, pdspec.ManifestInvalid)},
		{"null change_id defaults", head + `"edits":[{"match":"a","replace":"b","change_id":null}]}`, accepted("bbc")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got := outcomeOf(run(v022, "abc", tt.text))
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
		})
	}
}

// Every stage reports the seed's validity pair, and task_correct and
// semantic are never evaluated (STAGE-001, STAGE-002); hashes follow HASH.
func TestValidityAndHashes(t *testing.T) {
	t.Parallel()
	tru, fal := true, false
	hash := func(s string) *string { h := Hash(s); return &h }
	tests := []struct {
		name       string
		res        Result
		pv, tv     *bool
		before     *string
		afterIsSet bool
	}{
		{"precondition", run("nope", "a\r\n", tx1(obj{"match": "a", "replace": "b"})), nil, nil, hash("a\n"), false},
		{"protocol", run(v022, "a", "[]"), &fal, nil, hash("a"), false},
		{"invalid target", run(v022, "\x00", tx1(obj{"match": "a", "replace": "b"})), &fal, nil, nil, false},
		{"applicability", run(v022, "a", tx1(obj{"match": "q", "replace": "b"})), &tru, &fal, hash("a"), false},
		{"accepted", run(v022, "a", tx1(obj{"match": "a", "replace": "b"})), &tru, &tru, hash("a"), true},
	}
	for _, tt := range tests {
		r := tt.res
		if diff := cmp.Diff(Validity{ProtocolValid: tt.pv, TransactionValid: tt.tv, TaskCorrect: "not_evaluated", Semantic: "not_evaluated"}, r.Validity); diff != "" {
			t.Errorf("%s: validity (-want +got):\n%s", tt.name, diff)
		}
		if diff := cmp.Diff(tt.before, r.BeforeHash); diff != "" {
			t.Errorf("%s: before_hash (-want +got):\n%s", tt.name, diff)
		}
		if (r.AfterHash != nil) != tt.afterIsSet || (r.AfterHash != nil && *r.AfterHash != Hash(*r.ResultText)) {
			t.Errorf("%s: after_hash %v", tt.name, r.AfterHash)
		}
	}
}

// The guards are checked against the request: version first, then the
// canonical hash (GUARD-002 to GUARD-006).
func TestStateGuards(t *testing.T) {
	t.Parallel()
	edits := `"edits":[{"match":"a","replace":"b"}]`
	good := Hash("a\n")
	tests := []struct {
		name, guards string
		version      *int64
		want         outcome
	}{
		{"hash of the canonical target", `"expected_current_hash":"` + good + `"`, nil, accepted("b\n")},
		{"hash mismatch", `"expected_current_hash":"` + Hash("a\r\n") + `"`, nil, rejected(precondition, pdspec.TargetHashMismatch)},
		{"version mismatch", `"expected_target_version":2`, one(1), rejected(precondition, pdspec.TargetVersionMismatch)},
		{"version first", `"expected_target_version":2,"expected_current_hash":"` + Hash("x") + `"`, one(1), rejected(precondition, pdspec.TargetVersionMismatch)},
		{"both hold", `"expected_target_version":1,"expected_current_hash":"` + good + `"`, one(1), accepted("b\n")},
		{"no target_version to compare", `"expected_target_version":1`, nil, rejected(precondition, pdspec.ContextMissing)},
	}
	for _, tt := range tests {
		text := `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i",` + tt.guards + `,` + edits + `}`
		r := Apply(Request{RuntimeVersion: v022, Target: "a\r\n", TargetVersion: tt.version, Transaction: text})
		if diff := cmp.Diff(tt.want, outcomeOf(r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestChangeFacts(t *testing.T) {
	t.Parallel()
	r := run(v030, "h\u00e9llo world", tx2(
		obj{"op": "match", "match": "world", "replace": "there", "change_id": "w"},
		obj{"op": "span", "start": 0, "end": 5, "expected_text": "h\u00e9llo", "replace": "hi"},
	))
	want := []ChangeFact{
		{ChangeID: "w", Operation: "match", SpanStart: 6, SpanEnd: 11, MatchedChars: 5, ReplacementChars: 5, MatchedSHA256: Hash("world"), ReplacementSHA256: Hash("there")},
		{ChangeID: "chg_002", Operation: "span", SpanStart: 0, SpanEnd: 5, MatchedChars: 5, ReplacementChars: 2, MatchedSHA256: Hash("h\u00e9llo"), ReplacementSHA256: Hash("hi")},
	}
	if diff := cmp.Diff(want, r.ChangeFacts); diff != "" {
		t.Errorf("FACT-001 to FACT-004 (-want +got):\n%s", diff)
	}
	all := Apply(Request{RuntimeVersion: v040, Target: "abc", TargetVersion: one(1), Transaction: tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": ""})})
	wantAll := []ChangeFact{{ChangeID: "chg_001", Operation: "replace_all", SpanStart: 0, SpanEnd: 3, MatchedChars: 3, ReplacementChars: 0, MatchedSHA256: Hash("abc"), ReplacementSHA256: Hash("")}}
	if diff := cmp.Diff(wantAll, all.ChangeFacts); diff != "" {
		t.Errorf("SOLE-003 (-want +got):\n%s", diff)
	}
}

func TestDecodeReturnsCodedErrors(t *testing.T) {
	t.Parallel()
	if _, err := Decode(v022, "{"); !errors.Is(err, &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.ProtocolValidation}) {
		t.Errorf("Decode malformed: %v", err)
	}
	if _, err := Decode("x", "{}"); !errors.Is(err, &Error{Reason: pdspec.ContextInvalid}) {
		t.Errorf("Decode unknown profile: %v", err)
	}
	got, err := Decode(v022, tx1(obj{"match": "a\r\n", "replace": "b"}, obj{"match": "c", "replace": "d", "change_id": "mine"}))
	if err != nil {
		t.Fatal(err)
	}
	if got.Operations[0].Match != "a\n" || got.Operations[0].ChangeID != "chg_001" || got.Operations[1].ChangeID != "mine" || *got.ExpectedTargetVersion != 1 {
		t.Errorf("Decode = %+v", got)
	}
	if got.HasMetadata {
		t.Errorf("Decode without metadata: HasMetadata")
	}
	if got, err := Decode(v022, tx1(obj{"match": "a", "replace": "b", "risk": "low"})); err != nil || got.Operations[0].Risk != "low" {
		t.Errorf("Decode keeps an operation's risk: %v, %+v", err, got)
	}
	if got, err := Decode(v022, strings.Replace(tx1(obj{"match": "a", "replace": "b"}), "{", `{"metadata":{},`, 1)); err != nil || !got.HasMetadata {
		t.Errorf("Decode with metadata: %v, %+v", err, got)
	}
}

// CANON-010: the diagnostic of invalid text holds markers only: which
// input, and for the transaction the byte offset of its first fault.
func TestInvalidTextDiagnostic(t *testing.T) {
	t.Parallel()
	off := func(n int) *int { return &n }
	valid := tx1(obj{"match": "a", "replace": "b"})
	for name, tt := range map[string]struct {
		target, transaction string
		want                Diagnostic
	}{
		"target":                   {"a\x00b", valid, Diagnostic{InvalidInput: pdspec.InvalidInputTarget}},
		"transaction":              {"ab", valid[:5] + "\x00" + valid[5:], Diagnostic{InvalidInput: pdspec.InvalidInputTransaction, ByteOffset: off(5)}},
		"transaction's first byte": {"ab", "\xff{}", Diagnostic{InvalidInput: pdspec.InvalidInputTransaction, ByteOffset: off(0)}},
		"first of two faults":      {"ab", "\xff{\x00}", Diagnostic{InvalidInput: pdspec.InvalidInputTransaction, ByteOffset: off(0)}},
		"after ASCII":              {"ab", "{\xff}", Diagnostic{InvalidInput: pdspec.InvalidInputTransaction, ByteOffset: off(1)}},
	} {
		r := run(v022, tt.target, tt.transaction)
		if r.Reason() != pdspec.TargetEncodingInvalid || r.Diagnostic == nil {
			t.Errorf("%s: %+v", name, r)
			continue
		}
		if diff := cmp.Diff(tt.want, *r.Diagnostic); diff != "" {
			t.Errorf("%s (-want +got):\n%s", name, diff)
		}
	}
}

func TestCanonicalize(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"a\r\nb": "a\nb", "a\rb": "a\nb", "\r\r\n": "\n\n", "\n\r": "\n\n", "a\tb \n": "a\tb \n", "e\u0301": "e\u0301", "": "",
	} {
		if got := Canonicalize(in); got != want {
			t.Errorf("Canonicalize(%q) = %q, want %q", in, got, want)
		}
	}
}

// Error's text names the reason, the stage, the member and the message;
// errors.Is matches on the reason, and on the stage when the target names
// one.
func TestErrorTextAndIs(t *testing.T) {
	t.Parallel()
	e := &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.ProtocolValidation, Path: "$.edits[0].match", Offset: -1, Message: "want a string"}
	if got, want := e.Error(), "manifest_invalid at PROTOCOL_VALIDATION: $.edits[0].match: want a string"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	bare := &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.ProtocolValidation, Offset: -1}
	if got, want := bare.Error(), "manifest_invalid at PROTOCOL_VALIDATION"; got != want {
		t.Errorf("Error() = %q, want %q", got, want)
	}
	if errors.Is(e, &Error{Reason: pdspec.ContextInvalid}) {
		t.Error("errors.Is matched another reason")
	}
	if errors.Is(e, &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.PreconditionGuard}) {
		t.Error("errors.Is matched another stage")
	}
	if errors.Is(e, io.EOF) {
		t.Error("errors.Is matched an error of another type")
	}
}
