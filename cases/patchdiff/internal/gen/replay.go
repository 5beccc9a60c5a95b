package main

// The replay cases (area replay): stored histories and what replaying them
// must report (spec/patchdiff REPLAY). Each history is written here by
// hand: the transactions, and for each accepted one the text it leaves and
// the start of every change fact, worked out from the seed's rules. The
// rows' hashes, versions and canonical JSON are computed from those texts
// (SHA-256, RFC 8785 through gowebpki/jcs); no runtime and no replayer
// runs. Every single-field corruption of a history gets its expectation
// from the rule stated in expectCorrupt, never from a verifier.

import (
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"

	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"log"
	"strings"
	"unicode/utf8"

	"github.com/gowebpki/jcs"
)

// rTarget … rLedger are the rows, their members in column order
// (REPLAY-002), as the spec states them.
type (
	rTarget   = pdspec.Target
	rSnapshot = pdspec.Snapshot
	rLog      = pdspec.LogRow
	rLedger   = pdspec.LedgerRow
)

type history struct {
	target    rTarget
	snapshots []rSnapshot
	logs      []rLog
	ledger    []rLedger
	final     string // the canonical text the accepted rows leave
	version   int64  // the version they leave
}

func (h *history) clone() *history {
	c := *h
	c.snapshots = append([]rSnapshot(nil), h.snapshots...)
	c.ledger = append([]rLedger(nil), h.ledger...)
	c.logs = make([]rLog, len(h.logs))
	for i, r := range h.logs {
		r.AfterVersion, r.AfterHash, r.FailureReason = cp(r.AfterVersion), cp(r.AfterHash), cp(r.FailureReason)
		r.DiagnosticJSON, r.ClientRequestID, r.ParentPDCPLogID, r.Attempt = cp(r.DiagnosticJSON), cp(r.ClientRequestID), cp(r.ParentPDCPLogID), cp(r.Attempt)
		c.logs[i] = r
	}
	return &c
}

func cp[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}

func rcanon(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
}

func rsha(s string) string {
	sum := sha256.Sum256([]byte(rcanon(s)))
	return hex.EncodeToString(sum[:])
}

func canonJSON(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		log.Fatal(err)
	}
	c, err := jcs.Transform(b)
	if err != nil {
		log.Fatal(err)
	}
	return string(c)
}

// rfact is a change fact written by hand: its kind, change_id, start in
// code points of the buffer it applied to, matched and replacement text.
type rfact struct {
	op, id        string
	start         int
	matched, repl string
}

// step is one submission: accepted with the text it leaves and its facts,
// or rejected with the runtime label the seed gives it.
type step struct {
	runtime string
	tx      map[string]any // expected_target_version is filled in
	raw     string         // a rejected text that is not an object
	result  string
	facts   []rfact
	reason  string
	// groupOf adds an observed batch's members to each fact (BATCH-018);
	// nil for a transaction.
	groupOf []m
}

const rTargetID = "target-0001"

// build lays the steps out as rows, starting from content at version 1.
func build(content string, steps []step) *history {
	c := rcanon(content)
	h := &history{target: rTarget{TargetFileID: rTargetID}, version: 1, final: c}
	h.snapshots = []rSnapshot{{SnapshotID: 1, TargetFileID: rTargetID, SnapshotReason: "initial_upload", Content: c, ContentHash: rsha(c), Version: 1}}
	for i, s := range steps {
		row := rLog{PDCPLogID: int64(i + 1), TargetFileID: rTargetID, RuntimeVersion: s.runtime, BeforeVersion: h.version, BeforeHash: rsha(h.final)}
		var text string
		if s.raw != "" {
			text = s.raw
		} else {
			tx := map[string]any{"target_file_id": rTargetID, "intent": "edit"}
			if _, ok := s.tx["expected_target_version"]; !ok {
				tx["expected_target_version"] = h.version
			}
			for k, v := range s.tx {
				tx[k] = v
			}
			row.ProtocolVersion, _ = tx["format"].(string)
			if v, ok := tx["client_request_id"].(string); ok {
				row.ClientRequestID = &v
			}
			if v, ok := tx["parent_pdcp_log_id"].(string); ok {
				row.ParentPDCPLogID = &v
			}
			if v, ok := tx["attempt"].(int); ok {
				n := int64(v)
				row.Attempt = &n
			}
			if s.reason == "" {
				text = canonJSON(tx)
			} else {
				b, _ := json.Marshal(tx)
				text = string(b)
			}
		}
		row.PDCPContent, row.PDCPContentHash = text, rsha(text)
		if s.reason != "" {
			row.Status = "rejected"
			r := s.reason
			d := `{"note":"the runtime's diagnostic"}`
			row.FailureReason, row.DiagnosticJSON = &r, &d
			h.logs = append(h.logs, row)
			continue
		}
		row.Status = "accepted"
		after := h.version + 1
		ah := rsha(s.result)
		row.AfterVersion, row.AfterHash = &after, &ah
		h.logs = append(h.logs, row)
		for _, f := range s.facts {
			n := utf8.RuneCountInString
			fact := map[string]any{"change_id": f.id, "operation": f.op, "span_start": f.start, "span_end": f.start + n(f.matched),
				"matched_chars": n(f.matched), "replacement_chars": n(f.repl), "matched_sha256": rsha(f.matched), "replacement_sha256": rsha(f.repl)}
			if s.groupOf != nil {
				for k, v := range s.groupOf[len(h.ledger)-firstLedger(h, row.PDCPLogID)] {
					fact[k] = v
				}
			}
			h.ledger = append(h.ledger, rLedger{LedgerID: int64(len(h.ledger) + 1), PDCPLogID: row.PDCPLogID, TargetFileID: rTargetID, Origin: "typed", DerivedJSON: canonJSON(fact)})
		}
		h.final, h.version = s.result, after
	}
	h.target.CurrentContent, h.target.CurrentHash, h.target.Version = h.final, rsha(h.final), h.version
	return h
}

func edits(e ...map[string]any) []any {
	out := make([]any, len(e))
	for i, x := range e {
		out[i] = x
	}
	return out
}

type m = map[string]any

// mixedHistory: every format under a profile that reads it, rejected
// attempts between, non-ASCII text and a deletion. Offsets count code
// points: "DONÉ😀" is five.
func mixedHistory() *history {
	return build("alpha\r\nbeta\ngamma\n", []step{
		{runtime: "patchdiff-mvp-0.2.2", tx: m{"format": "patchdiff-tx/1", "client_request_id": "req-1", "attempt": 1, "edits": edits(m{"match": "beta", "replace": "BETA"})},
			result: "alpha\nBETA\ngamma\n", facts: []rfact{{"match", "chg_001", 6, "beta", "BETA"}}},
		{runtime: "patchdiff-mvp-0.2.2", tx: m{"format": "patchdiff-tx/1", "edits": edits(m{"match": "zeta", "replace": "x"})}, reason: "match_absent"},
		{runtime: "patchdiff-mvp-0.3.0", tx: m{"format": "patchdiff-tx/2", "operations": edits(m{"op": "span", "start": 0, "end": 5, "expected_text": "alpha", "replace": "ALPHA"})},
			result: "ALPHA\nBETA\ngamma\n", facts: []rfact{{"span", "chg_001", 0, "alpha", "ALPHA"}}},
		{runtime: "patchdiff-mvp-0.4.0", tx: m{"format": "patchdiff-tx/3", "parent_pdcp_log_id": "log-3", "operations": edits(m{"op": "replace_all", "replace": "done\n"})},
			result: "done\n", facts: []rfact{{"replace_all", "chg_001", 0, "ALPHA\nBETA\ngamma\n", "done\n"}}},
		{runtime: "patchdiff-mvp-0.1.0", tx: m{"format": "patchdiff-tx/1", "client_request_id": "req-5", "attempt": 2,
			"edits": edits(m{"match": "done", "replace": "DONE"}, m{"match": "\n", "replace": "!\n", "change_id": "bang"})},
			result: "DONE!\n", facts: []rfact{{"match", "chg_001", 0, "done", "DONE"}, {"match", "bang", 4, "\n", "!\n"}}},
		{runtime: "patchdiff-mvp-0.2.2", tx: m{"format": "patchdiff-tx/1", "expected_target_version": 99, "edits": edits(m{"match": "DONE", "replace": "x"})}, reason: "target_version_mismatch"},
		{runtime: "patchdiff-mvp-0.5.0", tx: m{"format": "patchdiff-tx/2", "operations": edits(m{"op": "span", "start": 4, "end": 5, "expected_text": "!", "replace": "?",
			"expected_before": "DONE", "expected_after": "\n"})},
			result: "DONE?\n", facts: []rfact{{"span", "chg_001", 4, "!", "?"}}},
		{runtime: "patchdiff-mvp-0.2.1", tx: m{"format": "patchdiff-tx/1", "edits": edits(m{"match": "DONE", "replace": "DONÉ😀"})},
			result: "DONÉ😀?\n", facts: []rfact{{"match", "chg_001", 0, "DONE", "DONÉ😀"}}},
		{runtime: "patchdiff-mvp-0.2.2", raw: `{"format":"patchdiff-tx/1",`, reason: "manifest_invalid"},
		{runtime: "patchdiff-mvp-0.2.0", tx: m{"format": "patchdiff-tx/1", "edits": edits(m{"match": "?", "replace": ""})},
			result: "DONÉ😀\n", facts: []rfact{{"match", "chg_001", 5, "?", ""}}},
	})
}

// rcase is one replay case file.
type rcase struct {
	why  string
	reqs []string
	h    *history
	// failed: label, table, row (0: null), check, runtime label.
	label, table, check, runtimeLabel string
	row                               int64
	checks                            map[string]bool // verified only
}

func (c *rcase) encode() []byte {
	var lines []any
	lines = append(lines, m{"cloud_target_files": c.h.target})
	for _, s := range c.h.snapshots {
		lines = append(lines, m{"TargetSnapshots": s})
	}
	for _, r := range c.h.logs {
		lines = append(lines, m{"append_only_pdcp_logs": r})
	}
	for _, l := range c.h.ledger {
		lines = append(lines, m{"append_only_manifest_ledger": l})
	}
	var b bytes.Buffer
	b.WriteString("{\n")
	fmt.Fprintf(&b, "  \"requirements\": %s,\n", compact(c.reqs))
	fmt.Fprintf(&b, "  \"description\": %s,\n", compact(c.why))
	b.WriteString("  \"operation\": \"replay\",\n")
	b.WriteString("  \"request\": {\"history\": [\n")
	for i, l := range lines {
		b.WriteString("    " + compact(l))
		if i < len(lines)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  ]},\n")
	var exp string
	if c.label == "" {
		exp = compact(m{"status": "verified", "materialized_state_checks": c.checks, "reconstructed_hash": rsha(c.h.final), "reconstructed_version": c.h.version})
	} else {
		var row any
		if c.row != 0 {
			row = c.row
		}
		rec := m{"check": c.check}
		if c.runtimeLabel != "" {
			rec["runtime_failure_reason"] = c.runtimeLabel
		}
		exp = compact(m{"status": "failed", "failure": m{"failure_reason": c.label, "table": c.table, "row_id": row}, "failure_recommended": rec})
	}
	b.WriteString("  \"expect\": " + exp + "\n}\n")
	return b.Bytes()
}

func compact(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		log.Fatal(err)
	}
	return strings.TrimSuffix(b.String(), "\n")
}

var allTrue = map[string]bool{"content_matches": true, "stored_hash_matches": true, "recomputed_hash_matches": true, "version_matches": true}

func checksWith(name string) map[string]bool {
	out := map[string]bool{}
	for k, v := range allTrue {
		out[k] = v
	}
	out[name] = false
	return out
}

func flipHex(h string) string {
	if h[0] == '0' {
		return "1" + h[1:]
	}
	return "0" + h[1:]
}

// corruption is one single-field change of a history.
type corruption struct {
	table, column, status string
	row                   int64
	apply                 func(h *history)
}

// corruptions lists one change per checked field of every row: every
// column but the keys of target, snapshot and ledger rows and of accepted
// log rows, and the columns that bind a rejected log row (REPLAY-015).
func corruptions(h *history) []corruption {
	var out []corruption
	add := func(table, col, st string, row int64, f func(h *history)) {
		out = append(out, corruption{table, col, st, row, f})
	}
	add("cloud_target_files", "target_file_id", "", 0, func(h *history) { h.target.TargetFileID += "-x" })
	add("cloud_target_files", "current_content", "", 0, func(h *history) {
		h.target.CurrentContent = strings.ReplaceAll(h.target.CurrentContent, "\n", "\r\n")
	})
	add("cloud_target_files", "current_hash", "", 0, func(h *history) { h.target.CurrentHash = flipHex(h.target.CurrentHash) })
	add("cloud_target_files", "version", "", 0, func(h *history) { h.target.Version++ })
	for i, s := range h.snapshots {
		add("TargetSnapshots", "target_file_id", "", s.SnapshotID, func(h *history) { h.snapshots[i].TargetFileID += "-x" })
		add("TargetSnapshots", "snapshot_reason", "", s.SnapshotID, func(h *history) { h.snapshots[i].SnapshotReason = "save_checkpoint" })
		add("TargetSnapshots", "content", "", s.SnapshotID, func(h *history) { h.snapshots[i].Content += "x" })
		add("TargetSnapshots", "content_hash", "", s.SnapshotID, func(h *history) { h.snapshots[i].ContentHash = flipHex(h.snapshots[i].ContentHash) })
		add("TargetSnapshots", "version", "", s.SnapshotID, func(h *history) { h.snapshots[i].Version++ })
	}
	for i, r := range h.logs {
		a := func(col string, f func(r *rLog)) {
			add("append_only_pdcp_logs", col, r.Status, r.PDCPLogID, func(h *history) { f(&h.logs[i]) })
		}
		a("target_file_id", func(r *rLog) { r.TargetFileID += "-x" })
		a("pdcp_content", func(r *rLog) { r.PDCPContent += " " })
		a("pdcp_content_hash", func(r *rLog) { r.PDCPContentHash = flipHex(r.PDCPContentHash) })
		a("before_version", func(r *rLog) { r.BeforeVersion++ })
		a("before_hash", func(r *rLog) { r.BeforeHash = flipHex(r.BeforeHash) })
		if r.Status == "accepted" {
			a("status", func(r *rLog) { r.Status = "rejected" })
			a("protocol_version", func(r *rLog) { r.ProtocolVersion = "patchdiff-tx/9" })
			a("runtime_version", func(r *rLog) { r.RuntimeVersion = "patchdiff-mvp-9.9.9" })
			a("after_version", func(r *rLog) { *r.AfterVersion++ })
			a("after_hash", func(r *rLog) { *r.AfterHash = flipHex(*r.AfterHash) })
			a("failure_reason", func(r *rLog) { s := "match_absent"; r.FailureReason = &s })
			a("diagnostic_json", func(r *rLog) { s := "{}"; r.DiagnosticJSON = &s })
			a("client_request_id", func(r *rLog) { s := "corrupt"; r.ClientRequestID = &s })
			a("parent_pdcp_log_id", func(r *rLog) { s := "corrupt"; r.ParentPDCPLogID = &s })
			a("attempt", func(r *rLog) { n := int64(7); r.Attempt = &n })
		} else {
			a("status", func(r *rLog) { r.Status = "accepted" })
			a("after_version", func(r *rLog) { v := r.BeforeVersion + 1; r.AfterVersion = &v })
			a("after_hash", func(r *rLog) { s := flipHex(r.BeforeHash); r.AfterHash = &s })
			a("failure_reason", func(r *rLog) { r.FailureReason = nil })
			a("diagnostic_json", func(r *rLog) { s := "not json"; r.DiagnosticJSON = &s })
		}
	}
	for i, l := range h.ledger {
		add("append_only_manifest_ledger", "target_file_id", "", l.LedgerID, func(h *history) { h.ledger[i].TargetFileID += "-x" })
		add("append_only_manifest_ledger", "origin", "", l.LedgerID, func(h *history) { h.ledger[i].Origin = "derived" })
		add("append_only_manifest_ledger", "derived_json", "", l.LedgerID, func(h *history) {
			h.ledger[i].DerivedJSON = strings.Replace(h.ledger[i].DerivedJSON, `"replacement_chars":`, `"replacement_chars":1`, 1)
		})
	}
	return out
}

// expectCorrupt states by rule what replaying a corrupted history must
// report (REPLAY-003 to REPLAY-019): the failure names the corrupted row
// and column, except that a changed status shows in failure_reason (the
// columns a status fixes), a changed pdcp_content or snapshot content in
// its hash, a changed snapshot version at the first log row's
// before_version, a changed snapshot_reason as no initial snapshot (row
// null), and a changed target id at the first snapshot, which no longer
// names it. The label is replay_hash_mismatch for a hash or derived fact
// (an accepted row's after_hash included), replay_protocol_invalid for
// everything else. A changed column of the stored target leaves the
// history verified and turns exactly its materialized check false.
func expectCorrupt(c corruption, h *history) rcase {
	r := rcase{label: "replay_protocol_invalid", table: c.table, row: c.row, check: c.column}
	switch {
	case c.table == "cloud_target_files" && c.column == "target_file_id":
		r.table, r.row = "TargetSnapshots", h.snapshots[0].SnapshotID
	case c.table == "cloud_target_files":
		name := map[string]string{"current_content": "content_matches", "current_hash": "stored_hash_matches", "version": "version_matches"}[c.column]
		return rcase{checks: checksWith(name)}
	case c.table == "TargetSnapshots" && c.column == "snapshot_reason":
		r.row = 0
	case c.table == "TargetSnapshots" && c.column == "content":
		r.check = "content_hash"
	case c.table == "TargetSnapshots" && c.column == "version":
		r.table, r.row, r.check = "append_only_pdcp_logs", h.logs[0].PDCPLogID, "before_version"
	case c.column == "status":
		r.check = "failure_reason"
	case c.table == "append_only_pdcp_logs" && c.column == "pdcp_content":
		r.check = "pdcp_content_hash"
	case c.table == "append_only_pdcp_logs" && c.column == "after_hash" && c.status == "accepted":
		r.label = "replay_hash_mismatch"
	}
	switch r.check {
	case "before_hash", "pdcp_content_hash", "content_hash", "derived_json":
		r.label = "replay_hash_mismatch"
	}
	return r
}

// requirementsOf names what a corruption case checks.
func requirementsOf(c corruption) []string {
	switch c.table {
	case "cloud_target_files":
		if c.column == "target_file_id" {
			return []string{"REPLAY-003", "REPLAY-019"}
		}
		return []string{"REPLAY-017", "REPLAY-018"}
	case "TargetSnapshots":
		switch c.column {
		case "content", "content_hash":
			return []string{"REPLAY-004", "REPLAY-019"}
		case "version":
			return []string{"REPLAY-003", "REPLAY-010"}
		}
		return []string{"REPLAY-003", "REPLAY-019"}
	case "append_only_manifest_ledger":
		return []string{"REPLAY-016", "REPLAY-019"}
	}
	if c.status == "rejected" {
		return []string{"REPLAY-015", "REPLAY-019"}
	}
	byCol := map[string]string{"target_file_id": "REPLAY-007", "pdcp_content": "REPLAY-011", "pdcp_content_hash": "REPLAY-011",
		"before_version": "REPLAY-010", "after_version": "REPLAY-010", "before_hash": "REPLAY-011", "status": "REPLAY-005",
		"protocol_version": "REPLAY-008", "runtime_version": "REPLAY-009", "after_hash": "REPLAY-014", "failure_reason": "REPLAY-005",
		"diagnostic_json": "REPLAY-005", "client_request_id": "REPLAY-007", "parent_pdcp_log_id": "REPLAY-007", "attempt": "REPLAY-007"}
	return []string{byCol[c.column], "REPLAY-019"}
}

// replayCases returns every replay case by name.
func replayCases() map[string][]byte {
	out := map[string][]byte{}
	put := func(name string, c rcase) {
		if _, dup := out["replay/"+name]; dup {
			log.Fatalf("replay case %s twice", name)
		}
		out["replay/"+name] = c.encode()
	}
	mixed := mixedHistory()
	put("clean-mixed-history", rcase{why: "ten attempts in every format under profiles that read it, three rejected: the history reconstructs to the stored target",
		reqs: []string{"REPLAY-001", "REPLAY-002", "REPLAY-005", "REPLAY-012", "REPLAY-020", "REPLAY-021"}, h: mixed, checks: allTrue})
	empty := build("only the upload\n", nil)
	put("clean-upload-only", rcase{why: "a history of no attempt reconstructs to its initial snapshot at its version",
		reqs: []string{"REPLAY-001", "REPLAY-002", "REPLAY-003", "REPLAY-020", "REPLAY-021"}, h: empty, checks: allTrue})
	saved := mixed.clone()
	saved.snapshots = append(saved.snapshots, rSnapshot{SnapshotID: 2, TargetFileID: rTargetID, SnapshotReason: "save_checkpoint", Content: saved.final, ContentHash: rsha(saved.final), Version: saved.version})
	put("clean-with-save-checkpoint", rcase{why: "a save_checkpoint snapshot is not where replay starts; the history still reconstructs",
		reqs: []string{"REPLAY-001", "REPLAY-003"}, h: saved, checks: allTrue})
	cr := mixed.clone()
	cr.target.CurrentContent = strings.ReplaceAll(cr.target.CurrentContent, "\n", "\r")
	put("materialized-bare-cr", rcase{why: "bare CR in the stored text hashes canonically like the reconstruction, yet content_matches compares raw text",
		reqs: []string{"REPLAY-017", "REPLAY-018"}, h: cr, checks: checksWith("content_matches")})
	other := mixed.clone()
	other.target.CurrentContent = "something else\n"
	put("materialized-content-replaced", rcase{why: "stored content that is another text fails content_matches and recomputed_hash_matches, the stored hash still agrees",
		reqs: []string{"REPLAY-017", "REPLAY-018"}, h: other, checks: map[string]bool{"content_matches": false, "stored_hash_matches": true, "recomputed_hash_matches": false, "version_matches": true}})

	// A large sole replacement replays without size admission.
	big := strings.Repeat("0123456789abcdef", 4096)
	large := build("small\n", []step{{runtime: "patchdiff-mvp-0.4.0", tx: m{"format": "patchdiff-tx/3", "operations": edits(m{"op": "replace_all", "replace": big})},
		result: big, facts: []rfact{{"replace_all", "chg_001", 0, "small\n", big}}}})
	put("tx3-large-replacement", rcase{why: "a 64 KiB sole replacement replays with no fresh size admission",
		reqs: []string{"REPLAY-013", "REPLAY-012"}, h: large, checks: allTrue})

	// A transaction the runtime reports warnings for replays all the same.
	noop := build("same\n", []step{{runtime: "patchdiff-mvp-0.2.2", tx: m{"format": "patchdiff-tx/1", "edits": edits(m{"match": "same", "replace": "same"})},
		result: "same\n", facts: []rfact{{"match", "chg_001", 0, "same", "same"}}}})
	put("no-op-replays", rcase{why: "a no-op edit (warnings when collected) replays with warnings off and the same facts",
		reqs: []string{"REPLAY-012", "REPLAY-016"}, h: noop, checks: allTrue})

	// Rows the runtime now rejects, with coherent hashes.
	rewrite := func(h *history, i int, text string) {
		h.logs[i].PDCPContent, h.logs[i].PDCPContentHash = text, rsha(text)
	}
	absent := mixed.clone()
	rewrite(absent, 0, `{"attempt":1,"client_request_id":"req-1","edits":[{"match":"delta","replace":"BETA"}],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"edit","target_file_id":"target-0001"}`)
	put("runtime-rejects-match-absent", rcase{why: "a recorded edit whose text is not in the replay buffer is rejected at TRANSACTION_APPLICABILITY: replay_transaction_invalid",
		reqs: []string{"REPLAY-012", "REPLAY-019"}, h: absent, label: "replay_transaction_invalid", table: "append_only_pdcp_logs", row: 1, check: "transaction", runtimeLabel: "match_absent"})
	guard := mixed.clone()
	rewrite(guard, 2, `{"expected_current_hash":"`+strings.Repeat("0", 64)+`","expected_target_version":2,"format":"patchdiff-tx/2","intent":"edit","operations":[{"end":5,"expected_text":"alpha","op":"span","replace":"ALPHA","start":0}],"target_file_id":"target-0001"}`)
	put("runtime-rejects-guard", rcase{why: "a recorded expected_current_hash that is not the replay buffer's is target_hash_mismatch at PRECONDITION_GUARD: replay_transaction_invalid",
		reqs: []string{"REPLAY-012", "REPLAY-019"}, h: guard, label: "replay_transaction_invalid", table: "append_only_pdcp_logs", row: 3, check: "transaction", runtimeLabel: "target_hash_mismatch"})
	emptyEdits := mixed.clone()
	rewrite(emptyEdits, 0, `{"attempt":1,"client_request_id":"req-1","edits":[],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"edit","target_file_id":"target-0001"}`)
	put("runtime-rejects-structure", rcase{why: "a recorded transaction with no edit fails at PROTOCOL_VALIDATION: replay_protocol_invalid",
		reqs: []string{"REPLAY-012", "REPLAY-008"}, h: emptyEdits, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 1, check: "transaction", runtimeLabel: "manifest_invalid"})
	spaced := mixed.clone()
	rewrite(spaced, 0, `{"attempt": 1,"client_request_id":"req-1","edits":[{"match":"beta","replace":"BETA"}],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"edit","target_file_id":"target-0001"}`)
	put("pdcp-content-not-canonical", rcase{why: "pdcp_content with a space RFC 8785 removes is not deterministic canonical JSON, though its hash agrees",
		reqs: []string{"REPLAY-006", "REPLAY-019"}, h: spaced, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 1, check: "pdcp_content"})
	unsorted := mixed.clone()
	rewrite(unsorted, 0, `{"client_request_id":"req-1","attempt":1,"edits":[{"match":"beta","replace":"BETA"}],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"edit","target_file_id":"target-0001"}`)
	put("pdcp-content-unsorted", rcase{why: "pdcp_content whose members are not in RFC 8785 order is not canonical JSON",
		reqs: []string{"REPLAY-006", "REPLAY-005"}, h: unsorted, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 1, check: "pdcp_content"})
	wrongFormat := mixed.clone()
	wrongFormat.logs[2].ProtocolVersion = "patchdiff-tx/1"
	put("protocol-version-disagrees", rcase{why: "protocol_version patchdiff-tx/1 on a row whose pdcp_content is patchdiff-tx/2 dispatches the wrong parser",
		reqs: []string{"REPLAY-008", "REPLAY-019"}, h: wrongFormat, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 3, check: "protocol_version"})
	oldProfile := mixed.clone()
	oldProfile.logs[2].RuntimeVersion = "patchdiff-mvp-0.2.2"
	put("profile-without-spans", rcase{why: "a patchdiff-tx/2 row recorded under 0.2.2, which reads only patchdiff-tx/1, fails closed",
		reqs: []string{"REPLAY-009", "REPLAY-019"}, h: oldProfile, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 3, check: "runtime_version"})
	tx3 := mixed.clone()
	tx3.logs[3].RuntimeVersion = "patchdiff-mvp-0.5.0"
	put("tx3-needs-0.4.0", rcase{why: "patchdiff-tx/3 requires the replacement-capable profile 0.4.0; under 0.5.0 the row fails closed",
		reqs: []string{"REPLAY-009", "REPLAY-013"}, h: tx3, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 4, check: "runtime_version"})
	missing := mixed.clone()
	missing.ledger = missing.ledger[1:]
	put("ledger-row-missing", rcase{why: "an accepted row with one change fact and no ledger row: the count differs at that log row",
		reqs: []string{"REPLAY-016", "REPLAY-019"}, h: missing, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 1, check: "ledger"})
	noTarget := mixed.clone()
	noTarget.snapshots = append(noTarget.snapshots, rSnapshot{SnapshotID: 2, TargetFileID: rTargetID, SnapshotReason: "initial_upload", Content: "x\n", ContentHash: rsha("x\n"), Version: 1})
	put("two-initial-snapshots", rcase{why: "a second initial_upload snapshot leaves no single start",
		reqs: []string{"REPLAY-003", "REPLAY-019"}, h: noTarget, label: "replay_protocol_invalid", table: "TargetSnapshots", row: 2, check: "snapshot_reason"})

	batchHistoryCases(put)

	for _, c := range corruptions(mixed) {
		bad := mixed.clone()
		c.apply(bad)
		r := expectCorrupt(c, mixed)
		r.h = bad
		r.reqs = requirementsOf(c)
		what := c.table
		row := fmt.Sprintf("-row-%d", c.row)
		if c.table == "cloud_target_files" {
			row = ""
		}
		if c.status != "" {
			what += " (" + c.status + ")"
		}
		r.why = fmt.Sprintf("%s of %s row %d corrupted: named by rule", c.column, what, c.row)
		if r.label == "" {
			r.why = fmt.Sprintf("%s of the stored target corrupted: only its materialized check fails", c.column)
		}
		table := map[string]string{"cloud_target_files": "target", "TargetSnapshots": "snapshot", "append_only_pdcp_logs": "log", "append_only_manifest_ledger": "ledger"}[c.table]
		put("corrupt-"+table+row+"-"+strings.ReplaceAll(c.column, "_", "-"), r)
	}
	return out
}

// firstLedger is the count of ledger rows before log row id's.
func firstLedger(h *history, id int64) int {
	for i, l := range h.ledger {
		if l.PDCPLogID == id {
			return i
		}
	}
	return len(h.ledger)
}

// batchHistory: an observed batch between two typed transactions. The
// batch's buffer is "ALPHA\nbeta\n": group g1 holds [6, 11) "beta\n" and
// g2 [0, 6) "ALPHA\n"; each group's fact is at local 0, and the result,
// assembled from the back, is "A\nB\n". staleHash gives g2 the hash of
// another slice as its evidence.
func batchHistory(staleHash bool) *history {
	g2hash := rsha("ALPHA\n")
	if staleHash {
		g2hash = rsha("alpha\n")
	}
	group := func(id string, s, e int, hash string, op m) m {
		return m{"observation_id": id, "scope_bounds": m{"scope_start": s, "scope_end": e}, "target_hash": hash,
			"transaction": m{"format": "patchdiff-tx/2", "target_file_id": rTargetID, "intent": "edit", "operations": edits(op)}}
	}
	return build("alpha\nbeta\n", []step{
		{runtime: "patchdiff-mvp-0.2.2", tx: m{"format": "patchdiff-tx/1", "edits": edits(m{"match": "alpha", "replace": "ALPHA"})},
			result: "ALPHA\nbeta\n", facts: []rfact{{"match", "chg_001", 0, "alpha", "ALPHA"}}},
		{runtime: BR, tx: m{"format": BFmt, "expected_current_hash": rsha("ALPHA\nbeta\n"), "groups": edits(
			group("g1", 6, 11, rsha("beta\n"), m{"op": "match", "match": "beta", "replace": "B"}),
			group("g2", 0, 6, g2hash, m{"op": "span", "start": 0, "end": 5, "expected_text": "ALPHA", "replace": "A"}))},
			result: "A\nB\n", facts: []rfact{{"match", "chg_001", 0, "beta", "B"}, {"span", "chg_001", 0, "ALPHA", "A"}},
			groupOf: []m{{"group_index": 1, "operation_index": 1, "observation_id": "g1", "scope_start": 6, "scope_end": 11},
				{"group_index": 2, "operation_index": 1, "observation_id": "g2", "scope_start": 0, "scope_end": 6}}},
		{runtime: "patchdiff-mvp-0.3.0", tx: m{"format": "patchdiff-tx/2", "operations": edits(m{"op": "span", "start": 2, "end": 3, "expected_text": "B", "replace": "b"})},
			result: "A\nb\n", facts: []rfact{{"span", "chg_001", 2, "B", "b"}}},
	})
}

// batchHistoryCases are the replay cases of histories holding an observed
// batch (BATCH-023, BATCH-024).
func batchHistoryCases(put func(string, rcase)) {
	clean := batchHistory(false)
	put("batch-clean", rcase{why: "an observed batch row replays through the batch applier; its ledger rows are the batch facts with their groups",
		reqs: []string{"BATCH-023", "BATCH-024", "REPLAY-016"}, h: clean, checks: allTrue})
	moved := clean.clone()
	moved.target.CurrentContent = "A\r\nb\r\n"
	put("batch-materialized-crlf", rcase{why: "CRLF in the stored target after a batch shows in content_matches alone; replay repairs nothing",
		reqs: []string{"BATCH-024", "REPLAY-017"}, h: moved, checks: checksWith("content_matches")})
	profile := clean.clone()
	profile.logs[1].RuntimeVersion = "patchdiff-mvp-0.5.0"
	put("batch-under-transaction-profile", rcase{why: "a patchdiff-observed-batch/1 row recorded under a transaction profile fails closed",
		reqs: []string{"BATCH-023", "REPLAY-019"}, h: profile, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 2, check: "runtime_version"})
	typed := clean.clone()
	typed.logs[2].RuntimeVersion = BR
	put("transaction-under-batch-runtime", rcase{why: "patchdiff-observed-batch-r1 replays only observed batches, not a patchdiff-tx/2 row",
		reqs: []string{"BATCH-023", "REPLAY-009"}, h: typed, label: "replay_protocol_invalid", table: "append_only_pdcp_logs", row: 3, check: "runtime_version"})
	stale := batchHistory(true)
	put("batch-stale-scope-evidence", rcase{why: "a batch row whose group evidence is not its replay slice's hash is rejected at PRECONDITION_GUARD: replay_transaction_invalid",
		reqs: []string{"BATCH-023", "BATCH-024", "BATCH-013"}, h: stale, label: "replay_transaction_invalid", table: "append_only_pdcp_logs", row: 2, check: "transaction", runtimeLabel: "target_hash_mismatch"})
	ledger := clean.clone()
	ledger.ledger[2].DerivedJSON = strings.Replace(ledger.ledger[2].DerivedJSON, `"group_index":2`, `"group_index":1`, 1)
	put("batch-ledger-group-index", rcase{why: "a batch ledger row naming the wrong group differs from the fact the replay derived",
		reqs: []string{"BATCH-023", "BATCH-018"}, h: ledger, label: "replay_hash_mismatch", table: "append_only_manifest_ledger", row: 3, check: "derived_json"})
}
