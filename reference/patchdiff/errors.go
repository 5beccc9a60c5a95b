package patchdiff

import (
	"fmt"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Error is a rejection before any operation runs: a failure_reason with the
// validation stage that reports it. Decode returns it; Apply turns it into
// a rejected Result. Callers branch on Reason, never on Message:
//
//	errors.Is(err, &patchdiff.Error{Reason: pdspec.ManifestInvalid})
type Error struct {
	Reason pdspec.Reason
	Stage  pdspec.Stage
	// Path names the transaction member at fault in JSONPath form
	// ("$.edits[1].match"); empty when the fault has no member.
	Path string
	// Offset is the byte offset of the fault in the transaction text, or
	// -1 when it has none.
	Offset int
	// Message says what is wrong, for people; it is no part of a
	// requirement.
	Message string
}

func (e *Error) Error() string {
	s := string(e.Reason) + " at " + string(e.Stage)
	if e.Path != "" {
		s += ": " + e.Path
	}
	if e.Message != "" {
		s += ": " + e.Message
	}
	return s
}

// Is reports whether target is an *Error with the same Reason (and the same
// Stage, when target names one).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Reason == e.Reason && (t.Stage == "" || t.Stage == e.Stage)
}

// manifestInvalid is the structural fault of DECODE at path.
func manifestInvalid(path, format string, args ...any) *Error {
	return &Error{Reason: pdspec.ManifestInvalid, Stage: pdspec.ProtocolValidation, Path: path, Offset: -1, Message: fmt.Sprintf(format, args...)}
}
