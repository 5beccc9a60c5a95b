package batch

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/gowebpki/jcs"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// group is one group of a test envelope: its scope over the canonical
// target and its operations as tx/2 JSON objects.
type group struct {
	id         string
	start, end int
	ops        []map[string]any
}

// envelope builds the canonical envelope of groups over target at version
// 1, with every scope's real hash as its evidence.
func envelope(t *testing.T, target string, groups ...group) string {
	t.Helper()
	canon := []rune(pd.Canonicalize(target))
	var gs []any
	for _, g := range groups {
		gs = append(gs, map[string]any{
			"observation_id": g.id,
			"scope_bounds":   map[string]any{"scope_start": g.start, "scope_end": g.end},
			"target_hash":    pd.Hash(string(canon[g.start:g.end])),
			"transaction":    map[string]any{"format": "patchdiff-tx/2", "target_file_id": "t", "intent": "edit", "operations": g.ops},
		})
	}
	return canonical(t, map[string]any{
		"format": "patchdiff-observed-batch/1", "target_file_id": "t", "intent": "batch",
		"expected_target_version": 1, "expected_current_hash": pd.Hash(string(canon)), "groups": gs,
	})
}

func canonical(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	c, err := jcs.Transform(b)
	if err != nil {
		t.Fatal(err)
	}
	return string(c)
}

func span(start, end int, expected, replace string) map[string]any {
	return map[string]any{"op": "span", "start": start, "end": end, "expected_text": expected, "replace": replace}
}

func run(batch, target string) Result {
	v := int64(1)
	return Apply(Request{RuntimeVersion: pdspec.ObservedBatch().RuntimeVersion, Target: target, TargetVersion: &v, Batch: batch, CollectWarnings: true})
}

// Descending assembly: two groups listed in ascending order are put in
// from the back, and every fact keeps its group and local coordinates
// (BATCH-017, BATCH-018).
func TestAssemblesDescending(t *testing.T) {
	t.Parallel()
	target := "one\r\ntwo\r\nthree\r\n" // canonical: "one\ntwo\nthree\n"
	r := run(envelope(t, target,
		group{"a", 0, 4, []map[string]any{span(0, 3, "one", "ONE!")}},
		group{"b", 8, 14, []map[string]any{span(0, 5, "three", "3"), span(1, 2, "\n", "")}},
	), target)
	if !r.Accepted() {
		t.Fatalf("rejected: %s %+v", r.Reason(), r.Diagnostic)
	}
	if got := *r.ResultText; got != "ONE!\ntwo\n3" {
		t.Errorf("result_text %q", got)
	}
	if len(r.AssemblyOrder) != 2 || r.AssemblyOrder[0] != 2 || r.AssemblyOrder[1] != 1 {
		t.Errorf("assembly_order %v, want [2 1]", r.AssemblyOrder)
	}
	f := r.ChangeFacts[2]
	if f.GroupIndex != 2 || f.OperationIndex != 2 || f.ObservationID != "b" || f.ScopeStart != 8 || f.ScopeEnd != 14 || f.SpanStart != 1 || f.SpanEnd != 2 {
		t.Errorf("third fact %+v", f)
	}
}

// Each fault is reported with its label, stage and group (BATCH-003 to
// BATCH-016).
func TestFaults(t *testing.T) {
	t.Parallel()
	target := "abc\ndef\n"
	ok := group{"a", 0, 4, []map[string]any{span(0, 1, "a", "A")}}
	for _, c := range []struct {
		name   string
		batch  string
		reason pdspec.Reason
		stage  pdspec.Stage
		group  int
	}{
		{"not canonical", strings.Replace(envelope(t, target, ok), `{"`, `{ "`, 1), pdspec.ManifestInvalid, pdspec.ProtocolValidation, 0},
		{"empty", " ", pdspec.ManifestMissing, pdspec.ProtocolValidation, 0},
		{"lone surrogate", `{"a":"\ud800"}`, pdspec.TargetEncodingInvalid, pdspec.ProtocolValidation, 0},
		{"overlap", envelope(t, target, ok, group{"b", 3, 8, []map[string]any{span(0, 1, "\n", "")}}), pdspec.ManifestInvalid, pdspec.ProtocolValidation, 2},
		{"duplicate observation", envelope(t, target, ok, group{"a", 4, 8, []map[string]any{span(0, 1, "d", "")}}), pdspec.ManifestInvalid, pdspec.ProtocolValidation, 2},
		{"global guard before the evidence", envelope(t, target+"x", ok, group{"b", 4, 9, []map[string]any{span(0, 1, "d", "")}}), pdspec.TargetHashMismatch, pdspec.PreconditionGuard, 0},
		{"group fails", envelope(t, target, ok, group{"b", 4, 8, []map[string]any{span(0, 1, "x", "")}}), pdspec.SpanExpectedTextMismatch, pdspec.TransactionApplicability, 2},
		{"insertion at the scope's edge", envelope(t, target, group{"a", 0, 4, []map[string]any{span(0, 0, "", "X")}}), pdspec.SpanOutOfBounds, pdspec.TransactionApplicability, 1},
	} {
		r := run(c.batch, target)
		if r.Reason() != c.reason || r.ValidationStage != c.stage {
			t.Errorf("%s: %s at %s, want %s at %s (%+v)", c.name, r.Reason(), r.ValidationStage, c.reason, c.stage, r.Diagnostic)
			continue
		}
		if r.ResultText != nil || r.AfterHash != nil || len(r.ChangeFacts) > 0 {
			t.Errorf("%s: a rejection returned an assembled target", c.name)
		}
		if r.Diagnostic.GroupIndex != c.group {
			t.Errorf("%s: group_index %d, want %d", c.name, r.Diagnostic.GroupIndex, c.group)
		}
	}
}

// The slice hash is substituted: a group's own guard is refused, and the
// scope evidence is checked against the real slice (BATCH-010, BATCH-013).
func TestScopeEvidence(t *testing.T) {
	t.Parallel()
	target := "abc\ndef\n"
	env := envelope(t, target, group{"a", 0, 4, []map[string]any{span(0, 1, "a", "A")}})
	bad := strings.Replace(env, pd.Hash("abc\n"), pd.Hash("abc"), 1)
	if r := run(bad, target); r.Reason() != pdspec.TargetHashMismatch || r.Diagnostic.GroupIndex != 1 {
		t.Errorf("a wrong target_hash: %s %+v", r.Reason(), r.Diagnostic)
	}
	guarded := strings.Replace(env, `"format":"patchdiff-tx/2"`, `"expected_target_version":1,"format":"patchdiff-tx/2"`, 1)
	if r := run(guarded, target); r.Reason() != pdspec.ManifestInvalid || r.Diagnostic.Path != "$.groups[0].transaction.expected_target_version" {
		t.Errorf("a group's own guard: %s %+v", r.Reason(), r.Diagnostic)
	}
}

// The result document is deterministic and names assembly_order only when
// accepted (BATCH-022).
func TestResultDocument(t *testing.T) {
	t.Parallel()
	target := "abc\n"
	env := envelope(t, target, group{"a", 0, 4, []map[string]any{span(0, 1, "a", "<&>")}})
	a, _ := run(env, target).MarshalJSON()
	b, _ := run(env, target).MarshalJSON()
	if string(a) != string(b) || !strings.Contains(string(a), `"result_text":"<&>bc\n","assembly_order":[1]`) {
		t.Errorf("result %s", a)
	}
	rej, _ := run(" ", target).MarshalJSON()
	if strings.Contains(string(rej), "assembly_order") || !strings.Contains(string(rej), `"change_facts":[],"warnings":[]`) {
		t.Errorf("rejection %s", rej)
	}
}
