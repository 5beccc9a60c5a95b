package pdfuzz

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"
	"testing"
	"unicode/utf8"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// corpusRequests returns the request documents of the PatchDIFF corpus,
// the native targets' seeds.
func corpusRequests(tb testing.TB) [][]byte {
	cs, err := pdcases.LoadCorpus()
	if err != nil {
		tb.Fatal(err)
	}
	out := make([][]byte, len(cs))
	for i, c := range cs {
		out[i] = c.RequestJSON()
	}
	return out
}

// corpusCalls decodes the corpus requests the reference accepts as
// request documents.
func corpusCalls(tb testing.TB) []pd.Request {
	var out []pd.Request
	for _, data := range corpusRequests(tb) {
		if r, err := pd.DecodeRequest(data); err == nil {
			out = append(out, r)
		}
	}
	return out
}

// validReason reports whether reason and stage are a runtime label and a
// stage the runtime reports (STAGE-003 to STAGE-005).
func validReason(reason pdspec.Reason, stage pdspec.Stage) bool {
	_, _, ok := pdspec.StageValidity(stage)
	return ok && stage != pdspec.CommitGuard && strings.Contains(strings.Join(pdcases.FailureReasons(), " ")+" ", string(reason)+" ")
}

// FuzzApply: Apply never panics, and an internal error (STAGE-007, which
// would hide one) fails; every result is well-formed (stage and validity,
// result_text exactly when accepted, after_hash its hash, the excerpt
// within budget); warnings off changes nothing but the warnings.
func FuzzApply(f *testing.F) {
	f.Add("patchdiff-mvp-0.2.2", "aaa", `{"format":"patchdiff-tx/1","target_file_id":"t","intent":"i","expected_target_version":1,"edits":[{"match":"aa","replace":"b","occurrence_index":2}]}`, int64(-1), int64(-1))
	f.Add("patchdiff-mvp-0.5.0", "0123456789", `{"format":"patchdiff-tx/2","target_file_id":"t","intent":"i","expected_target_version":1,"operations":[{"op":"span","start":5,"end":5,"expected_text":"","replace":"!","expected_before":"4","expected_after":"5"}]}`, int64(2), int64(8))
	f.Add("patchdiff-mvp-0.2.1", "\U0001F600a", `{"format":"patchdiff-tx/1","intent":"\ud800","metadata":{"a":[1,{"b":"\u0000"}]}}`, int64(-1), int64(-1))
	for _, r := range corpusCalls(f) {
		start, end := int64(-1), int64(-1)
		if r.Scope != nil {
			start, end = r.Scope.Start, r.Scope.End
		}
		f.Add(r.RuntimeVersion, r.Target, r.Transaction, start, end)
	}
	f.Fuzz(func(t *testing.T, version, target, transaction string, scopeStart, scopeEnd int64) {
		v := int64(1)
		req := pd.Request{RuntimeVersion: version, Target: target, TargetVersion: &v, Transaction: transaction, CollectWarnings: true}
		if scopeStart >= 0 {
			req.Scope = &pd.Scope{Start: scopeStart, End: scopeEnd}
		}
		r := pd.Apply(req)
		if r.Reason() == pdspec.TransactionInternalError {
			t.Fatalf("internal error: %+v", r.Diagnostic)
		}
		pv, tv, _ := pdspec.StageValidity(r.ValidationStage)
		if !r.Accepted() && !validReason(r.Reason(), r.ValidationStage) ||
			(pv == nil) != (r.Validity.ProtocolValid == nil) || (tv == nil) != (r.Validity.TransactionValid == nil) {
			t.Fatalf("reason %q at stage %s, validity %+v", r.Reason(), r.ValidationStage, r.Validity)
		}
		if r.Accepted() != (r.ResultText != nil) || r.Accepted() != (r.Diagnostic == nil) {
			t.Fatalf("accepted %v with result_text %v and diagnostic %v", r.Accepted(), r.ResultText != nil, r.Diagnostic != nil)
		}
		if r.Accepted() && (!utf8.ValidString(*r.ResultText) || *r.AfterHash != pd.Hash(*r.ResultText)) {
			t.Fatal("accepted result with invalid text or hash")
		}
		if d := r.Diagnostic; d != nil && d.FailureContext != nil && utf8.RuneCountInString(d.FailureContext.Excerpt) > pdspec.Budget().FailureContext {
			t.Fatal("failure_context over budget")
		}
		loud, err := r.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		req.CollectWarnings = false
		quiet := pd.Apply(req)
		if len(quiet.Warnings) != 0 {
			t.Fatal("warnings with collect_warnings false")
		}
		quiet.Warnings = r.Warnings
		if b, _ := quiet.MarshalJSON(); string(loud) != string(b) {
			t.Fatalf("warnings changed the result:\n%s\n%s", loud, b)
		}
	})
}

// FuzzDecodeTransaction: decoding any transaction text never panics and fails only
// with a runtime label at a stage the runtime reports; Decode and Apply
// agree: a transaction Decode refuses, Apply refuses for the same reason
// (unless a state guard, checked first, refuses it), and one it accepts
// passes Apply's protocol validation (STAGE-006, GUARD-007). Its seeds
// are the corpus's transactions and every truncation of one in eight of
// those under 400 bytes.
func FuzzDecodeTransaction(f *testing.F) {
	for i, r := range corpusCalls(f) {
		f.Add(r.RuntimeVersion, r.Transaction)
		if i%8 == 0 && len(r.Transaction) < 400 { // and every truncation of some short ones: texts that end anywhere
			for n := range len(r.Transaction) {
				f.Add(r.RuntimeVersion, r.Transaction[:n])
			}
		}
	}
	f.Add("patchdiff-mvp-0.3.0", `{"format":"patchdiff-tx/2","operations":[{"op":"span","start":1.0,"end":true}]`)
	f.Fuzz(func(t *testing.T, version, transaction string) {
		tx, err := pd.Decode(version, transaction)
		req := pd.Request{RuntimeVersion: version, Transaction: transaction}
		if err != nil {
			var e *pd.Error
			if !errors.As(err, &e) || !validReason(e.Reason, e.Stage) {
				t.Fatalf("Decode failed with %v, not a runtime label", err)
			}
			r := pd.Apply(req)
			if r.Reason() != e.Reason && r.ValidationStage != pdspec.PreconditionGuard {
				t.Fatalf("Decode says %s, Apply %s at %s", e.Reason, r.Reason(), r.ValidationStage)
			}
			return
		}
		req.TargetVersion = tx.ExpectedTargetVersion
		if r := pd.Apply(req); r.ValidationStage == pdspec.ProtocolValidation {
			t.Fatalf("Decode accepts the transaction, Apply refuses it with %s", r.Reason())
		}
	})
}

// FuzzDecodeRequest: decoding any request document never panics, and a
// request it accepts writes back (Request.MarshalJSON) to a document that
// decodes to the same request (ADAPTER-001, ADAPTER-003).
func FuzzDecodeRequest(f *testing.F) {
	for _, data := range corpusRequests(f) {
		f.Add(data)
	}
	f.Add([]byte(`{"target":"a\ud800","transaction":"","scope_bounds":{"scope_start":1,"scope_end":-1},"target_version":1e3}`))
	f.Add([]byte(`{"target":"\u001f\u0020\u007f\"","transaction":"\\"}`)) // the last control character, the first that is not
	f.Fuzz(func(t *testing.T, data []byte) {
		req, err := pd.DecodeRequest(data)
		if err != nil {
			return
		}
		again, _ := req.MarshalJSON()
		back, err := pd.DecodeRequest(again)
		if err != nil {
			t.Fatalf("the written request does not decode: %v\n%s", err, again)
		}
		if !reflect.DeepEqual(req, back) {
			t.Fatalf("the request changed when written and read:\n%+v\n%+v", req, back)
		}
	})
}

// FuzzOccurrences: one patchdiff-tx/1 edit without selectors is accepted,
// match_absent or match_ambiguous exactly as a quadratic overlapping
// count of its canonical match in the canonical target says (FIND-003).
func FuzzOccurrences(f *testing.F) {
	f.Add("aaa", "aa")
	f.Add("a\r\na\ra\n", "a\n")
	f.Add("😀😀😀", "😀😀")
	f.Add("e\u0301e\u0301", "e")
	f.Fuzz(func(t *testing.T, target, match string) {
		if len(target) > 4096 || len(match) > 64 || match == "" || !utf8.ValidString(target) || !utf8.ValidString(match) || strings.ContainsRune(target+match, 0) {
			return
		}
		tx, _ := json.Marshal(map[string]any{"format": "patchdiff-tx/1", "target_file_id": "t", "intent": "i",
			"expected_current_hash": pd.Hash(pd.Canonicalize(target)), "edits": []any{map[string]any{"match": match, "replace": "x"}}})
		r := pd.Apply(pd.Request{RuntimeVersion: "patchdiff-mvp-0.2.2", Target: target, Transaction: string(tx)})
		n := naiveCount(pdcases.Canonicalize(target), pdcases.Canonicalize(match))
		switch {
		case n == 0 && r.Reason() != pdspec.MatchAbsent,
			n == 1 && !r.Accepted(),
			n > 1 && (r.Reason() != pdspec.MatchAmbiguous || *r.Diagnostic.CandidateCount != n):
			t.Fatalf("%d occurrences of %q in %q; the runtime says %s %+v", n, match, target, r.Status, r.Diagnostic)
		}
	})
}
