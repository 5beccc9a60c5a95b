package reference

import (
	"errors"
	"fmt"
	"strconv"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// Code is a spec error code: the value callers branch on. The set is the
// spec's (spec.ErrorCodes); errors_test.go keeps the constants in step.
type Code string

// The error codes of blockpatch 1.1.
const (
	ParseError              Code = "parse_error"
	InvalidPath             Code = "invalid_path"
	PathOutsideCwd          Code = "path_outside_cwd"
	SymlinkPath             Code = "symlink_path"
	FileNotFound            Code = "file_not_found"
	NotRegularFile          Code = "not_regular_file"
	PermissionDenied        Code = "permission_denied"
	IOError                 Code = "io_error"
	SourceNotFound          Code = "source_not_found"
	SourceAmbiguous         Code = "source_ambiguous"
	TargetNotFound          Code = "target_not_found"
	TargetAmbiguous         Code = "target_ambiguous"
	DestinationExists       Code = "destination_exists"
	ConcurrentModification  Code = "concurrent_modification"
	PartialAppliedDuplicate Code = "partial_applied_duplicate"
	PayloadMismatch         Code = "payload_mismatch"
	HashMismatch            Code = "hash_mismatch"
	InvalidUTF8             Code = "invalid_utf8"
	TargetOverlapsSource    Code = "target_overlaps_source"
	InvalidMoveArgs         Code = "invalid_move_args"
	InvalidJSON             Code = "invalid_json"
	MissingMoveArgs         Code = "missing_move_args"
	UnknownCommand          Code = "unknown_command"
	UnknownOption           Code = "unknown_option"
	InvalidOption           Code = "invalid_option"
	MissingOptionValue      Code = "missing_option_value"
	TooManyArgs             Code = "too_many_args"
	UnexpectedError         Code = "unexpected_error"
)

// Codes lists every error code in the order the spec gives them. It is a
// function, not a variable, so that a run of the CLI does not decode the
// spec's index at start.
func Codes() []Code {
	var out []Code
	for _, c := range spec.ErrorCodes() {
		out = append(out, Code(c))
	}
	return out
}

// Range is a half-open byte range [Start, End), or a 1-based inclusive line
// range when it appears in LineRanges.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// Error is the one error type of the reference. Its fields are the details of
// the spec's JSON error object; zero values are omitted from JSON.
type Error struct {
	Code             Code    `json:"code"`
	Message          string  `json:"message"`
	Field            string  `json:"field,omitempty"`
	Path             string  `json:"path,omitempty"`
	Phase            string  `json:"phase,omitempty"`
	Anchor           string  `json:"anchor,omitempty"`
	Matches          *int    `json:"matches,omitempty"` // nil when nothing was counted
	MatchesTruncated bool    `json:"matches_truncated,omitempty"`
	Ranges           []Range `json:"ranges,omitempty"`
	LineRanges       []Range `json:"line_ranges,omitempty"`
	SourceRange      *Range  `json:"source_range,omitempty"`
	TargetRange      *Range  `json:"target_range,omitempty"`
	PayloadSHA256    string  `json:"payload_sha256,omitempty"`
	SuggestedAction  string  `json:"suggested_action,omitempty"`

	// Err is the underlying cause, such as an *fs.PathError.
	Err error `json:"-"`
}

// counted is an Error's Matches: a search that found nothing reports
// "matches": 0.
func counted(n int) *int { return &n }

func (e *Error) Error() string { return e.Message }

// Unwrap returns the underlying cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// Is reports whether target is an *Error with the same code, so that callers
// write errors.Is(err, &Error{Code: SourceAmbiguous}).
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// errorf builds an *Error with a formatted message.
func errorf(code Code, format string, args ...any) *Error {
	return &Error{Code: code, Message: fmt.Sprintf(format, args...)}
}

// CodeOf returns the spec code carried by err, or UnexpectedError for errors
// that did not come from the reference.
func CodeOf(err error) Code {
	var e *Error
	if errors.As(err, &e) {
		return e.Code
	}
	return UnexpectedError
}

// quotedLineLimit is how many bytes of an input line an error message
// quotes, so a message about a huge line stays small.
const quotedLineLimit = 200

// quoteLine quotes an input line for an error message, cut after
// quotedLineLimit bytes with its full length noted.
func quoteLine(line []byte) string {
	if len(line) <= quotedLineLimit {
		return strconv.Quote(string(line))
	}
	return strconv.Quote(string(line[:quotedLineLimit])) + "... (" + strconv.Itoa(len(line)) + " bytes)"
}
