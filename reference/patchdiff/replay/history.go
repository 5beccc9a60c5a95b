package replay

import pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"

// The tables and columns of a history, named as the seed names them
// (REPLAY-002): cloud_target_files, TargetSnapshots,
// append_only_pdcp_logs and append_only_manifest_ledger. Members the seed
// does not name (snapshot_id, content, the snapshot's version, ledger_id)
// are this project's.
const (
	TableTargets   = "cloud_target_files"
	TableSnapshots = "TargetSnapshots"
	TableLogs      = "append_only_pdcp_logs"
	TableLedger    = "append_only_manifest_ledger"
)

// The values of status, snapshot_reason and origin the replay reads.
const (
	StatusAccepted = "accepted"
	StatusRejected = "rejected"
	// ReasonInitialUpload marks the snapshot replay starts from.
	ReasonInitialUpload = "initial_upload"
	// OriginTyped is the origin of ledger rows of accepted transactions in
	// every format (REPLAY-015).
	OriginTyped = "typed"
)

// History is one target's stored history: the materialized target, its
// snapshots, every attempt logged for it in pdcp_log_id order, and the
// ledger rows of the accepted ones. Replay reads one target (REPLAY-003).
type History struct {
	Targets   []Target    `json:"cloud_target_files"`
	Snapshots []Snapshot  `json:"TargetSnapshots"`
	Logs      []LogRow    `json:"append_only_pdcp_logs"`
	Ledger    []LedgerRow `json:"append_only_manifest_ledger"`
}

// The rows, their members in column order, are the spec's (REPLAY-002,
// REPLAY-021): package pdspec holds them once for the replay verifier, the
// stores and the case generator.
type (
	Target    = pdspec.Target
	Snapshot  = pdspec.Snapshot
	LogRow    = pdspec.LogRow
	LedgerRow = pdspec.LedgerRow
)

// Clone returns a deep copy of h, so a caller can corrupt one field
// without touching h.
func (h *History) Clone() *History {
	c := &History{
		Targets:   append([]Target(nil), h.Targets...),
		Snapshots: append([]Snapshot(nil), h.Snapshots...),
		Logs:      make([]LogRow, len(h.Logs)),
		Ledger:    append([]LedgerRow(nil), h.Ledger...),
	}
	for i, r := range h.Logs {
		r.AfterVersion = clonePtr(r.AfterVersion)
		r.AfterHash = clonePtr(r.AfterHash)
		r.FailureReason = clonePtr(r.FailureReason)
		r.DiagnosticJSON = clonePtr(r.DiagnosticJSON)
		r.ClientRequestID = clonePtr(r.ClientRequestID)
		r.ParentPDCPLogID = clonePtr(r.ParentPDCPLogID)
		r.Attempt = clonePtr(r.Attempt)
		c.Logs[i] = r
	}
	return c
}

func clonePtr[T any](p *T) *T {
	if p == nil {
		return nil
	}
	v := *p
	return &v
}
