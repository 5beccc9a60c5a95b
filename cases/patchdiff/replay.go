package pdcases

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// The operations a case asks of an applier: a runtime call (the default),
// a replay of a stored history (spec/patchdiff REPLAY) or an observed
// batch (BATCH).
const (
	OperationApply         = "apply"
	OperationReplay        = "replay"
	OperationObservedBatch = "observed_batch"
)

// ReplayCase is the request and expectation of a case whose operation is
// replay. The request is {"history": [row, …]}, each row a JSON object of
// one member named after its table (REPLAY-021), sent as written.
type ReplayCase struct {
	Request json.RawMessage
	Expect  ReplayExpect
}

// ReplayExpect is what the replay report must say.
type ReplayExpect struct {
	// Status is "verified" or "failed".
	Status string
	// Failure is the fault a failed replay must name: its label, table
	// and row (REPLAY-019); nil when verified.
	Failure *ReplayFailure
	// CheckRecommended and RuntimeReasonRecommended are the failure's
	// check and runtime_failure_reason: spellings spec/patchdiff chose,
	// so a difference is only recommended.
	CheckRecommended         string
	RuntimeReasonRecommended string
	// The verified state.
	MaterializedStateChecks map[string]bool
	ReconstructedHash       string
	ReconstructedVersion    *int64
}

// ReplayFailure is a failure as a case states it.
type ReplayFailure struct {
	FailureReason string `json:"failure_reason"`
	Table         string `json:"table"`
	RowID         *int64 `json:"row_id"`
}

type rawReplayExpect struct {
	Status                  string          `json:"status"`
	Failure                 *ReplayFailure  `json:"failure"`
	FailureRecommended      *rawFailureRec  `json:"failure_recommended"`
	MaterializedStateChecks map[string]bool `json:"materialized_state_checks"`
	ReconstructedHash       string          `json:"reconstructed_hash"`
	ReconstructedVersion    *int64          `json:"reconstructed_version"`
}

type rawFailureRec struct {
	Check                string `json:"check"`
	RuntimeFailureReason string `json:"runtime_failure_reason"`
}

var stateCheckNames = []string{"content_matches", "stored_hash_matches", "recomputed_hash_matches", "version_matches"}

var replayTables = []string{"cloud_target_files", "TargetSnapshots", "append_only_pdcp_logs", "append_only_manifest_ledger"}

// replay reads the request and expectation of a replay case.
func (ck *checker) replay(req, exp json.RawMessage, c *Case) {
	var r struct {
		History []map[string]json.RawMessage `json:"history"`
	}
	if err := strictUnmarshal(req, &r); err != nil {
		ck.fail("request", "a replay request is {\"history\": [row, …]}: %v", err)
	}
	for i, row := range r.History {
		if len(row) != 1 {
			ck.fail(fmt.Sprintf("request.history[%d]", i), "a row is an object of one member, its table")
		}
		for table := range row {
			if !slices.Contains(replayTables, table) {
				ck.fail(fmt.Sprintf("request.history[%d]", i), "unknown table %q", table)
			}
		}
	}
	var b bytes.Buffer
	if err := json.Compact(&b, req); err != nil {
		ck.fail("request", "%v", err)
	}
	c.Replay = &ReplayCase{Request: b.Bytes()}
	var e rawReplayExpect
	if err := strictUnmarshal(exp, &e); err != nil {
		ck.fail("expect", "%v", err)
		return
	}
	x := &c.Replay.Expect
	x.Status, x.Failure, x.MaterializedStateChecks = e.Status, e.Failure, e.MaterializedStateChecks
	x.ReconstructedHash, x.ReconstructedVersion = e.ReconstructedHash, e.ReconstructedVersion
	if e.FailureRecommended != nil {
		x.CheckRecommended, x.RuntimeReasonRecommended = e.FailureRecommended.Check, e.FailureRecommended.RuntimeFailureReason
	}
	switch e.Status {
	case "verified":
		if e.Failure != nil || e.FailureRecommended != nil {
			ck.fail("expect.failure", "a verified replay has no failure")
		}
		if len(e.MaterializedStateChecks) != len(stateCheckNames) {
			ck.fail("expect.materialized_state_checks", "all of %v", stateCheckNames)
		}
		for _, n := range stateCheckNames {
			if _, ok := e.MaterializedStateChecks[n]; !ok {
				ck.fail("expect.materialized_state_checks", "%s missing", n)
			}
		}
		if !sha256Hex.MatchString(e.ReconstructedHash) || e.ReconstructedVersion == nil {
			ck.fail("expect", "a verified replay states reconstructed_hash and reconstructed_version")
		}
	case "failed":
		if e.Failure == nil {
			ck.fail("expect.failure", "a failed replay names its failure")
		} else {
			if !slices.Contains(pdspec.LabelSet().ReplayFailureReasons, pdspec.Reason(e.Failure.FailureReason)) {
				ck.fail("expect.failure.failure_reason", "%q is not a replay-only label", e.Failure.FailureReason)
			}
			if !slices.Contains(replayTables, e.Failure.Table) {
				ck.fail("expect.failure.table", "unknown table %q", e.Failure.Table)
			}
		}
		if e.MaterializedStateChecks != nil || e.ReconstructedHash != "" || e.ReconstructedVersion != nil {
			ck.fail("expect", "a failed replay reports no reconstructed state")
		}
	default:
		ck.fail("expect.status", "%q: want verified or failed", e.Status)
	}
}

// CompareReplay checks a replay report (the result of the replay
// operation) against the case's expectation. The failure's label, table
// and row must match; its check and runtime label are recommended.
func (c *Case) CompareReplay(report []byte) []Difference {
	var ds []Difference
	add := func(rec bool, format string, args ...any) {
		ds = append(ds, Difference{Text: fmt.Sprintf(format, args...), Recommended: rec || c.Recommended})
	}
	var got struct {
		Status  *string `json:"status"`
		Failure *struct {
			ReplayFailure
			Check                string `json:"check"`
			RuntimeFailureReason string `json:"runtime_failure_reason"`
		} `json:"failure"`
		ReconstructedHash        *string         `json:"reconstructed_hash"`
		ReconstructedVersion     *int64          `json:"reconstructed_version"`
		MaterializedStateChecks  map[string]bool `json:"materialized_state_checks"`
		MaterializedStateMatches *bool           `json:"materialized_state_matches"`
	}
	if err := json.Unmarshal(report, &got); err != nil || got.Status == nil {
		add(false, "the result is not a replay report: %v", err)
		return ds
	}
	x := c.Replay.Expect
	if *got.Status != x.Status {
		add(false, "status: want %q, got %q", x.Status, *got.Status)
	}
	if x.Status == "failed" {
		if got.Failure == nil {
			add(false, "failure: want %s at %s row %s, got none", x.Failure.FailureReason, x.Failure.Table, showRow(x.Failure.RowID))
			return ds
		}
		f := got.Failure
		if f.FailureReason != x.Failure.FailureReason || f.Table != x.Failure.Table || showRow(f.RowID) != showRow(x.Failure.RowID) {
			add(false, "failure: want %s at %s row %s, got %s at %s row %s (check %s)", x.Failure.FailureReason, x.Failure.Table, showRow(x.Failure.RowID),
				f.FailureReason, f.Table, showRow(f.RowID), f.Check)
		}
		if x.CheckRecommended != "" && f.Check != x.CheckRecommended {
			add(true, "failure.check: want %q, got %q", x.CheckRecommended, f.Check)
		}
		if x.RuntimeReasonRecommended != "" && f.RuntimeFailureReason != x.RuntimeReasonRecommended {
			add(true, "failure.runtime_failure_reason: want %q, got %q", x.RuntimeReasonRecommended, f.RuntimeFailureReason)
		}
		if got.MaterializedStateChecks != nil {
			add(false, "materialized_state_checks: want null on a failed replay (REPLAY-018)")
		}
		return ds
	}
	if got.Failure != nil {
		add(false, "failure: want none, got %s at %s row %s", got.Failure.FailureReason, got.Failure.Table, showRow(got.Failure.RowID))
	}
	for _, n := range stateCheckNames {
		if g, ok := got.MaterializedStateChecks[n]; !ok || g != x.MaterializedStateChecks[n] {
			add(false, "materialized_state_checks.%s: want %t, got %v", n, x.MaterializedStateChecks[n], got.MaterializedStateChecks[n])
		}
	}
	all := true
	for _, n := range stateCheckNames {
		all = all && x.MaterializedStateChecks[n]
	}
	if got.MaterializedStateMatches == nil || *got.MaterializedStateMatches != all {
		add(false, "materialized_state_matches: want %t", all)
	}
	if got.ReconstructedHash == nil || *got.ReconstructedHash != x.ReconstructedHash {
		add(false, "reconstructed_hash: want %s, got %s", x.ReconstructedHash, showString(got.ReconstructedHash))
	}
	if got.ReconstructedVersion == nil || *got.ReconstructedVersion != *x.ReconstructedVersion {
		add(false, "reconstructed_version: want %d, got %s", *x.ReconstructedVersion, showRow(got.ReconstructedVersion))
	}
	return ds
}

func showRow(p *int64) string {
	if p == nil {
		return "null"
	}
	return fmt.Sprint(*p)
}
