package embedded

import (
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
	refpd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
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
	}
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
		Serve: func(line []byte) []byte { return pdrunner.Respond(line, hello, ApplyPatchDIFF) },
	}
}
