package patchdiff

import (
	"encoding/json"
	"testing"

	"github.com/google/go-cmp/cmp"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

func TestDecodeRequest(t *testing.T) {
	t.Parallel()
	got, err := DecodeRequest([]byte(`{"runtime_version":"patchdiff-mvp-0.5.0","target":"a\ud800\u0000","target_version":3,` +
		`"transaction":"{}","scope_bounds":{"scope_start":1,"scope_end":2}}`))
	if err != nil {
		t.Fatal(err)
	}
	want := Request{RuntimeVersion: v050, Target: "a\xed\xa0\x80\x00", TargetVersion: one(3), Transaction: "{}", Scope: &Scope{1, 2}, CollectWarnings: true}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("ADAPTER-001, ADAPTER-003 (-want +got):\n%s", diff)
	}
	if r := Apply(got); r.Reason() != pdspec.TargetEncodingInvalid {
		t.Errorf("ADAPTER-003: a lone surrogate in the target gives %q", r.Reason())
	}
	// Round trip through MarshalJSON keeps the invalid text's form.
	data, err := json.Marshal(got)
	if err != nil {
		t.Fatal(err)
	}
	again, err := DecodeRequest(data)
	if err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	if diff := cmp.Diff(got, again); diff != "" {
		t.Errorf("round trip (-first +second):\n%s", diff)
	}
}

func TestDecodeRequestRefusals(t *testing.T) {
	t.Parallel()
	for name, doc := range map[string]string{
		"unknown member":            `{"target":"","transaction":"","extra":1}`,
		"duplicate member":          `{"target":"","target":"","transaction":""}`,
		"missing target":            `{"transaction":""}`,
		"transaction object":        `{"target":"","transaction":{}}`,
		"warnings as string":        `{"target":"","transaction":"","collect_warnings":"yes"}`,
		"scope with extra":          `{"target":"","transaction":"","scope_bounds":{"scope_start":1,"scope_end":2,"x":3}}`,
		"float version":             `{"target":"","transaction":"","target_version":1.5}`,
		"not JSON":                  `{`,
		"array":                     `[]`,
		"runtime_version as number": `{"runtime_version":1,"target":"","transaction":""}`,
		"target as number":          `{"target":1,"transaction":""}`,
		"target_version as string":  `{"target":"","transaction":"","target_version":"1"}`,
		"scope as strings":          `{"target":"","transaction":"","scope_bounds":{"scope_start":"1","scope_end":"2"}}`,
		"not UTF-8":                 "{\"target\":\"\xff\",\"transaction\":\"\"}",
		"scope_end and x, no start": `{"target":"","transaction":"","scope_bounds":{"scope_end":2,"x":3}}`,
	} {
		if _, err := DecodeRequest([]byte(doc)); err == nil {
			t.Errorf("ADAPTER-002: %s accepted", name)
		}
	}
	// BATCH-002: a batch request has no scope_bounds, not even null.
	if _, err := DecodeBatchRequest([]byte(`{"target":"","batch":"","scope_bounds":null}`)); err == nil {
		t.Error("BATCH-002: a batch request with scope_bounds accepted")
	}
}

// A member that may be left out may also be null, and an integer member
// reads the whole int64 range (the runtime judges it, GUARD-002).
func TestDecodeRequestNullsAndRange(t *testing.T) {
	t.Parallel()
	for doc, want := range map[string]Request{
		`{"runtime_version":null,"target":"t","transaction":"x","target_version":null,"scope_bounds":null}`: {Target: "t", Transaction: "x", CollectWarnings: true},
		`{"target":"t","transaction":"x","target_version":9223372036854775807}`:                             {Target: "t", Transaction: "x", TargetVersion: one(9223372036854775807), CollectWarnings: true},
	} {
		got, err := DecodeRequest([]byte(doc))
		if err != nil {
			t.Errorf("ADAPTER-001: %s: %v", doc, err)
			continue
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("ADAPTER-001: %s (-want +got):\n%s", doc, diff)
		}
	}
}

// MarshalJSON writes what DecodeRequest reads back: control characters
// and quotes escaped, a three-byte surrogate as its escape, and any other
// byte that is not UTF-8 as U+FFFD, wherever it stands.
func TestRequestMarshalJSON(t *testing.T) {
	t.Parallel()
	for target, want := range map[string]string{
		"a\x01\"\\b\n":              "a\x01\"\\b\n",
		"\xed\xa0\x80z\xed\xbf\xbf": "\xed\xa0\x80z\xed\xbf\xbf",
		"a\xff":                     "a\ufffd",
		"\xff\x80\x80":              "\ufffd\ufffd\ufffd",
		"\xed\xa0":                  "\ufffd\ufffd",
		"\xed\xa0A":                 "\ufffd\ufffdA",
		"é😀":                        "é😀",
	} {
		req := Request{RuntimeVersion: v050, Target: target, Transaction: target, CollectWarnings: false}
		data, err := req.MarshalJSON()
		if err != nil {
			t.Fatal(err)
		}
		got, err := DecodeRequest(data)
		if err != nil {
			t.Fatalf("%q: %s: %v", target, data, err)
		}
		wantReq := Request{RuntimeVersion: v050, Target: want, Transaction: want}
		if diff := cmp.Diff(wantReq, got); diff != "" {
			t.Errorf("%q: %s (-want +got):\n%s", target, data, diff)
		}
	}
}

// The result document has the members of ADAPTER-004 in order, null where
// the shape says null, and is the same bytes every time (ADAPTER-005).
func TestResultDocument(t *testing.T) {
	t.Parallel()
	rej, _ := json.Marshal(run(v022, "<a>", tx1(obj{"match": "q", "replace": "b"})))
	var members []string
	dec := json.NewDecoder(bytesReader(rej))
	dec.Token()
	for dec.More() {
		tok, _ := dec.Token()
		members = append(members, tok.(string))
		var skip json.RawMessage
		dec.Decode(&skip)
	}
	if diff := cmp.Diff([]string{"status", "validation_stage", "validity", "failure_reason", "before_hash", "after_hash", "change_facts", "warnings", "diagnostic"}, members); diff != "" {
		t.Errorf("rejected members (-want +got):\n%s", diff)
	}
	acc, _ := run(v022, "<a>", tx1(obj{"match": "a", "replace": "&"})).MarshalJSON()
	want := `{"status":"accepted","validation_stage":"ACCEPTED","validity":{"protocol_valid":true,"transaction_valid":true,"task_correct":"not_evaluated","semantic":"not_evaluated"},` +
		`"failure_reason":null,"before_hash":"` + Hash("<a>") + `","after_hash":"` + Hash("<&>") + `","result_text":"<&>","change_facts":[{"change_id":"chg_001","operation":"match",` +
		`"span_start":1,"span_end":2,"matched_chars":1,"replacement_chars":1,"matched_sha256":"` + Hash("a") + `","replacement_sha256":"` + Hash("&") + `"}],"warnings":[]}`
	if string(acc) != want {
		t.Errorf("accepted document\n got %s\nwant %s", acc, want)
	}
}
