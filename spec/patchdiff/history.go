package pdspec

// The rows of a stored history, as the seed names its tables and columns
// (REPLAY-002) and as a history file and a replay request write them
// (REPLAY-021), members in column order. Replay, the stores and the case
// generator all read and write these.

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
