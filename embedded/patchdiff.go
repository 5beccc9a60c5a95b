package embedded

import (
	"bytes"
	"encoding/json"
	"fmt"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
	refpd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/batch"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// PatchDIFFHello is what the reference PatchDIFF runtime says of itself in
// the adapter protocol's handshake: every profile of spec/patchdiff.
func PatchDIFFHello() pdrunner.Hello {
	return pdrunner.Hello{
		Name:            "reference PatchDIFF runtime (blockpatch-conformance)",
		Version:         cli.Version,
		RuntimeVersions: pdspec.ProfileNames(),
		Operations:      pdrunner.Operations,
	}
}

// PatchDIFFOperations are the reference's answers by operation: a runtime
// call, a replay and an observed batch.
func PatchDIFFOperations() map[string]pdrunner.Apply {
	return map[string]pdrunner.Apply{pdrunner.OperationApply: ApplyPatchDIFF, pdrunner.OperationReplay: ReplayPatchDIFF,
		pdrunner.OperationObservedBatch: ApplyObservedBatch}
}

// ApplyObservedBatch answers one batch request document (BATCH-002) with
// the reference batch's result document. Its error is a request that is
// not a batch request document.
func ApplyObservedBatch(request []byte) ([]byte, error) {
	req, err := batch.DecodeRequest(request)
	if err != nil {
		return nil, err
	}
	return batch.Apply(req).MarshalJSON()
}

// ReplayPatchDIFF answers one replay request, {"history": [row, …]} with
// each row an object of one member named after its table, with the
// reference verifier's report (spec/patchdiff REPLAY). Its error is a
// request that is not such a document.
func ReplayPatchDIFF(request []byte) ([]byte, error) {
	var req struct {
		History []json.RawMessage `json:"history"`
	}
	dec := json.NewDecoder(bytes.NewReader(request))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&req); err != nil {
		return nil, fmt.Errorf("replay request: %v", err)
	}
	h := &replay.History{}
	for i, line := range req.History {
		if err := h.AddLine(line); err != nil {
			return nil, fmt.Errorf("replay request: history[%d]: %v", i, err)
		}
	}
	return replay.Verify(h).MarshalJSON()
}

// ApplyPatchDIFF answers one runtime request document with the reference
// runtime's result document. Its error is a request that is not a request
// document (ADAPTER-002), which the protocol answers as an error message.
func ApplyPatchDIFF(request []byte) ([]byte, error) {
	req, err := refpd.DecodeRequest(request)
	if err != nil {
		return nil, err
	}
	return refpd.Apply(req).MarshalJSON()
}

// PatchDIFF returns the reference PatchDIFF runtime as an applier run in
// the certifier's process, answering the adapter protocol as cmd/patchdiff
// does in its own process.
func PatchDIFF() pdrunner.Applier {
	hello := PatchDIFFHello()
	return pdrunner.InProcess{
		Name:  "embedded reference PatchDIFF runtime " + cli.Version + " (in process)",
		Serve: func(line []byte) []byte { return pdrunner.RespondOps(line, hello, PatchDIFFOperations()) },
	}
}
