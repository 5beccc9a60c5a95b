package pdcases

import (
	"encoding/json"
	"fmt"
	"maps"
	"strings"
	"testing"
)

// perfect builds the result a conforming runtime would return for c, from
// its expectation alone.
func perfect(t *testing.T, c *Case) *Result {
	t.Helper()
	e := &c.Expect
	v := e.Validity
	r := &Result{Status: e.Status, ValidationStage: e.ValidationStage, Validity: &v, ChangeFacts: []map[string]any{}, Warnings: []map[string]any{}}
	if e.FailureReason != "" {
		r.FailureReason = &e.FailureReason
	}
	if tgt, err := c.Request.Target.String(); err == nil && !strings.ContainsRune(tgt, 0) {
		h := SHA256(Canonicalize(tgt))
		r.BeforeHash = &h
	}
	if e.Status == Accepted {
		s := e.ResultText.MustString()
		h := SHA256(s)
		r.ResultText, r.AfterHash = &s, &h
		for _, f := range e.ChangeFacts {
			m := map[string]any{
				"change_id": f.ChangeID, "operation": f.Operation, "span_start": f.SpanStart, "span_end": f.SpanEnd,
				"matched_chars": f.MatchedChars, "replacement_chars": f.ReplacementChars,
				"matched_sha256": SHA256(f.MatchedText.MustString()), "replacement_sha256": SHA256(f.ReplacementText.MustString()),
			}
			if b := f.Batch; b != nil {
				m["group_index"], m["operation_index"], m["observation_id"], m["scope_start"], m["scope_end"] = b.GroupIndex, b.OperationIndex, b.ObservationID, b.ScopeStart, b.ScopeEnd
			}
			r.ChangeFacts = append(r.ChangeFacts, m)
		}
		for _, i := range e.AssemblyOrder {
			r.AssemblyOrder = append(r.AssemblyOrder, json.Number(fmt.Sprint(i)))
		}
		for _, w := range e.Warnings {
			r.Warnings = append(r.Warnings, maps.Clone(w))
		}
		return roundTrip(t, r)
	}
	r.Diagnostic = merge(merge(map[string]any{}, e.Diagnostic), e.DiagnosticRecommended)
	return roundTrip(t, r)
}

func merge(dst, src map[string]any) map[string]any {
	for k, v := range src {
		if sub, ok := v.(map[string]any); ok {
			if have, ok := dst[k].(map[string]any); ok {
				dst[k] = merge(have, sub)
				continue
			}
			dst[k] = merge(map[string]any{}, sub)
			continue
		}
		if v != nil {
			dst[k] = v
		}
	}
	return dst
}

// roundTrip passes r through JSON, as a runner receives it.
func roundTrip(t *testing.T, r *Result) *Result {
	t.Helper()
	data, err := json.Marshal(r)
	if err != nil {
		t.Fatal(err)
	}
	got, err := ParseResult(data)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

// TestPerfectResultsConform builds each case's ideal result from its
// expectation and compares it: a difference is a contradiction inside the
// case, such as an excerpt, context or prefix that is not the buffer's text
// at the place it claims, or a string over its budget.
func TestPerfectResultsConform(t *testing.T) {
	t.Parallel()
	for _, c := range loadCorpus(t) {
		if c.Replay != nil {
			continue // TestPerfectReplayReports
		}
		for _, d := range c.Compare(perfect(t, c)) {
			if strings.Contains(d.Text, "want a string of") { // diagnostic_lengths of strings no case spells out
				continue
			}
			t.Errorf("%s: %s", c.Name, d)
		}
	}
}

func caseNamed(t *testing.T, name string) *Case {
	t.Helper()
	for _, c := range loadCorpus(t) {
		if c.Name == name {
			return c
		}
	}
	t.Fatalf("no case %s", name)
	return nil
}

// TestCompareCatches breaks one member of a conforming result at a time;
// Compare must report each break as a failing difference.
func TestCompareCatches(t *testing.T) {
	t.Parallel()
	str := func(s string) *string { return &s }
	tests := []struct {
		name, c     string
		breakIt     func(r *Result)
		recommended bool
	}{
		{"status", "decode/tx1-minimal", func(r *Result) { r.Status = Rejected }, false},
		{"stage", "decode/tx1-minimal", func(r *Result) { r.ValidationStage = "PROTOCOL_VALIDATION" }, false},
		{"validity", "decode/tx1-minimal", func(r *Result) { r.Validity.TaskCorrect = "correct" }, false},
		{"failure reason on acceptance", "decode/tx1-minimal", func(r *Result) { r.FailureReason = str("match_absent") }, false},
		{"label", "find/overlap-aa-in-aaa", func(r *Result) { r.FailureReason = str("match_absent") }, false},
		{"before_hash", "decode/tx1-minimal", func(r *Result) { r.BeforeHash = str(SHA256("x")) }, false},
		{"before_hash of raw CRLF", "canon/crlf-target-lf-match", func(r *Result) { r.BeforeHash = str(SHA256("a\r\nb\r\n")) }, false},
		{"after_hash", "decode/tx1-minimal", func(r *Result) { r.AfterHash = str(SHA256("x")) }, false},
		{"after_hash on rejection", "find/overlap-aa-in-aaa", func(r *Result) { r.AfterHash = r.BeforeHash }, false},
		{"result_text", "decode/tx1-minimal", func(r *Result) { r.ResultText = str("alpha BETA gamma") }, false},
		{"span_start", "seq/shifted-offsets", func(r *Result) { r.ChangeFacts[1]["span_start"] = json.Number("8") }, false},
		{"matched_sha256", "decode/tx1-minimal", func(r *Result) { r.ChangeFacts[0]["matched_sha256"] = SHA256("BETA") }, false},
		{"operation", "span/replace", func(r *Result) { r.ChangeFacts[0]["operation"] = "match" }, false},
		{"missing fact", "seq/chain", func(r *Result) { r.ChangeFacts = r.ChangeFacts[:1] }, false},
		{"missing warning", "warn/no-op-change-and-transaction", func(r *Result) { r.Warnings = r.Warnings[:1] }, false},
		{"extra warning", "decode/tx1-minimal", func(r *Result) { r.Warnings = append(r.Warnings, map[string]any{"code": "no_op_change"}) }, false},
		{"warning on rejection", "find/overlap-aa-in-aaa", func(r *Result) { r.Warnings = []map[string]any{{"code": "no_op_change"}} }, false},
		{"fact on rejection", "find/overlap-aa-in-aaa", func(r *Result) { r.ChangeFacts = []map[string]any{{"change_id": "chg_001"}} }, false},
		{"warnings null", "decode/tx1-minimal", func(r *Result) { r.Warnings = nil }, false},
		{"warnings null on rejection", "find/overlap-aa-in-aaa", func(r *Result) { r.Warnings = nil }, false},
		{"change_facts null on rejection", "find/overlap-aa-in-aaa", func(r *Result) { r.ChangeFacts = nil }, false},
		{"diagnostic code", "scope/match-outside", func(r *Result) { r.Diagnostic["code"] = "OBSERVED_INSERTION_GUARDS_REQUIRED" }, false},
		{"no diagnostic", "scope/match-outside", func(r *Result) { r.Diagnostic = nil }, false},
		{"excerpt over budget", "evidence/absent-small", func(r *Result) {
			r.Diagnostic["failure_context"].(map[string]any)["excerpt"] = strings.Repeat("h", 257)
		}, false},
		{"excerpt not the buffer", "evidence/absent-small", func(r *Result) {
			r.Diagnostic["failure_context"].(map[string]any)["excerpt"] = "hellx"
		}, false},
		{"six candidates", "evidence/candidates-five", func(r *Result) {
			r.Diagnostic["candidates"] = append(r.Diagnostic["candidates"].([]any), map[string]any{})
		}, false},
		{"query over budget", "evidence/near-miss-65", func(r *Result) { r.Diagnostic["near_miss_query"] = strings.Repeat("q", 65) }, false},
		{"excerpt window moved", "evidence/window-middle", func(r *Result) {
			fc := r.Diagnostic["failure_context"].(map[string]any)
			fc["excerpt_start"] = json.Number("373")
			fc["excerpt"] = strings.Repeat("-", 127) + "x" + strings.Repeat("-", 128)
		}, true},
		{"candidate context of 19", "evidence/candidate-context-20", func(r *Result) {
			r.Diagnostic["candidates"].([]any)[0].(map[string]any)["context_before"] = "hijklmnopqrstuvwxyz"
		}, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c := caseNamed(t, tt.c)
			r := perfect(t, c)
			tt.breakIt(r)
			ds := c.Compare(r)
			if len(ds) == 0 {
				t.Fatalf("Compare found nothing")
			}
			if Failed(ds) == tt.recommended {
				t.Errorf("Failed = %v, want %v: %v", Failed(ds), !tt.recommended, ds)
			}
		})
	}
}

func TestMatchSubset(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name      string
		want, got string
		ok        bool
	}{
		{"extra members free", `{"a":1}`, `{"a":1,"b":2}`, true},
		{"numbers by value", `{"a":1.0}`, `{"a":1}`, true},
		{"null matches missing", `{"a":null}`, `{}`, true},
		{"null refuses a value", `{"a":null}`, `{"a":0}`, false},
		{"missing member", `{"a":1}`, `{}`, false},
		{"lists by length", `{"a":[1]}`, `{"a":[1,2]}`, false},
		{"nested", `{"a":{"b":"x"}}`, `{"a":{"b":"y","c":1}}`, false},
	}
	for _, tt := range tests {
		var w, g any
		json.Unmarshal([]byte(tt.want), &w)
		json.Unmarshal([]byte(tt.got), &g)
		if d := MatchSubset(w, g); (d == "") != tt.ok {
			t.Errorf("%s: MatchSubset = %q, want ok %v", tt.name, d, tt.ok)
		}
	}
}

// perfectReport builds the report a replay case expects.
func perfectReport(c *Case) []byte {
	x := c.Replay.Expect
	m := map[string]any{"status": x.Status, "failure": nil, "materialized_state_checks": nil, "materialized_state_matches": nil,
		"reconstructed_hash": nil, "reconstructed_version": nil}
	if x.Failure != nil {
		m["failure"] = map[string]any{"failure_reason": x.Failure.FailureReason, "table": x.Failure.Table, "row_id": x.Failure.RowID,
			"check": x.CheckRecommended, "runtime_failure_reason": x.RuntimeReasonRecommended}
	} else {
		all := true
		for _, v := range x.MaterializedStateChecks {
			all = all && v
		}
		m["materialized_state_checks"], m["materialized_state_matches"] = x.MaterializedStateChecks, all
		m["reconstructed_hash"], m["reconstructed_version"] = x.ReconstructedHash, *x.ReconstructedVersion
	}
	b, _ := json.Marshal(m)
	return b
}

// TestPerfectReplayReports: each replay case's ideal report conforms, and
// breaking its status, label or row fails it.
func TestPerfectReplayReports(t *testing.T) {
	t.Parallel()
	n := 0
	for _, c := range loadCorpus(t) {
		if c.Replay == nil {
			continue
		}
		n++
		good := perfectReport(c)
		if ds := c.CompareReplay(good); len(ds) > 0 {
			t.Errorf("%s: %v", c.Name, ds)
		}
		var m map[string]any
		json.Unmarshal(good, &m)
		if m["status"] == "verified" {
			m["reconstructed_version"] = -1.0
		} else {
			m["failure"].(map[string]any)["row_id"] = 999999
		}
		bad, _ := json.Marshal(m)
		if !Failed(c.CompareReplay(bad)) {
			t.Errorf("%s: a broken report passes", c.Name)
		}
	}
	if n < 60 {
		t.Errorf("%d replay cases, want at least 60", n)
	}
}
