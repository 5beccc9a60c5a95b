package patchdiff

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

func ptr[T any](v T) *T { return &v }

// The seed's budgets: 256 code points of failing buffer, five candidates
// with 20 points of context and a 64-point preview (EVIDENCE-001, -004).
func TestAmbiguityEvidenceIsBounded(t *testing.T) {
	t.Parallel()
	target := strings.Repeat("é", 300) + strings.Repeat("k-", 7)
	r := run(v022, target, tx1(obj{"match": "k", "replace": "K"}))
	d := r.Diagnostic
	if r.Reason() != pdspec.MatchAmbiguous || d == nil || d.FailureContext == nil {
		t.Fatalf("got %+v", r)
	}
	fc := d.FailureContext
	if n := utf8.RuneCountInString(fc.Excerpt); n != 256 || fc.ExcerptKind != "window" || fc.BufferLength != 314 || fc.PriorChanges != 0 || fc.Buffer != "transaction_start" {
		t.Errorf("failure_context %+v (excerpt of %d code points)", fc, n)
	}
	if fc.ExcerptStart != 314-256 {
		t.Errorf("window starts at %d, want %d: clamped to the buffer's end", fc.ExcerptStart, 314-256)
	}
	if *d.CandidateCount != 7 || len(d.Candidates) != 5 {
		t.Fatalf("candidate_count %d, %d candidates", *d.CandidateCount, len(d.Candidates))
	}
	want := Candidate{OccurrenceIndex: 1, SpanStart: 300, SpanEnd: 301, ContextBefore: strings.Repeat("é", 20), ContextAfter: "-k-k-k-k-k-k-", Preview: "k"}
	if diff := cmp.Diff(want, d.Candidates[0]); diff != "" {
		t.Errorf("first candidate (-want +got):\n%s", diff)
	}
	if d.FailureDetail != "" || d.EditIndex != 1 || d.ChangeID != "chg_001" {
		t.Errorf("diagnostic %+v", d)
	}
}

func TestSequentialAmbiguityNamesItsBasis(t *testing.T) {
	t.Parallel()
	r := run(v022, "ab", tx1(obj{"match": "b", "replace": "a"}, obj{"match": "a", "replace": "c"}))
	d := r.Diagnostic
	if r.Reason() != pdspec.MatchAmbiguous || d.FailureDetail != pdspec.DetailSequentialBuffer ||
		d.FailureContext.Buffer != "intermediate_buffer" || d.FailureContext.PriorChanges != 1 || d.EditIndex != 2 {
		t.Errorf("EVIDENCE-003, EVIDENCE-005: %+v %+v", r, d)
	}
}

func TestMatchAbsentEvidence(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 70000)
	r := run(v022, long, tx1(obj{"match": "needle\r\n", "replace": ""}))
	d := r.Diagnostic
	if d.NearMissStatus != "captured" || d.NearMissQuery == nil || *d.NearMissQuery != "needle\n" {
		t.Errorf("EVIDENCE-006: query %v status %q", d.NearMissQuery, d.NearMissStatus)
	}
	if d.MatchAbsentPrefix == nil || len(*d.MatchAbsentPrefix) != 65536 {
		t.Errorf("EVIDENCE-007: prefix of %d", len(*d.MatchAbsentPrefix))
	}
	if d.FailureContext.ExcerptKind != "prefix" || d.FailureContext.ExcerptStart != 0 || len(d.FailureContext.Excerpt) != 256 {
		t.Errorf("EVIDENCE-002: %+v", d.FailureContext)
	}
	big := run(v022, "abc", tx1(obj{"match": strings.Repeat("q", 65), "replace": ""})).Diagnostic
	if big.NearMissStatus != "match_too_large" || big.NearMissQuery != nil {
		t.Errorf("EVIDENCE-006 over 64 code points: %+v", big)
	}
}

func TestSequentialEvidence(t *testing.T) {
	t.Parallel()
	r := run(v022, "ab ab", tx1(obj{"match": "b ", "replace": "", "change_id": "cut"}, obj{"match": "b", "replace": "z"}, obj{"match": "ab", "replace": ""}))
	want := []OriginalOccurrence{
		{OccurrenceIndex: 1, SpanStart: 0, SpanEnd: 2, OverlappedBy: ptr("cut")},
		{OccurrenceIndex: 2, SpanStart: 3, SpanEnd: 5, OverlappedBy: ptr("chg_002")},
	}
	if r.Reason() != pdspec.SequentialMatchInvalid {
		t.Fatalf("got %+v", outcomeOf(r))
	}
	if diff := cmp.Diff(want, r.Diagnostic.OriginalOccurrences); diff != "" {
		t.Errorf("EVIDENCE-008 (-want +got):\n%s", diff)
	}
	if r.Diagnostic.NearMissQuery != nil || r.Diagnostic.NearMissStatus != "" {
		t.Error("EVIDENCE-008: no near-miss query")
	}
}

func TestSpanDiagnostics(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, version, target string
		op                    obj
		want                  Diagnostic
	}{
		{"bounds", v030, "abc", obj{"op": "span", "start": 1, "end": 9, "expected_text": "", "replace": ""},
			Diagnostic{SpanCheck: "bounds", BufferLength: ptr(3), ActualText: ptr("bc")}},
		{"expected_text", v030, strings.Repeat("z", 100), obj{"op": "span", "start": 0, "end": 100, "expected_text": "", "replace": ""},
			Diagnostic{SpanCheck: "expected_text", BufferLength: ptr(100), ActualText: ptr(strings.Repeat("z", 64))}},
		{"expected_after", v050, "abc", obj{"op": "span", "start": 0, "end": 1, "expected_text": "a", "replace": "", "expected_after": "bd"},
			Diagnostic{SpanCheck: "expected_after", BufferLength: ptr(3), ActualText: ptr("bc")}},
	}
	for _, tt := range tests {
		r := run(tt.version, tt.target, tx2(tt.op))
		got := *r.Diagnostic
		got.FailureContext, got.EditIndex, got.ChangeID = nil, 0, ""
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: SPAN-004, SPAN-005 (-want +got):\n%s", tt.name, diff)
		}
	}
}

func TestObservedScope(t *testing.T) {
	t.Parallel()
	ins := func(at int, before, after any) obj {
		o := obj{"op": "span", "start": at, "end": at, "expected_text": "", "replace": "!"}
		if before != nil {
			o["expected_before"] = before
		}
		if after != nil {
			o["expected_after"] = after
		}
		return o
	}
	// Target "0123456789", scope [2, 8).
	tests := []struct {
		name     string
		version  string
		ops      []obj
		want     outcome
		wantCode string
	}{
		{"edit inside", v050, []obj{{"op": "span", "start": 2, "end": 8, "expected_text": "234567", "replace": "x"}}, accepted("01x89"), ""},
		{"edit crossing the end", v050, []obj{{"op": "span", "start": 7, "end": 9, "expected_text": "78", "replace": "x"}},
			rejected(applicability, pdspec.SpanOutOfBounds), pdspec.OperationOutsideObservedScope},
		{"match outside", v050, []obj{{"op": "match", "match": "1", "replace": "x"}}, rejected(applicability, pdspec.SpanOutOfBounds), pdspec.OperationOutsideObservedScope},
		{"guarded insertion inside", v050, []obj{ins(5, "34", "56")}, accepted("01234!56789"), ""},
		{"insertion at the scope start", v050, []obj{ins(2, "1", "2")}, rejected(applicability, pdspec.SpanOutOfBounds), pdspec.OperationOutsideObservedScope},
		{"insertion at the scope end", v050, []obj{ins(8, "7", "8")}, rejected(applicability, pdspec.SpanOutOfBounds), pdspec.OperationOutsideObservedScope},
		{"insertion without guards", v050, []obj{ins(5, nil, nil)}, rejected(applicability, pdspec.SpanExpectedTextMismatch), pdspec.ObservedInsertionGuardsRequired},
		{"insertion with an empty guard", v050, []obj{ins(5, "4", "")}, rejected(applicability, pdspec.SpanExpectedTextMismatch), pdspec.ObservedInsertionGuardsRequired},
		{"guard reaching out of the scope", v050, []obj{ins(3, "12", "3")}, rejected(applicability, pdspec.SpanOutOfBounds), pdspec.OperationOutsideObservedScope},
		{"running scope grows", v050, []obj{{"op": "span", "start": 7, "end": 8, "expected_text": "7", "replace": "777"}, {"op": "span", "start": 8, "end": 10, "expected_text": "77", "replace": "x"}},
			accepted("01234567x89"), ""},
		{"0.3.0 insertion has no guards to give", v030, []obj{ins(5, nil, nil)}, rejected(applicability, pdspec.SpanExpectedTextMismatch), pdspec.ObservedInsertionGuardsRequired},
	}
	for _, tt := range tests {
		r := Apply(Request{RuntimeVersion: tt.version, Target: "0123456789", TargetVersion: one(1), Transaction: tx2(tt.ops...), Scope: &Scope{Start: 2, End: 8}})
		if diff := cmp.Diff(tt.want, outcomeOf(r)); diff != "" {
			t.Errorf("%s (-want +got):\n%s", tt.name, diff)
		}
		if r.Diagnostic != nil && r.Diagnostic.Code != tt.wantCode {
			t.Errorf("%s: code %q, want %q", tt.name, r.Diagnostic.Code, tt.wantCode)
		}
	}
	bad := Apply(Request{RuntimeVersion: v050, Target: "abc", TargetVersion: one(1), Transaction: tx2(ins(1, "a", "b")), Scope: &Scope{Start: 2, End: 9}})
	if diff := cmp.Diff(rejected(precondition, pdspec.ContextInvalid), outcomeOf(bad)); diff != "" {
		t.Errorf("SCOPE-008 (-want +got):\n%s", diff)
	}
	unobserved := run(v050, "abc", tx2(ins(0, nil, nil)))
	if diff := cmp.Diff(accepted("!abc"), outcomeOf(unobserved)); diff != "" {
		t.Errorf("SCOPE-006 (-want +got):\n%s", diff)
	}
}

func TestWarnings(t *testing.T) {
	t.Parallel()
	r := run(v030, "a b a", tx2(
		obj{"op": "match", "match": "b", "replace": "b"},
		obj{"op": "match", "match": "a", "replace": "c", "occurrence_index": 1},
		obj{"op": "match", "match": "c", "replace": "a"},
	))
	want := []Warning{
		{Code: pdspec.NoOpChange, EditIndex: 1, ChangeID: "chg_001"},
		{Code: pdspec.NoOpTransaction},
	}
	if diff := cmp.Diff(want, r.Warnings, cmp.AllowUnexported(Warning{})); diff != "" {
		t.Errorf("WARN-001, WARN-002 (-want +got):\n%s", diff)
	}
	shift := run(v022, "xa a", tx1(obj{"match": "xa", "replace": "y"}, obj{"match": "a", "replace": "b", "occurrence_index": 1}))
	wantShift := []Warning{{Code: pdspec.OccurrenceIndexBasisShift, EditIndex: 2, ChangeID: "chg_002", OccurrenceIndex: ptr(int64(1)), OriginalIndex: ptr(2), basisShift: true}}
	if diff := cmp.Diff(wantShift, shift.Warnings, cmp.AllowUnexported(Warning{})); diff != "" {
		t.Errorf("WARN-003: index 1 after the change was index 2 at the start (-want +got):\n%s", diff)
	}
	made := run(v022, "q a", tx1(obj{"match": "q", "replace": "a"}, obj{"match": "a", "replace": "b", "occurrence_index": 1}))
	if len(made.Warnings) != 1 || made.Warnings[0].OriginalIndex != nil || made.Warnings[0].Code != pdspec.OccurrenceIndexBasisShift {
		t.Errorf("WARN-003: a span an earlier change wrote has no original index: %+v", made.Warnings)
	}
	if data, _ := made.Warnings[0].MarshalJSON(); !strings.Contains(string(data), `"original_index":null`) {
		t.Errorf("WARN-007: %s", data)
	}
	same := run(v022, "a a", tx1(obj{"match": "a ", "replace": "b "}, obj{"match": "a", "replace": "c", "occurrence_index": 1}))
	if len(same.Warnings) != 1 || same.Warnings[0].OriginalIndex == nil || *same.Warnings[0].OriginalIndex != 2 {
		t.Errorf("WARN-003: %+v", same.Warnings)
	}
	split := run(v022, "e\u0301!", tx1(obj{"match": "e", "replace": "a"}))
	if len(split.Warnings) != 1 || split.Warnings[0].Code != pdspec.GraphemeBoundarySplit || *split.Warnings[0].Offset != 1 {
		t.Errorf("WARN-004: splitting e from its combining accent: %+v", split.Warnings)
	}
	flag := run(v022, "\U0001F1EB\U0001F1F7", tx1(obj{"match": "\U0001F1F7", "replace": "x"}))
	if len(flag.Warnings) != 1 || *flag.Warnings[0].Offset != 1 {
		t.Errorf("WARN-004: splitting a flag: %+v", flag.Warnings)
	}
	quiet := Apply(Request{RuntimeVersion: v022, Target: "e\u0301", TargetVersion: one(1), Transaction: tx1(obj{"match": "e", "replace": "e"})})
	loud := run(v022, "e\u0301", tx1(obj{"match": "e", "replace": "e"}))
	if len(quiet.Warnings) != 0 || len(loud.Warnings) != 3 {
		t.Errorf("WARN-006: %d warnings off, %d on", len(quiet.Warnings), len(loud.Warnings))
	}
	loud.Warnings = []Warning{}
	if diff := cmp.Diff(loud, quiet, cmp.AllowUnexported(Warning{})); diff != "" {
		t.Errorf("WARN-005: warnings changed the result (-on +off):\n%s", diff)
	}
}

// EVIDENCE-002: a failure with a position shows a window starting 128 code
// points before it (clamped to the buffer), one without a position the
// buffer's prefix.
func TestExcerptPlacement(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, version, target, transaction string
		kind                               string
		start                              int
	}{
		{"ambiguity at 0", v022, "k k", tx1(obj{"match": "k", "replace": "K"}), "window", 0},
		{"ambiguity at 300", v022, strings.Repeat("x", 300) + "k k" + strings.Repeat("x", 697), tx1(obj{"match": "k", "replace": "K"}), "window", 300 - 128},
		{"sequential match", v022, "ab ab", tx1(obj{"match": "b ", "replace": ""}, obj{"match": "b", "replace": "z"}, obj{"match": "ab", "replace": ""}), "prefix", 0},
		{"span context refused", v040, "abc", tx2(obj{"op": "span", "start": 1, "end": 2, "expected_text": "b", "replace": "B", "expected_before": "a"}), "prefix", 0},
	} {
		r := run(tt.version, tt.target, tt.transaction)
		if r.Diagnostic == nil || r.Diagnostic.FailureContext == nil {
			t.Errorf("%s: no failure_context: %+v", tt.name, r)
			continue
		}
		if fc := r.Diagnostic.FailureContext; fc.ExcerptKind != tt.kind || fc.ExcerptStart != tt.start {
			t.Errorf("%s: excerpt %s at %d, want %s at %d", tt.name, fc.ExcerptKind, fc.ExcerptStart, tt.kind, tt.start)
		}
	}
}

// EVIDENCE-004: a candidate's context_before reaches back to the buffer's
// first code point when the candidate starts within 20 of it.
func TestCandidateContextAtBufferStart(t *testing.T) {
	t.Parallel()
	r := run(v022, "xk k", tx1(obj{"match": "k", "replace": "K"}))
	if r.Diagnostic == nil || len(r.Diagnostic.Candidates) != 2 {
		t.Fatalf("got %+v", r)
	}
	if got := r.Diagnostic.Candidates[0].ContextBefore; got != "x" {
		t.Errorf("context_before %q, want %q", got, "x")
	}
}

// WARN-007: original_index belongs to a basis shift only.
func TestWarningJSONMembers(t *testing.T) {
	t.Parallel()
	r := run(v022, "a", tx1(obj{"match": "a", "replace": "a"}))
	if len(r.Warnings) == 0 {
		t.Fatal("no warning")
	}
	for _, w := range r.Warnings {
		if data, _ := w.MarshalJSON(); strings.Contains(string(data), "original_index") {
			t.Errorf("%s has original_index: %s", w.Code, data)
		}
	}
}
