package reference

// Request is the spec's MoveBlockArgs: the move JSON accepted by plan and
// move. A nil pointer field was absent from the request.
type Request struct {
	Src                   string  `json:"src"`
	SrcStart              *string `json:"src_start,omitempty"`
	SrcEnd                *string `json:"src_end,omitempty"`
	Dst                   *string `json:"dst,omitempty"`
	Payload               *string `json:"payload,omitempty"`
	TargetBefore          *string `json:"target_before,omitempty"`
	TargetAfter           *string `json:"target_after,omitempty"`
	ExpectedPayloadSHA256 *string `json:"expected_payload_sha256,omitempty"`
	Mode                  *string `json:"mode,omitempty"`
	DryRun                *bool   `json:"dry_run,omitempty"`
}

// DecodeRequest decodes move JSON: invalid_json when it is not one JSON
// object, invalid_move_args (with field) when a field has the wrong type or
// is unknown.
func DecodeRequest(data []byte) (*Request, error) {
	return nil, &Error{Code: UnexpectedError, Message: "move requests are not implemented yet"}
}

// PlanRequest evaluates a move request against files: it selects the
// payload, places it, renders the reviewable .blockpatch into
// Result.Patch and self-checks it. Changes hold what move would write.
func PlanRequest(req *Request, files Files) (*Plan, error) {
	return nil, &Error{Code: UnexpectedError, Message: "move requests are not implemented yet"}
}
