package replay

import (
	"encoding/json"
	"strings"
	"unicode/utf8"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Recorder builds a History as the service would log it, by running each
// submitted transaction through the reference runtime against the target's
// current state (REPLAY-020): an accepted one updates the target and adds
// its log row and one ledger row per change fact; a rejected one adds a log
// row with after_hash and after_version null and no ledger row, and leaves
// the target as it was. It is for building histories to try the verifier
// on; it takes no lock and keeps no clock.
type Recorder struct {
	h History
}

// NewRecorder starts the history of a target uploaded with content at
// version: its target row and its initial_upload snapshot. The content is
// stored canonical, as the service stores it.
func NewRecorder(targetFileID, content string, version int64) *Recorder {
	canon := pd.Canonicalize(content)
	hash := pd.Hash(canon)
	return &Recorder{h: History{
		Targets: []Target{{TargetFileID: targetFileID, CurrentContent: canon, CurrentHash: hash, Version: version}},
		Snapshots: []Snapshot{{SnapshotID: 1, TargetFileID: targetFileID, SnapshotReason: ReasonInitialUpload,
			Content: canon, ContentHash: hash, Version: version}},
	}}
}

// History returns the history so far; the Recorder keeps appending to it.
func (r *Recorder) History() *History { return &r.h }

// Submit runs one transaction text under runtimeVersion against the
// current target, logs the attempt and returns the runtime's result.
func (r *Recorder) Submit(runtimeVersion, transaction string) pd.Result {
	t := &r.h.Targets[0]
	v := t.Version
	res := pd.Apply(pd.Request{RuntimeVersion: runtimeVersion, Target: t.CurrentContent, TargetVersion: &v, Transaction: transaction, CollectWarnings: true})
	row := LogRow{
		PDCPLogID: int64(len(r.h.Logs) + 1), TargetFileID: t.TargetFileID,
		ProtocolVersion: formatOf(transaction), RuntimeVersion: runtimeVersion,
		BeforeVersion: v, BeforeHash: t.CurrentHash, Status: res.Status,
	}
	lin := readLineage(transaction)
	row.ClientRequestID, row.ParentPDCPLogID, row.Attempt = lin.client, lin.parent, lin.attempt
	if !res.Accepted() {
		row.PDCPContent = storedText(transaction)
		row.PDCPContentHash = canonicalSHA256(row.PDCPContent)
		reason := string(res.Reason())
		row.FailureReason = &reason
		d, _ := json.Marshal(res.Diagnostic)
		ds := string(d)
		row.DiagnosticJSON = &ds
		r.h.Logs = append(r.h.Logs, row)
		return res
	}
	canon, err := CanonicalJSON([]byte(transaction))
	if err != nil {
		// The runtime accepted a text RFC 8785 cannot serialize: log it
		// as the internal fault it is, and change nothing.
		row.Status = pdspec.StatusRejected
		row.PDCPContent = storedText(transaction)
		row.PDCPContentHash = canonicalSHA256(row.PDCPContent)
		reason := string(pdspec.TransactionInternalError)
		row.FailureReason = &reason
		d := `{"message":"no canonical JSON form"}`
		row.DiagnosticJSON = &d
		r.h.Logs = append(r.h.Logs, row)
		return res
	}
	row.PDCPContent = string(canon)
	row.PDCPContentHash = canonicalSHA256(row.PDCPContent)
	after := v + 1
	row.AfterVersion, row.AfterHash = &after, res.AfterHash
	r.h.Logs = append(r.h.Logs, row)
	for _, f := range res.ChangeFacts {
		d, _ := DerivedJSON(f)
		r.h.Ledger = append(r.h.Ledger, LedgerRow{LedgerID: int64(len(r.h.Ledger) + 1), PDCPLogID: row.PDCPLogID,
			TargetFileID: t.TargetFileID, Origin: OriginTyped, DerivedJSON: string(d)})
	}
	t.CurrentContent, t.CurrentHash, t.Version = *res.ResultText, *res.AfterHash, after
	return res
}

// InvalidInputFormat is the seed's envelope of a rejected input that is not
// valid text: stored instead of the text, which no TEXT column may hold.
const InvalidInputFormat = "patchdiff-invalid-input/1"

// storedText is what pdcp_content holds for a rejected attempt: the
// submitted text as it was, or, when it is not valid text (a lone
// surrogate, NUL, bytes that are not UTF-8), the seed's reversible
// ASCII-escaped patchdiff-invalid-input/1 envelope of it (REPLAY-014).
func storedText(text string) string {
	if utf8.ValidString(text) && !strings.ContainsRune(text, 0) {
		return text
	}
	var b strings.Builder
	b.WriteString(`{"format":"` + InvalidInputFormat + `","transaction":"`)
	const hex = "0123456789abcdef"
	for i := 0; i < len(text); i++ {
		c := text[i]
		switch {
		case c == '"' || c == '\\':
			b.WriteByte('\\')
			b.WriteByte(c)
		case c < 0x20 || c >= 0x7f:
			b.WriteString(`\x`)
			b.WriteByte(hex[c>>4])
			b.WriteByte(hex[c&0xF])
		default:
			b.WriteByte(c)
		}
	}
	b.WriteString(`"}`)
	return b.String()
}

// formatOf is the string format member of a transaction text, or "" when
// it has none: the protocol_version a rejected attempt is logged with.
func formatOf(text string) string {
	var v struct {
		Format any `json:"format"`
	}
	if json.Unmarshal([]byte(text), &v) != nil {
		return ""
	}
	s, _ := v.Format.(string)
	return s
}

type lineageColumns struct {
	client, parent *string
	attempt        *int64
}

// readLineage reads the columns a row repeats from its transaction:
// client_request_id, parent_pdcp_log_id and attempt, when they have the
// types the grammar gives them.
func readLineage(text string) lineageColumns {
	var v struct {
		Client  any `json:"client_request_id"`
		Parent  any `json:"parent_pdcp_log_id"`
		Attempt any `json:"attempt"`
	}
	var out lineageColumns
	if json.Unmarshal([]byte(text), &v) != nil {
		return out
	}
	if s, ok := v.Client.(string); ok {
		out.client = &s
	}
	if s, ok := v.Parent.(string); ok {
		out.parent = &s
	}
	if n, ok := v.Attempt.(float64); ok && n == float64(int64(n)) {
		a := int64(n)
		out.attempt = &a
	}
	return out
}
