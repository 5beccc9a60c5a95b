package replay

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/batch"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// The report's status: the history reconstructed, or not (REPLAY-019).
const (
	Verified = "verified"
	Failed   = "failed"
)

// Report is what Verify found (REPLAY-019). Its JSON form is the replay
// result of the adapter protocol's replay operation.
type Report struct {
	Status       string `json:"status"`
	TargetFileID string `json:"target_file_id"`
	// RowsChecked counts the log rows verified before the first failure
	// (every row when Status is Verified), AcceptedRows and RejectedRows
	// split them.
	RowsChecked  int `json:"rows_checked"`
	AcceptedRows int `json:"accepted_rows"`
	RejectedRows int `json:"rejected_rows"`
	// Failure is the first fault found; nil when verified.
	Failure *Failure `json:"failure"`
	// The reconstructed state; nil when the history failed.
	ReconstructedHash    *string `json:"reconstructed_hash"`
	ReconstructedVersion *int64  `json:"reconstructed_version"`
	// The seed's materialized_state_checks, nil when the history failed;
	// they never change Status (REPLAY-017).
	MaterializedStateChecks  *StateChecks `json:"materialized_state_checks"`
	MaterializedStateMatches *bool        `json:"materialized_state_matches"`
}

// StateChecks compares the stored target with the reconstruction
// (REPLAY-016).
type StateChecks struct {
	ContentMatches        bool `json:"content_matches"`
	StoredHashMatches     bool `json:"stored_hash_matches"`
	RecomputedHashMatches bool `json:"recomputed_hash_matches"`
	VersionMatches        bool `json:"version_matches"`
}

// Failure names the first fault: its replay-only label, the table and row
// (nil when the fault is no single row's), the column or check at fault,
// and for a transaction the runtime rejected, the runtime's label.
type Failure struct {
	FailureReason        pdspec.Reason `json:"failure_reason"`
	Table                string        `json:"table"`
	RowID                *int64        `json:"row_id"`
	Check                string        `json:"check"`
	RuntimeFailureReason pdspec.Reason `json:"runtime_failure_reason,omitempty"`
	Message              string        `json:"message"`
}

// MarshalJSON writes the report without HTML escaping, so the same report
// is always the same bytes.
func (r Report) MarshalJSON() ([]byte, error) {
	type plain Report
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(plain(r)); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// fault is a failure found while replaying.
type fault struct{ f Failure }

func fail(reason pdspec.Reason, table string, id *int64, check, format string, args ...any) *fault {
	return &fault{Failure{FailureReason: reason, Table: table, RowID: id, Check: check, Message: fmt.Sprintf(format, args...)}}
}

func ptr[T any](v T) *T { return &v }

// state is the replay buffer: canonical text, its hash and the version
// expected of the next row.
type state struct {
	buf     string
	hash    string
	version int64
}

// Verify replays h and reports (REPLAY-001 to REPLAY-019). It never fails
// and never panics: every fault of the history is a Failure in the report.
// Rows are checked in pdcp_log_id order and each check in the order
// REPLAY-005 gives; the first fault ends the replay.
func Verify(h *History) (rep Report) {
	defer func() {
		if p := recover(); p != nil {
			rep.Status = Failed
			rep.Failure = &Failure{FailureReason: pdspec.ReplayTransactionInvalid, Table: TableLogs, Check: "internal", Message: fmt.Sprint("internal fault: ", p)}
			rep.ReconstructedHash, rep.ReconstructedVersion, rep.MaterializedStateChecks, rep.MaterializedStateMatches = nil, nil, nil, nil
		}
	}()
	rep.Status = Failed
	if len(h.Targets) != 1 {
		rep.Failure = &fail(pdspec.ReplayProtocolInvalid, TableTargets, nil, "target_file_id", "a history holds exactly one target, this one %d", len(h.Targets)).f
		return rep
	}
	target := h.Targets[0]
	rep.TargetFileID = target.TargetFileID
	st, f := start(h, target.TargetFileID)
	if f == nil {
		f = replayLogs(h, target.TargetFileID, &st, &rep)
	}
	if f != nil {
		rep.Failure = &f.f
		return rep
	}
	rep.Status = Verified
	rep.ReconstructedHash, rep.ReconstructedVersion = ptr(st.hash), ptr(st.version)
	c := &StateChecks{
		ContentMatches:        target.CurrentContent == st.buf,
		StoredHashMatches:     target.CurrentHash == st.hash,
		RecomputedHashMatches: canonicalSHA256(target.CurrentContent) == st.hash,
		VersionMatches:        target.Version == st.version,
	}
	rep.MaterializedStateChecks = c
	rep.MaterializedStateMatches = ptr(c.ContentMatches && c.StoredHashMatches && c.RecomputedHashMatches && c.VersionMatches)
	return rep
}

// start finds the initial_upload snapshot and checks it (REPLAY-003).
func start(h *History, id string) (state, *fault) {
	var initial *Snapshot
	for i := range h.Snapshots {
		s := &h.Snapshots[i]
		if s.TargetFileID != id {
			return state{}, fail(pdspec.ReplayProtocolInvalid, TableSnapshots, ptr(s.SnapshotID), "target_file_id", "the snapshot belongs to target %q, not %q", s.TargetFileID, id)
		}
		if s.SnapshotReason != ReasonInitialUpload {
			continue
		}
		if initial != nil {
			return state{}, fail(pdspec.ReplayProtocolInvalid, TableSnapshots, ptr(s.SnapshotID), "snapshot_reason", "a second initial_upload snapshot (the first is %d)", initial.SnapshotID)
		}
		initial = s
	}
	if initial == nil {
		return state{}, fail(pdspec.ReplayProtocolInvalid, TableSnapshots, nil, "snapshot_reason", "no initial_upload snapshot")
	}
	if got := canonicalSHA256(initial.Content); got != initial.ContentHash {
		return state{}, fail(pdspec.ReplayHashMismatch, TableSnapshots, ptr(initial.SnapshotID), "content_hash", "content_hash %s, the content hashes to %s", initial.ContentHash, got)
	}
	buf := pd.Canonicalize(initial.Content)
	return state{buf: buf, hash: pd.Hash(buf), version: initial.Version}, nil
}

// replayLogs checks every log row in order, applying the accepted ones.
func replayLogs(h *History, id string, st *state, rep *Report) *fault {
	ledger := map[int64][]*LedgerRow{}
	for i := range h.Ledger {
		l := &h.Ledger[i]
		ledger[l.PDCPLogID] = append(ledger[l.PDCPLogID], l)
	}
	seen := map[int64]bool{}
	for i := range h.Logs {
		row := &h.Logs[i]
		if i > 0 && row.PDCPLogID <= h.Logs[i-1].PDCPLogID {
			return fail(pdspec.ReplayProtocolInvalid, TableLogs, ptr(row.PDCPLogID), "pdcp_log_id", "rows out of pdcp_log_id order")
		}
		seen[row.PDCPLogID] = true
		var f *fault
		if row.Status == StatusRejected {
			f = checkRejected(row, id, st, ledger[row.PDCPLogID])
		} else {
			f = replayAccepted(row, id, st, ledger[row.PDCPLogID])
		}
		if f != nil {
			return f
		}
		rep.RowsChecked++
		if row.Status == StatusRejected {
			rep.RejectedRows++
		} else {
			rep.AcceptedRows++
		}
	}
	for i := range h.Ledger {
		if l := &h.Ledger[i]; !seen[l.PDCPLogID] {
			return fail(pdspec.ReplayProtocolInvalid, TableLedger, ptr(l.LedgerID), "pdcp_log_id", "the ledger row names log row %d, which the log does not hold", l.PDCPLogID)
		}
	}
	return nil
}

// checkShared runs the checks every row takes first: its target and its
// status with the columns the status fixes (REPLAY-005, REPLAY-014).
func checkShared(row *LogRow, id string) *fault {
	at := ptr(row.PDCPLogID)
	bad := func(check, format string, args ...any) *fault {
		return fail(pdspec.ReplayProtocolInvalid, TableLogs, at, check, format, args...)
	}
	if row.TargetFileID != id {
		return bad("target_file_id", "the row belongs to target %q, not %q", row.TargetFileID, id)
	}
	switch row.Status {
	case StatusAccepted:
		if row.FailureReason != nil {
			return bad("failure_reason", "an accepted row carries failure_reason %q", *row.FailureReason)
		}
		if row.DiagnosticJSON != nil {
			return bad("diagnostic_json", "an accepted row carries a diagnostic")
		}
	case StatusRejected:
		if row.FailureReason == nil || !slices.Contains(pdspec.LabelSet().RuntimeFailureReasons, pdspec.Reason(*row.FailureReason)) {
			return bad("failure_reason", "a rejected row carries no runtime failure_reason")
		}
		if row.AfterHash != nil {
			return bad("after_hash", "a rejected row carries after_hash %s, not null", *row.AfterHash)
		}
		if row.AfterVersion != nil {
			return bad("after_version", "a rejected row carries after_version %d, not null", *row.AfterVersion)
		}
		if row.DiagnosticJSON == nil || !isJSONObject(*row.DiagnosticJSON) {
			return bad("diagnostic_json", "a rejected row carries no diagnostic object")
		}
	default:
		return bad("status", "status %q is neither accepted nor rejected", row.Status)
	}
	return nil
}

func isJSONObject(s string) bool {
	var v map[string]any
	return json.Unmarshal([]byte(s), &v) == nil && v != nil
}

// checkRejected checks a rejected attempt against the state it was judged
// in; it is not applied (REPLAY-014).
func checkRejected(row *LogRow, id string, st *state, ledger []*LedgerRow) *fault {
	if f := checkShared(row, id); f != nil {
		return f
	}
	at := ptr(row.PDCPLogID)
	if row.BeforeVersion != st.version {
		return fail(pdspec.ReplayProtocolInvalid, TableLogs, at, "before_version", "before_version %d, the target was at %d", row.BeforeVersion, st.version)
	}
	if row.BeforeHash != st.hash {
		return fail(pdspec.ReplayHashMismatch, TableLogs, at, "before_hash", "before_hash %s, the replay buffer hashes to %s", row.BeforeHash, st.hash)
	}
	if got := canonicalSHA256(row.PDCPContent); got != row.PDCPContentHash {
		return fail(pdspec.ReplayHashMismatch, TableLogs, at, "pdcp_content_hash", "pdcp_content_hash %s, pdcp_content hashes to %s", row.PDCPContentHash, got)
	}
	if len(ledger) > 0 {
		return fail(pdspec.ReplayProtocolInvalid, TableLedger, ptr(ledger[0].LedgerID), "pdcp_log_id", "a ledger row for rejected log row %d", row.PDCPLogID)
	}
	return nil
}

// lineage is what replay reads of pdcp_content besides running it: the
// members a row repeats in its columns.
type lineage struct {
	Format          any `json:"format"`
	TargetFileID    any `json:"target_file_id"`
	ClientRequestID any `json:"client_request_id"`
	ParentPDCPLogID any `json:"parent_pdcp_log_id"`
	Attempt         any `json:"attempt"`
}

// replayAccepted checks an accepted row and applies it to st (REPLAY-005
// to REPLAY-013, REPLAY-015).
func replayAccepted(row *LogRow, id string, st *state, ledger []*LedgerRow) *fault {
	if f := checkShared(row, id); f != nil {
		return f
	}
	at := ptr(row.PDCPLogID)
	protocol := func(check, format string, args ...any) *fault {
		return fail(pdspec.ReplayProtocolInvalid, TableLogs, at, check, format, args...)
	}
	hash := func(check, format string, args ...any) *fault {
		return fail(pdspec.ReplayHashMismatch, TableLogs, at, check, format, args...)
	}
	bp := pdspec.ObservedBatch()
	isBatch := row.ProtocolVersion == bp.Format
	if !isBatch && !slices.Contains(pdspec.LabelSet().Formats, row.ProtocolVersion) {
		return protocol("protocol_version", "no parser for protocol_version %q", row.ProtocolVersion)
	}
	switch {
	case isBatch && row.RuntimeVersion != bp.RuntimeVersion:
		return protocol("runtime_version", "an observed batch replays only under %s, not %q (BATCH-023)", bp.RuntimeVersion, row.RuntimeVersion)
	case !isBatch && row.RuntimeVersion == bp.RuntimeVersion:
		return protocol("runtime_version", "%s replays only %s rows, not %s (BATCH-023)", bp.RuntimeVersion, bp.Format, row.ProtocolVersion)
	case !isBatch:
		profile, ok := pdspec.LookupProfile(row.RuntimeVersion)
		if !ok {
			return protocol("runtime_version", "runtime_version %q names no profile", row.RuntimeVersion)
		}
		if !slices.Contains(profile.Formats, row.ProtocolVersion) {
			return protocol("runtime_version", "profile %s does not read %s", row.RuntimeVersion, row.ProtocolVersion)
		}
	}
	if row.BeforeVersion != st.version {
		return protocol("before_version", "before_version %d, the chain expects %d", row.BeforeVersion, st.version)
	}
	if row.AfterVersion == nil || *row.AfterVersion != st.version+1 {
		return protocol("after_version", "after_version %s, the chain expects %d", showInt(row.AfterVersion), st.version+1)
	}
	if row.BeforeHash != st.hash {
		return hash("before_hash", "before_hash %s, the replay buffer hashes to %s", row.BeforeHash, st.hash)
	}
	if got := canonicalSHA256(row.PDCPContent); got != row.PDCPContentHash {
		return hash("pdcp_content_hash", "pdcp_content_hash %s, pdcp_content hashes to %s", row.PDCPContentHash, got)
	}
	canon, err := CanonicalJSON([]byte(row.PDCPContent))
	if err != nil {
		return protocol("pdcp_content", "pdcp_content is not canonical JSON: %v", err)
	}
	if !bytes.Equal(canon, []byte(row.PDCPContent)) {
		return protocol("pdcp_content", "pdcp_content is not in its canonical JSON form")
	}
	var lin lineage
	if err := json.Unmarshal(canon, &lin); err != nil {
		return protocol("pdcp_content", "pdcp_content is not a JSON object")
	}
	if lin.Format != row.ProtocolVersion {
		return protocol("protocol_version", "protocol_version %q, pdcp_content's format is %v", row.ProtocolVersion, lin.Format)
	}
	for _, m := range []struct {
		check   string
		content any
		column  any
	}{
		{"target_file_id", lin.TargetFileID, row.TargetFileID},
		{"client_request_id", lin.ClientRequestID, derefAny(row.ClientRequestID)},
		{"parent_pdcp_log_id", lin.ParentPDCPLogID, derefAny(row.ParentPDCPLogID)},
		{"attempt", lin.Attempt, intAny(row.Attempt)},
	} {
		if m.content != m.column {
			return protocol(m.check, "%s is %v in the row and %v in pdcp_content", m.check, m.column, m.content)
		}
	}
	res := run(row, st.buf, isBatch)
	if !res.accepted {
		label := pdspec.ReplayTransactionInvalid
		if res.stage == pdspec.ProtocolValidation {
			label = pdspec.ReplayProtocolInvalid
		}
		f := fail(label, TableLogs, at, "transaction", "the runtime rejects the recorded transaction with %s at %s", res.reason, res.stage)
		f.f.RuntimeFailureReason = res.reason
		return f
	}
	if row.AfterHash == nil || *row.AfterHash != res.afterHash {
		return hash("after_hash", "after_hash %s, the result hashes to %s", showStr(row.AfterHash), res.afterHash)
	}
	if f := checkLedger(row, id, ledger, res.facts); f != nil {
		return f
	}
	st.buf, st.hash, st.version = res.text, res.afterHash, st.version+1
	return nil
}

// outcome is what running a recorded row gave: a transaction's or an
// observed batch's result, reduced to what replay checks.
type outcome struct {
	accepted        bool
	reason          pdspec.Reason
	stage           pdspec.Stage
	text, afterHash string
	facts           []any // pd.ChangeFact or batch.Fact
}

// run runs a row's pdcp_content under its runtime_version, with warnings
// off and the row's before_version as target version (REPLAY-012): a
// transaction through the runtime, an observed batch through the batch
// applier, which checks the global guards, every scope and target_hash and
// every group against the replay buffer (BATCH-023). Neither calls out or
// writes anything (BATCH-024).
func run(row *LogRow, buf string, isBatch bool) outcome {
	v := row.BeforeVersion
	var o outcome
	if isBatch {
		r := batch.Apply(batch.Request{RuntimeVersion: row.RuntimeVersion, Target: buf, TargetVersion: &v, Batch: row.PDCPContent})
		o = outcome{accepted: r.Accepted(), reason: r.Reason(), stage: r.ValidationStage}
		if o.accepted {
			o.text, o.afterHash = *r.ResultText, *r.AfterHash
			for _, f := range r.ChangeFacts {
				o.facts = append(o.facts, f)
			}
		}
		return o
	}
	r := pd.Apply(pd.Request{RuntimeVersion: row.RuntimeVersion, Target: buf, TargetVersion: &v, Transaction: row.PDCPContent, CollectWarnings: false})
	o = outcome{accepted: r.Accepted(), reason: r.Reason(), stage: r.ValidationStage}
	if o.accepted {
		o.text, o.afterHash = *r.ResultText, *r.AfterHash
		for _, f := range r.ChangeFacts {
			o.facts = append(o.facts, f)
		}
	}
	return o
}

// checkLedger compares an accepted row's ledger rows with the change facts
// the replay derived (REPLAY-015).
func checkLedger(row *LogRow, id string, ledger []*LedgerRow, facts []any) *fault {
	if len(ledger) != len(facts) {
		return fail(pdspec.ReplayProtocolInvalid, TableLogs, ptr(row.PDCPLogID), "ledger", "%d ledger rows for %d change facts", len(ledger), len(facts))
	}
	for i, l := range ledger {
		at := ptr(l.LedgerID)
		if l.TargetFileID != id {
			return fail(pdspec.ReplayProtocolInvalid, TableLedger, at, "target_file_id", "the ledger row belongs to target %q, not %q", l.TargetFileID, id)
		}
		if l.Origin != OriginTyped {
			return fail(pdspec.ReplayProtocolInvalid, TableLedger, at, "origin", "origin %q, not %q", l.Origin, OriginTyped)
		}
		want, err := derivedJSON(facts[i])
		if err != nil {
			return fail(pdspec.ReplayTransactionInvalid, TableLedger, at, "derived_json", "%v", err)
		}
		got, err := CanonicalJSON([]byte(l.DerivedJSON))
		if err != nil || !bytes.Equal(got, want) {
			return fail(pdspec.ReplayHashMismatch, TableLedger, at, "derived_json", "derived_json differs from the change fact the replay derived")
		}
	}
	return nil
}

// DerivedJSON is a change fact as the ledger's derived_json holds it: its
// canonical JSON (REPLAY-015).
func DerivedJSON(f pd.ChangeFact) ([]byte, error) { return derivedJSON(f) }

// derivedJSON is any fact's canonical JSON: a runtime change fact, or an
// observed batch's fact with its group members (BATCH-023).
func derivedJSON(f any) ([]byte, error) {
	b, err := json.Marshal(f)
	if err != nil {
		return nil, err
	}
	return CanonicalJSON(b)
}

func derefAny(p *string) any {
	if p == nil {
		return nil
	}
	return *p
}

// intAny is an integer column as encoding/json decodes the same member.
func intAny(p *int64) any {
	if p == nil {
		return nil
	}
	return float64(*p)
}

func showInt(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}

func showStr(p *string) string {
	if p == nil {
		return "null"
	}
	return *p
}
