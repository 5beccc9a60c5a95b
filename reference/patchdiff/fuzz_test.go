package patchdiff

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// FuzzApply checks invariants on any transaction text and target: Apply
// never panics (STAGE-007 would hide a panic, so an internal error fails
// here), every result is well-formed, and warnings never change it.
func FuzzApply(f *testing.F) {
	f.Add(v022, "aaa", tx1(obj{"match": "aa", "replace": "b", "occurrence_index": 2}), int64(-1), int64(-1))
	f.Add(v050, "0123456789", tx2(obj{"op": "span", "start": 5, "end": 5, "expected_text": "", "replace": "!", "expected_before": "4", "expected_after": "5"}), int64(2), int64(8))
	f.Add(v040, "x\r\ny", tx(pdspec.FormatTx3, obj{"op": "replace_all", "replace": "z"}), int64(0), int64(3))
	f.Add(v030, "e\u0301 ab ab", tx2(obj{"op": "match", "match": "b", "replace": ""}, obj{"op": "match", "match": "ab", "replace": "x"}), int64(-1), int64(-1))
	f.Add(v021, "\U0001F600a", `{"format":"patchdiff-tx/1","intent":"\ud800","metadata":{"a":[1,{"b":"\u0000"}]}}`, int64(-1), int64(-1))
	f.Fuzz(func(t *testing.T, version, target, transaction string, scopeStart, scopeEnd int64) {
		req := Request{RuntimeVersion: version, Target: target, TargetVersion: one(1), Transaction: transaction, CollectWarnings: true}
		if scopeStart >= 0 {
			req.Scope = &Scope{Start: scopeStart, End: scopeEnd}
		}
		r := Apply(req)
		if r.Reason() == pdspec.TransactionInternalError {
			t.Fatalf("internal error: %+v", r.Diagnostic)
		}
		pv, tv, ok := pdspec.StageValidity(r.ValidationStage)
		if !ok || r.ValidationStage == pdspec.CommitGuard || (pv == nil) != (r.Validity.ProtocolValid == nil) || (tv == nil) != (r.Validity.TransactionValid == nil) {
			t.Fatalf("stage %s validity %+v", r.ValidationStage, r.Validity)
		}
		if r.Accepted() != (r.ResultText != nil) || r.Accepted() != (r.Diagnostic == nil) {
			t.Fatalf("accepted %v with result_text %v and diagnostic %v", r.Accepted(), r.ResultText != nil, r.Diagnostic != nil)
		}
		if r.Accepted() && (!utf8.ValidString(*r.ResultText) || *r.AfterHash != Hash(*r.ResultText)) {
			t.Fatal("accepted result with invalid text or hash")
		}
		if d := r.Diagnostic; d != nil && d.FailureContext != nil && utf8.RuneCountInString(d.FailureContext.Excerpt) > 256 {
			t.Fatal("failure_context over budget")
		}
		if _, err := json.Marshal(r); err != nil {
			t.Fatal(err)
		}
		req.CollectWarnings = false
		quiet := Apply(req)
		if len(quiet.Warnings) != 0 {
			t.Fatal("warnings with collect_warnings false")
		}
		quiet.Warnings = r.Warnings
		a, _ := json.Marshal(r)
		b, _ := json.Marshal(quiet)
		if string(a) != string(b) {
			t.Fatalf("warnings changed the result:\n%s\n%s", a, b)
		}
		Decode(version, transaction)
		DecodeRequest([]byte(transaction))
	})
}
