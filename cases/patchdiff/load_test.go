package pdcases

import (
	"os"
	"reflect"
	"strings"
	"testing"
	"testing/fstest"
)

const validAccepted = `{
  "requirements": ["FIND-002"],
  "description": "d",
  "request": {"runtime_version": "patchdiff-mvp-0.2.2", "target": "ab", "target_version": 1,
    "transaction": {"format": "patchdiff-tx/1", "target_file_id": "t", "intent": "i", "expected_target_version": 1, "edits": [{"match": "b", "replace": "c"}]}},
  "expect": {"status": "accepted", "validation_stage": "ACCEPTED",
    "validity": {"protocol_valid": true, "transaction_valid": true, "task_correct": "not_evaluated", "semantic": "not_evaluated"},
    "failure_reason": null, "result_text": "ac",
    "change_facts": [{"change_id": "chg_001", "operation": "match", "span_start": 1, "span_end": 2, "matched_chars": 1, "replacement_chars": 1, "matched_text": "b", "replacement_text": "c"}],
    "warnings": []}
}`

const validRejected = `{
  "requirements": ["CANON-007"],
  "description": "d",
  "request": {"runtime_version": "patchdiff-mvp-0.2.2", "target": "a\ud800", "transaction": "{\"x\":\"\\ud800\"}"},
  "expect": {"status": "rejected", "validation_stage": "PROTOCOL_VALIDATION",
    "validity": {"protocol_valid": false, "transaction_valid": null, "task_correct": "not_evaluated", "semantic": "not_evaluated"},
    "failure_reason": "target_encoding_invalid"}
}`

func TestParseValid(t *testing.T) {
	t.Parallel()
	c, err := Options{}.Parse("find/x", []byte(validAccepted))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(c.RequestJSON()), `{"runtime_version":"patchdiff-mvp-0.2.2","target":"ab","target_version":1,"transaction":"{\"format\":\"patchdiff-tx/1\",\"target_file_id\":\"t\",\"intent\":\"i\",\"expected_target_version\":1,\"edits\":[{\"match\":\"b\",\"replace\":\"c\"}]}"}`; got != want {
		t.Errorf("RequestJSON:\n got %s\nwant %s", got, want)
	}
	r, err := Options{}.Parse("text/x", []byte(validRejected))
	if err != nil {
		t.Fatal(err)
	}
	if r.Request.Target.Valid() || r.Request.Target.Len() != -1 {
		t.Errorf("a target with an unpaired surrogate reads as valid")
	}
	if got, want := string(r.RequestJSON()), `{"runtime_version":"patchdiff-mvp-0.2.2","target":"a\ud800","transaction":"{\"x\":\"\\ud800\"}"}`; got != want {
		t.Errorf("RequestJSON keeps escapes:\n got %s\nwant %s", got, want)
	}
}

func TestTextPieces(t *testing.T) {
	t.Parallel()
	tx, err := parseText([]byte(`["a", {"repeat": "xy", "count": 3}, "\ud83d", "\ude00"]`))
	if err != nil {
		t.Fatal(err)
	}
	if s, err := tx.String(); err != nil || s != "axyxyxy\U0001F600" {
		t.Errorf("String() = %q, %v: pieces join code unit after code unit", s, err)
	}
	for _, bad := range []string{`[]`, `[{"repeat": "", "count": 2}]`, `[{"repeat": "a", "count": 1}]`, `[{"repeat": "a"}]`, `[1]`, `{}`, `[{"repeat": "a", "count": 2, "x": 1}]`} {
		if _, err := parseText([]byte(bad)); err == nil {
			t.Errorf("parseText(%s) accepted", bad)
		}
	}
}

// TestParseRefuses breaks a valid case one way at a time.
func TestParseRefuses(t *testing.T) {
	t.Parallel()
	tests := []struct{ name, old, new, field string }{
		{"unknown member", `"description": "d",`, `"description": "d", "note": 1,`, "note"},
		{"duplicate member", `"description": "d",`, `"description": "d", "description": "e",`, "description"},
		{"no requirements", `["FIND-002"]`, `[]`, "requirements"},
		{"bad requirement shape", `["FIND-002"]`, `["find-2"]`, "requirements[0]"},
		{"unknown requirement", `["FIND-002"]`, `["FIND-999"]`, "requirements[0]"},
		{"empty description", `"description": "d"`, `"description": ""`, "description"},
		{"unknown status", `"status": "accepted"`, `"status": "ok"`, "expect.status"},
		{"stage of a rejection", `"validation_stage": "ACCEPTED"`, `"validation_stage": "PROTOCOL_VALIDATION"`, "expect.validation_stage"},
		{"service stage", `"validation_stage": "ACCEPTED"`, `"validation_stage": "COMMIT_GUARD"`, "expect.validation_stage"},
		{"validity", `"protocol_valid": true, "transaction_valid": true`, `"protocol_valid": true, "transaction_valid": null`, "expect.validity"},
		{"task_correct", `"task_correct": "not_evaluated"`, `"task_correct": "correct"`, "expect.validity"},
		{"reason on acceptance", `"failure_reason": null`, `"failure_reason": "match_absent"`, "expect.failure_reason"},
		{"no result_text", `"result_text": "ac",`, ``, "expect.result_text"},
		{"no warnings", `,
    "warnings": []`, ``, "expect.warnings"},
		{"unknown warning", `"warnings": []`, `"warnings": [{"code": "odd"}]`, "expect.warnings[0].code"},
		{"chars and text", `"matched_chars": 1`, `"matched_chars": 2`, "expect.change_facts[0]"},
		{"span and chars", `"span_end": 2`, `"span_end": 3`, "expect.change_facts[0]"},
		{"unknown operation", `"operation": "match"`, `"operation": "regex"`, "expect.change_facts[0].operation"},
		{"bad hash", `"warnings": []`, `"warnings": [], "after_hash": "ABC"`, "expect.after_hash"},
		{"diagnostic on acceptance", `"warnings": []`, `"warnings": [], "diagnostic": {"a": 1}`, "expect.diagnostic"},
		{"surrogate outside texts", `"description": "d"`, `"description": "\ud800"`, "description"},
		{"no target", `"target": "ab", `, ``, "request.target"},
		{"empty pieces", `"target": "ab"`, `"target": []`, "request.target"},
		{"transaction number", `"transaction": {`, `"transaction": 5, "x": {`, "request"},
		{"empty runtime_version", `"runtime_version": "patchdiff-mvp-0.2.2"`, `"runtime_version": ""`, "request.runtime_version"},
		{"rejection with a result", `"status": "accepted", "validation_stage": "ACCEPTED"`, `"status": "rejected", "validation_stage": "PRECONDITION_GUARD"`, "expect"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			doc := strings.Replace(validAccepted, tt.old, tt.new, 1)
			if doc == validAccepted {
				t.Fatalf("the test's old text is not in the case")
			}
			_, err := Options{}.Parse("find/x", []byte(doc))
			if err == nil {
				t.Fatalf("accepted")
			}
			if !strings.Contains(err.Error(), tt.field) {
				t.Errorf("error %q does not name %s", err, tt.field)
			}
		})
	}
}

// TestParseRefusesLabels refuses labels the runtime never reports.
func TestParseRefusesLabels(t *testing.T) {
	t.Parallel()
	for _, label := range []string{"replay_hash_mismatch", "target_diverged", "target_not_found", "block_malformed", "MATCH_ABSENT"} {
		doc := strings.Replace(validRejected, `"target_encoding_invalid"`, `"`+label+`"`, 1)
		if _, err := (Options{}).Parse("text/x", []byte(doc)); err == nil || !strings.Contains(err.Error(), "failure_reason") {
			t.Errorf("%s: error %v, want one naming failure_reason", label, err)
		}
	}
}

func TestLoadNamesAndErrors(t *testing.T) {
	t.Parallel()
	fsys := fstest.MapFS{
		"find/ok.json":     {Data: []byte(validAccepted)},
		"text/ok.json":     {Data: []byte(validRejected)},
		"README.md":        {Data: []byte("not a case")},
		"Bad/Name.json":    {Data: []byte(validAccepted)},
		"find/broken.json": {Data: []byte("{")},
	}
	_, err := Load(fsys, ".")
	if err == nil || !strings.Contains(err.Error(), "Bad/Name") || !strings.Contains(err.Error(), "find/broken") {
		t.Fatalf("Load = %v, want errors naming Bad/Name and find/broken", err)
	}
	delete(fsys, "Bad/Name.json")
	delete(fsys, "find/broken.json")
	cs, err := Load(fsys, ".")
	if err != nil || len(cs) != 2 || cs[0].Name != "find/ok" || cs[1].Area() != "text" {
		t.Fatalf("Load = %v, %v", cs, err)
	}
}

// TestREADMEDocumentsMembers wants every member the loader reads named in
// README.md.
func TestREADMEDocumentsMembers(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range []any{rawCase{}, rawRequest{}, rawExpect{}, rawFact{}, ScopeBounds{}, Validity{}} {
		rt := reflect.TypeOf(v)
		for i := range rt.NumField() {
			name := strings.Split(rt.Field(i).Tag.Get("json"), ",")[0]
			if !strings.Contains(string(readme), "`"+name+"`") {
				t.Errorf("README.md does not name %s.%s", rt.Name(), name)
			}
		}
	}
}
