package replay

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

// Target is the materialized target row (cloud_target_files).
// CurrentContent is the stored text, raw: replay compares it as stored.
type Target struct {
	TargetFileID   string `json:"target_file_id"`
	CurrentContent string `json:"current_content"`
	CurrentHash    string `json:"current_hash"`
	Version        int64  `json:"version"`
}

// Snapshot is a TargetSnapshots row.
type Snapshot struct {
	SnapshotID     int64  `json:"snapshot_id"`
	TargetFileID   string `json:"target_file_id"`
	SnapshotReason string `json:"snapshot_reason"`
	Content        string `json:"content"`
	ContentHash    string `json:"content_hash"`
	Version        int64  `json:"version"`
}

// LogRow is an append_only_pdcp_logs row: one attempt, accepted or
// rejected. PDCPLogID orders the log (REPLAY-004). Nullable columns are
// pointers.
type LogRow struct {
	PDCPLogID       int64   `json:"pdcp_log_id"`
	TargetFileID    string  `json:"target_file_id"`
	ProtocolVersion string  `json:"protocol_version"`
	RuntimeVersion  string  `json:"runtime_version"`
	PDCPContent     string  `json:"pdcp_content"`
	PDCPContentHash string  `json:"pdcp_content_hash"`
	BeforeVersion   int64   `json:"before_version"`
	AfterVersion    *int64  `json:"after_version"`
	BeforeHash      string  `json:"before_hash"`
	AfterHash       *string `json:"after_hash"`
	Status          string  `json:"status"`
	FailureReason   *string `json:"failure_reason"`
	DiagnosticJSON  *string `json:"diagnostic_json"`
	ClientRequestID *string `json:"client_request_id"`
	ParentPDCPLogID *string `json:"parent_pdcp_log_id"`
	Attempt         *int64  `json:"attempt"`
}

// LedgerRow is an append_only_manifest_ledger row: one change fact of an
// accepted transaction, as canonical JSON in derived_json.
type LedgerRow struct {
	LedgerID     int64  `json:"ledger_id"`
	PDCPLogID    int64  `json:"pdcp_log_id"`
	TargetFileID string `json:"target_file_id"`
	Origin       string `json:"origin"`
	DerivedJSON  string `json:"derived_json"`
}

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
