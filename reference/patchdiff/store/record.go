package store

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
)

// ScriptTarget is the first line of a recording script: the target to
// upload.
type ScriptTarget struct {
	TargetFileID string `json:"target_file_id"`
	Content      string `json:"content"`
	Version      int64  `json:"version"`
}

// ScriptAttempt is every later line: one submission. Transaction is a JSON
// object (sent as written) or a string holding any text.
type ScriptAttempt struct {
	RuntimeVersion string          `json:"runtime_version"`
	Transaction    json.RawMessage `json:"transaction"`
}

// RecordScript reads a recording script (JSON lines: a ScriptTarget, then
// ScriptAttempts), runs every attempt through the reference runtime with a
// replay.Recorder, and returns the history with how many were accepted.
func RecordScript(r io.Reader) (*replay.History, int, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	var rec *replay.Recorder
	accepted, n := 0, 0
	for sc.Scan() {
		n++
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		dec := json.NewDecoder(bytes.NewReader(line))
		dec.DisallowUnknownFields()
		if rec == nil {
			var t ScriptTarget
			if err := dec.Decode(&t); err != nil || t.TargetFileID == "" {
				return nil, 0, fmt.Errorf("line %d: want the target: {\"target_file_id\":…,\"content\":…,\"version\":…} (%v)", n, err)
			}
			rec = replay.NewRecorder(t.TargetFileID, t.Content, t.Version)
			continue
		}
		var a ScriptAttempt
		if err := dec.Decode(&a); err != nil || a.Transaction == nil {
			return nil, 0, fmt.Errorf("line %d: want an attempt: {\"runtime_version\":…,\"transaction\":…} (%v)", n, err)
		}
		tx := string(a.Transaction)
		if a.Transaction[0] == '"' {
			if err := json.Unmarshal(a.Transaction, &tx); err != nil {
				return nil, 0, fmt.Errorf("line %d: %v", n, err)
			}
		}
		if res := rec.Submit(a.RuntimeVersion, tx); res.Accepted() {
			accepted++
		}
	}
	if err := sc.Err(); err != nil {
		return nil, 0, err
	}
	if rec == nil {
		return nil, 0, errors.New("the script holds no target")
	}
	return rec.History(), accepted, nil
}

// Replay loads the history kept at location and verifies it.
func Replay(ctx context.Context, location string) (replay.Report, error) {
	h, err := Load(ctx, location)
	if err != nil {
		return replay.Report{}, err
	}
	return replay.Verify(h), nil
}
