package replay

import (
	"bytes"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// TestCleanHistoryVerifies: a recorded history replays to the stored
// target under every row's own profile.
func TestCleanHistoryVerifies(t *testing.T) {
	t.Parallel()
	h := SampleHistory(40)
	rep := Verify(h)
	if rep.Status != Verified || rep.Failure != nil {
		t.Fatalf("report %+v, failure %+v", rep, rep.Failure)
	}
	target := h.Targets[0]
	want := StateChecks{true, true, true, true}
	if *rep.MaterializedStateChecks != want || !*rep.MaterializedStateMatches {
		t.Errorf("materialized_state_checks %+v", *rep.MaterializedStateChecks)
	}
	if *rep.ReconstructedHash != target.CurrentHash || *rep.ReconstructedVersion != target.Version {
		t.Errorf("reconstructed %s@%d, stored %s@%d", *rep.ReconstructedHash, *rep.ReconstructedVersion, target.CurrentHash, target.Version)
	}
	if rep.RowsChecked != 40 || rep.AcceptedRows+rep.RejectedRows != 40 || rep.RejectedRows == 0 {
		t.Errorf("rows %d = %d accepted + %d rejected", rep.RowsChecked, rep.AcceptedRows, rep.RejectedRows)
	}
}

// TestRejectedRowsShape: rejected attempts are logged with after_hash and
// after_version null and no ledger row (the seed's rejected attempt).
func TestRejectedRowsShape(t *testing.T) {
	t.Parallel()
	h := SampleHistory(16)
	ledgerFor := map[int64]int{}
	for _, l := range h.Ledger {
		ledgerFor[l.PDCPLogID]++
	}
	for _, r := range h.Logs {
		if r.Status != StatusRejected {
			continue
		}
		if r.AfterHash != nil || r.AfterVersion != nil || r.FailureReason == nil || ledgerFor[r.PDCPLogID] != 0 {
			t.Errorf("rejected row %d: %+v, %d ledger rows", r.PDCPLogID, r, ledgerFor[r.PDCPLogID])
		}
	}
}

// expected states, by rule, what replay reports for a corruption
// (REPLAY-005, REPLAY-014 to REPLAY-018): the check is the corrupted
// column, except that a changed status shows in failure_reason, a changed
// pdcp_content or snapshot content in its hash, and a changed snapshot
// version in the first log row's before_version; the label is
// replay_hash_mismatch for hashes and derived values, else
// replay_protocol_invalid; a materialized column changes only its check.
func expected(c Corruption, h *History) (*Failure, *StateChecks) {
	f := &Failure{FailureReason: pdspec.ReplayProtocolInvalid, Table: c.Table, RowID: ptr(c.RowID), Check: c.Column}
	hashes := map[string]bool{"before_hash": true, "pdcp_content_hash": true, "content_hash": true, "derived_json": true}
	switch {
	case c.Table == TableTargets:
		switch c.Column {
		case "target_file_id":
			return &Failure{FailureReason: pdspec.ReplayProtocolInvalid, Table: TableSnapshots, RowID: ptr(h.Snapshots[0].SnapshotID), Check: "target_file_id"}, nil
		case "current_content":
			return nil, &StateChecks{false, true, true, true}
		case "current_hash":
			return nil, &StateChecks{true, false, true, true}
		case "version":
			return nil, &StateChecks{true, true, true, false}
		}
	case c.Table == TableSnapshots && c.Column == "snapshot_reason":
		f.RowID = nil
	case c.Table == TableSnapshots && c.Column == "content":
		f.Check = "content_hash"
	case c.Table == TableSnapshots && c.Column == "version":
		f.Table, f.RowID, f.Check = TableLogs, ptr(h.Logs[0].PDCPLogID), "before_version"
	case c.Column == "status":
		f.Check = "failure_reason"
	case c.Table == TableLogs && c.Column == "pdcp_content":
		f.Check = "pdcp_content_hash"
	case c.Table == TableLogs && c.Column == "after_hash" && c.RowStatus == StatusAccepted:
		f.FailureReason = pdspec.ReplayHashMismatch
	}
	if hashes[f.Check] {
		f.FailureReason = pdspec.ReplayHashMismatch
	}
	return f, nil
}

// TestEveryFieldCorruptionNamed: corrupting any single checked field of
// any row is reported with the label and the row the rule states.
func TestEveryFieldCorruptionNamed(t *testing.T) {
	t.Parallel()
	h := SampleHistory(24)
	cs := Corruptions(h)
	if len(cs) < 200 {
		t.Fatalf("%d corruptions", len(cs))
	}
	for _, c := range cs {
		bad := h.Clone()
		c.Apply(bad)
		rep := Verify(bad)
		wantF, wantChecks := expected(c, h)
		name := c.Table + "/" + c.Column
		if wantF == nil {
			if rep.Status != Verified || *rep.MaterializedStateChecks != *wantChecks || *rep.MaterializedStateMatches {
				t.Errorf("%s row %d: %+v %+v, want verified with %+v", name, c.RowID, rep, rep.Failure, *wantChecks)
			}
			continue
		}
		if rep.Status != Failed || rep.Failure == nil {
			t.Errorf("%s row %d (%s): verified, want %s", name, c.RowID, c.RowStatus, wantF.FailureReason)
			continue
		}
		got := *rep.Failure
		got.Message, got.RuntimeFailureReason = "", ""
		if d := cmp.Diff(*wantF, got); d != "" {
			t.Errorf("%s row %d (%s): (-want +got)\n%s\n%s", name, c.RowID, c.RowStatus, d, rep.Failure.Message)
		}
		if rep.MaterializedStateChecks != nil {
			t.Errorf("%s row %d: materialized checks on a failed history", name, c.RowID)
		}
	}
}

// TestRuntimeRejectionLabels: a recorded transaction the runtime now
// rejects is replay_protocol_invalid at PROTOCOL_VALIDATION and
// replay_transaction_invalid otherwise (REPLAY-012), with the runtime's
// label beside it.
func TestRuntimeRejectionLabels(t *testing.T) {
	t.Parallel()
	h := SampleHistory(1) // one accepted tx/1 row under 0.2.2
	for _, tt := range []struct {
		tx      string
		label   pdspec.Reason
		runtime pdspec.Reason
	}{
		{`{"edits":[{"match":"nowhere","replace":"x"}],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"i","target_file_id":"` + SampleTarget + `"}`, pdspec.ReplayTransactionInvalid, pdspec.MatchAbsent},
		{`{"edits":[{"match":"header","replace":"x"}],"expected_target_version":2,"format":"patchdiff-tx/1","intent":"i","target_file_id":"` + SampleTarget + `"}`, pdspec.ReplayTransactionInvalid, pdspec.TargetVersionMismatch},
		{`{"edits":[],"expected_target_version":1,"format":"patchdiff-tx/1","intent":"i","target_file_id":"` + SampleTarget + `"}`, pdspec.ReplayProtocolInvalid, pdspec.ManifestInvalid},
	} {
		bad := h.Clone()
		bad.Logs[0].PDCPContent = tt.tx
		bad.Logs[0].PDCPContentHash = pd.Hash(tt.tx)
		bad.Logs[0].ClientRequestID, bad.Logs[0].Attempt = nil, nil
		rep := Verify(bad)
		if rep.Failure == nil || rep.Failure.FailureReason != tt.label || rep.Failure.RuntimeFailureReason != tt.runtime || rep.Failure.Check != "transaction" {
			t.Errorf("%s: %+v, want %s (%s)", tt.tx, rep.Failure, tt.label, tt.runtime)
		}
	}
}

// TestCRLFStorageVisible: a stored target with CRLF or bare CR has the
// reconstruction's canonical hash but not its raw text (REPLAY-016).
func TestCRLFStorageVisible(t *testing.T) {
	t.Parallel()
	h := SampleHistory(8)
	for _, stored := range []string{"\r\n", "\r"} {
		bad := h.Clone()
		bad.Targets[0].CurrentContent = string(bytes.ReplaceAll([]byte(bad.Targets[0].CurrentContent), []byte("\n"), []byte(stored)))
		rep := Verify(bad)
		want := StateChecks{ContentMatches: false, StoredHashMatches: true, RecomputedHashMatches: true, VersionMatches: true}
		if rep.Status != Verified || *rep.MaterializedStateChecks != want || *rep.MaterializedStateMatches {
			t.Errorf("%q: %+v %+v", stored, rep, rep.MaterializedStateChecks)
		}
	}
}

// TestJSONLRoundTrip: a history written as JSON lines reads back equal,
// and writes back byte for byte.
func TestJSONLRoundTrip(t *testing.T) {
	t.Parallel()
	h := SampleHistory(20)
	data := h.MarshalJSONL()
	back, err := ReadJSONL(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(h, back); d != "" {
		t.Errorf("(-want +got)\n%s", d)
	}
	if !bytes.Equal(back.MarshalJSONL(), data) {
		t.Error("written again, the file differs")
	}
	for _, bad := range []string{`{"x":{}}`, `{"cloud_target_files":{"target_file_id":"a"}}`, `{"cloud_target_files":{},"TargetSnapshots":{}}`, `[]`} {
		if _, err := ReadJSONL(bytes.NewReader([]byte(bad))); err == nil {
			t.Errorf("%s: read without error", bad)
		}
	}
	// A nullable column left out is missing too, not null.
	for line := range bytes.Lines(data) {
		if !bytes.HasPrefix(line, []byte(`{"append_only_pdcp_logs"`)) {
			continue
		}
		cut := bytes.Replace(line, []byte(`"failure_reason":null,`), nil, 1)
		cut = bytes.Replace(cut, []byte(`,"failure_reason":null`), nil, 1)
		if bytes.Equal(cut, line) {
			t.Fatalf("no null failure_reason in %s", line)
		}
		if _, err := ReadJSONL(bytes.NewReader(cut)); err == nil || !strings.Contains(err.Error(), "failure_reason") {
			t.Errorf("a log row without failure_reason: got %v", err)
		}
		break
	}
}
