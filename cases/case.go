package cases

import (
	"encoding/json"
	"maps"
	"regexp"
	"slices"
)

// Expect is the expected outcome of a case or of one command of its protocol.
type Expect string

// The two outcomes a case can expect.
const (
	Pass Expect = "pass"
	Fail Expect = "fail"
)

// DefaultSince is the version assumed when a case does not name one:
// upstream's conformance cases already shipped with 1.0.0.
const DefaultSince = "1.0"

// Protocol is how a runner drives an implementation through a case. It
// follows from the case's content: steps make a Steps case, a request a
// Planned case, anything else a Standard case.
type Protocol string

// The protocols; README.md spells out the commands of each.
const (
	// Standard is upstream's protocol: check, apply, retry and reverse of
	// the case's patch, or check and apply failing for a fail case.
	Standard Protocol = "standard"
	// Planned runs plan on the case's request, applies the planned patch,
	// and runs move on a fresh tree.
	Planned Protocol = "planned"
	// Steps runs the case's own command lines in order.
	Steps Protocol = "steps"
)

// PatchFile is the name of the case's patch inside the inputs folder, the
// folder outside the work tree that holds what a case feeds to commands.
const PatchFile = "patch.blockpatch"

// Case is one loaded, validated case. Absent optional fields are nil (or the
// zero value where README.md names no default).
type Case struct {
	// Name is the case's folder relative to the loader's root, with slashes:
	// "paths/symlink-component".
	Name string
	// Upstream is true when the case uses no extension at all: only
	// upstream's fields, with string content.
	Upstream bool

	Description  string
	Requirements []string
	// Since is the oldest blockpatch version the case holds for, one of
	// spec.Profiles; DefaultSince when the case does not say.
	Since string
	// Levels are the levels the case needs, in the order of Levels: those
	// its command lines need (CommandLevels) and those it states.
	Levels   []Level
	Protocol Protocol

	// Expect, ErrorCode, Error and Result are the expectation of a
	// Standard or Planned case; Steps cases carry theirs per step.
	Expect    Expect
	ErrorCode string
	Error     *ErrorDetails
	// Result is the expected subset of the success JSON of apply (Standard)
	// or move (Planned), for MatchSubset.
	Result map[string]any

	// Patch is the case's patch, non-nil when given (it may be empty).
	Patch []byte
	// Files is the work tree before the first command; never nil.
	Files Tree
	// ExpectedFiles is the whole work tree after a passing apply or move.
	ExpectedFiles Tree
	// ExpectedAbsent lists paths that must not exist afterwards.
	ExpectedAbsent []string
	// WriteOrder lists files that apply must replace by renaming a new file
	// over them, in this order (a standard pass case only).
	WriteOrder []string

	// Unprivileged says the case needs file permissions to bind the
	// implementation: run as root, the runner drops root's power to
	// override them for the case's commands.
	Unprivileged bool

	// Args are extra arguments for every command of the protocol.
	Args []string
	// Strip is the -pN count passed to check and apply, or nil.
	Strip *int
	// Retry and Reverse are the expectations of the second apply and of
	// apply -R in a passing Standard case; the loader fills in the defaults.
	Retry, Reverse *Outcome

	// Request is the move JSON request of a Planned case, compacted.
	Request json.RawMessage
	// ExpectedPatch is the patch plan must print, or nil.
	ExpectedPatch []byte

	// Steps are the command lines of a Steps case.
	Steps []*Step
}

// ReverseArgs returns the case's Args for the reverse command.
func (c *Case) ReverseArgs() []string { return ReverseArgs(c.Args) }

// Outcome is the expectation of one command of the Standard protocol after
// the first apply: the retry or the reverse.
type Outcome struct {
	Expect    Expect
	ErrorCode string
	Error     *ErrorDetails
	// Result is the expected subset of the success JSON, or nil.
	Result map[string]any
	// ExpectedFiles is the whole tree after the command. For Fail it is the
	// tree before the command, since a failing command changes nothing.
	ExpectedFiles Tree
}

// ErrorDetails are the expected details of a JSON error object, by the
// names of spec.ErrorDetailFields, as encoding/json decodes them: strings,
// numbers as float64, booleans, ranges as {"start", "end"} objects and
// lists of them. Absent details are not compared; Want turns the others
// into a subset for MatchSubset.
type ErrorDetails map[string]any

// Want returns the error object a JSON error must contain: the given code and
// the details, as {"ok": false, "error": {...}}.
func (d *ErrorDetails) Want(code string) map[string]any {
	e := map[string]any{}
	if d != nil {
		maps.Copy(e, *d)
	}
	e["code"] = code
	return map[string]any{"ok": false, "error": e}
}

// Range is a half-open byte range or a 1-based inclusive line range.
type Range struct {
	Start int `json:"start"`
	End   int `json:"end"`
}

// value is r as encoding/json decodes it.
func (r Range) value() map[string]any {
	return map[string]any{"start": float64(r.Start), "end": float64(r.End)}
}

// Step is one command line of a Steps case.
type Step struct {
	Description string
	// Args is the argument list after the program name, with placeholders
	// (see Argv).
	Args []string
	// Dir is the folder the command runs in: "work" (the default) or
	// "inputs".
	Dir string
	// Stdin is the command's standard input; nil means empty input.
	Stdin []byte
	// Inputs are entries written under the inputs folder before the
	// command, next to the case's patch; they stay for later steps.
	Inputs Tree
	// Exit is the expected exit status, 0 or 1.
	Exit int
	// JSON is the expected subset of the one JSON document the command
	// prints: on stdout when Exit is 0, on stderr when it is 1. Nil when not
	// asserted.
	JSON map[string]any
	// Stdout is the exact expected standard output, nil when not asserted.
	Stdout []byte
	// StderrContains must occur in standard error when not empty.
	StderrContains string
	// StdoutMatches, when set, must match somewhere in standard output: for
	// output whose exact text an implementation chooses, such as help.
	StdoutMatches *regexp.Regexp
	// Files is the whole tree after the command; nil when Unchanged is set.
	Files Tree
	// Unchanged means the tree after the command equals the tree before.
	Unchanged bool
	// Race, when set, is a concurrent writer: while the command holds
	// between staging and committing its write (the hook of WRITE-013), the
	// runner writes Race.Data to Race.Path in the work tree.
	Race *Race
}

// Race is a file change made while a command holds before its commit.
type Race struct {
	Path string
	Data []byte
}

// HoldFeature is the feature an implementation lists in
// `version --json-output` to offer the hold-before-commit hook.
const HoldFeature = "hold-before-commit"

// NeedsHold reports whether the case has a step with a Race, which only
// an implementation offering HoldFeature can run.
func (c *Case) NeedsHold() bool {
	return slices.ContainsFunc(c.Steps, func(s *Step) bool { return s.Race != nil })
}

// The step placeholders and folder names of README.md.
const (
	WorkPlaceholder   = "{work}"
	InputsPlaceholder = "{inputs}"
	PatchPlaceholder  = "{patch}"
	DirWork           = "work"
	DirInputs         = "inputs"
)

// Argv returns the step's arguments with the placeholders replaced (see
// ExpandArgs).
func (s *Step) Argv(work, inputs string) []string { return ExpandArgs(s.Args, work, inputs) }
