package replay

import (
	"encoding/json"
	"strings"
)

// Corruption changes one field of one row of a history, in a way the
// field's check can see: a hash gets another hash, a version moves by one,
// a nullable column becomes null or not, a name becomes one nothing
// knows. Tests and the replay cases use them to show that every single
// field is checked (REPLAY-018); what the replay must report for each is
// stated by rule where they are used, never taken from Verify.
type Corruption struct {
	Table  string
	RowID  int64 // the row's key: target rows count from 1
	Column string
	// RowStatus is the log row's status ("" for other tables).
	RowStatus string
	Apply     func(h *History)
}

// Corruptions lists one corruption per checked field of every row of h:
// every column of the target, the snapshots and the ledger rows but their
// keys; every column of an accepted log row but pdcp_log_id; and the
// columns that bind a rejected log row (REPLAY-014).
func Corruptions(h *History) []Corruption {
	var out []Corruption
	add := func(table string, id int64, col, status string, f func(h *History)) {
		out = append(out, Corruption{Table: table, RowID: id, Column: col, RowStatus: status, Apply: f})
	}
	for i := range h.Targets {
		add(TableTargets, int64(i+1), "target_file_id", "", func(h *History) { h.Targets[i].TargetFileID += "-x" })
		add(TableTargets, int64(i+1), "current_content", "", func(h *History) { h.Targets[i].CurrentContent = toCRLF(h.Targets[i].CurrentContent) })
		add(TableTargets, int64(i+1), "current_hash", "", func(h *History) { h.Targets[i].CurrentHash = flipHash(h.Targets[i].CurrentHash) })
		add(TableTargets, int64(i+1), "version", "", func(h *History) { h.Targets[i].Version++ })
	}
	for i, s := range h.Snapshots {
		add(TableSnapshots, s.SnapshotID, "target_file_id", "", func(h *History) { h.Snapshots[i].TargetFileID += "-x" })
		add(TableSnapshots, s.SnapshotID, "snapshot_reason", "", func(h *History) { h.Snapshots[i].SnapshotReason = "save_checkpoint" })
		add(TableSnapshots, s.SnapshotID, "content", "", func(h *History) { h.Snapshots[i].Content += "x" })
		add(TableSnapshots, s.SnapshotID, "content_hash", "", func(h *History) { h.Snapshots[i].ContentHash = flipHash(h.Snapshots[i].ContentHash) })
		add(TableSnapshots, s.SnapshotID, "version", "", func(h *History) { h.Snapshots[i].Version++ })
	}
	for i, r := range h.Logs {
		row := func(h *History) *LogRow { return &h.Logs[i] }
		st := r.Status
		a := func(col string, f func(r *LogRow)) {
			add(TableLogs, r.PDCPLogID, col, st, func(h *History) { f(row(h)) })
		}
		a("target_file_id", func(r *LogRow) { r.TargetFileID += "-x" })
		a("pdcp_content", func(r *LogRow) { r.PDCPContent += " " })
		a("pdcp_content_hash", func(r *LogRow) { r.PDCPContentHash = flipHash(r.PDCPContentHash) })
		a("before_version", func(r *LogRow) { r.BeforeVersion++ })
		a("before_hash", func(r *LogRow) { r.BeforeHash = flipHash(r.BeforeHash) })
		if st == StatusAccepted {
			a("status", func(r *LogRow) { r.Status = StatusRejected })
			a("protocol_version", func(r *LogRow) { r.ProtocolVersion = "patchdiff-tx/9" })
			a("runtime_version", func(r *LogRow) { r.RuntimeVersion = "patchdiff-mvp-9.9.9" })
			a("after_version", func(r *LogRow) { *r.AfterVersion++ })
			a("after_hash", func(r *LogRow) { *r.AfterHash = flipHash(*r.AfterHash) })
			a("failure_reason", func(r *LogRow) { s := "match_absent"; r.FailureReason = &s })
			a("diagnostic_json", func(r *LogRow) { s := "{}"; r.DiagnosticJSON = &s })
			a("client_request_id", func(r *LogRow) { r.ClientRequestID = otherString(r.ClientRequestID) })
			a("parent_pdcp_log_id", func(r *LogRow) { r.ParentPDCPLogID = otherString(r.ParentPDCPLogID) })
			a("attempt", func(r *LogRow) {
				n := int64(7)
				if r.Attempt != nil {
					n = *r.Attempt + 1
				}
				r.Attempt = &n
			})
		} else {
			a("status", func(r *LogRow) { r.Status = StatusAccepted })
			a("after_version", func(r *LogRow) { v := r.BeforeVersion + 1; r.AfterVersion = &v })
			a("after_hash", func(r *LogRow) { s := flipHash(r.BeforeHash); r.AfterHash = &s })
			a("failure_reason", func(r *LogRow) { r.FailureReason = nil })
			a("diagnostic_json", func(r *LogRow) { s := "not json"; r.DiagnosticJSON = &s })
		}
	}
	for i, l := range h.Ledger {
		add(TableLedger, l.LedgerID, "target_file_id", "", func(h *History) { h.Ledger[i].TargetFileID += "-x" })
		add(TableLedger, l.LedgerID, "origin", "", func(h *History) { h.Ledger[i].Origin = "derived" })
		add(TableLedger, l.LedgerID, "derived_json", "", func(h *History) { h.Ledger[i].DerivedJSON = bumpFact(h.Ledger[i].DerivedJSON) })
	}
	return out
}

// toCRLF stores text with CRLF line ends, which canonicalize back to it.
func toCRLF(s string) string {
	if !strings.Contains(s, "\n") {
		return s + "\r"
	}
	return strings.ReplaceAll(s, "\n", "\r\n")
}

// flipHash changes a hash's first hex digit.
func flipHash(h string) string {
	if h == "" {
		return "0"
	}
	c := byte('0')
	if h[0] == '0' {
		c = '1'
	}
	return string(c) + h[1:]
}

func otherString(p *string) *string {
	s := "corrupt"
	if p != nil {
		s = *p + "-x"
	}
	return &s
}

// bumpFact adds one to a change fact's replacement_chars, keeping the
// canonical form.
func bumpFact(derived string) string {
	var m map[string]any
	if json.Unmarshal([]byte(derived), &m) != nil {
		return derived + " "
	}
	n, _ := m["replacement_chars"].(float64)
	m["replacement_chars"] = n + 1
	b, _ := json.Marshal(m)
	c, err := CanonicalJSON(b)
	if err != nil {
		return derived + " "
	}
	return string(c)
}
