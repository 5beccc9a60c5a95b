// Package fault switches deliberate implementer mistakes on inside the
// reference implementation, so the conformance corpus can be measured
// against realistic broken implementations (mutants).
//
// It is internal: nothing outside this module can turn a fault on, and the
// reference's public API does not mention it. With no fault active, On is a
// single atomic load.
package fault

import "sync/atomic"

// Name names one mistake.
type Name string

// The mistakes the reference can be told to make.
const (
	BlankLineInHunk          Name = "blank-line-in-hunk"
	IgnoreHunkCounts         Name = "ignore-hunk-counts"
	IgnoreNoNewlineMarker    Name = "ignore-no-newline-marker"
	NormaliseCRLF            Name = "normalise-crlf"
	IgnoreTrailingWhitespace Name = "ignore-trailing-whitespace"
	FirstMatch               Name = "first-match"
	NonOverlappingCount      Name = "non-overlapping-count"
	NeverTruncate            Name = "never-truncate"
	LineRangesOffByOne       Name = "line-ranges-off-by-one"
	IgnoreHash               Name = "ignore-hash"
	HashWithoutFinalNewline  Name = "hash-without-final-newline"
	MissingFileIsEmpty       Name = "missing-file-is-empty"
	AcceptAbsolutePath       Name = "accept-absolute-path"
	AcceptDotDot             Name = "accept-dotdot"
	AcceptBackslash          Name = "accept-backslash"
	FollowSymlinks           Name = "follow-symlinks"
	WriteInPlace             Name = "write-in-place"
	LeaveTempFile            Name = "leave-temp-file"
	CreatedFileMode0600      Name = "created-file-mode-0600"
	PartialCrossFileWrite    Name = "partial-cross-file-write"
	SourceRenamedFirst       Name = "source-renamed-first"
	FailOnRetry              Name = "fail-on-retry"
	AppliedNotAlready        Name = "applied-not-already-applied"
	NoReverse                Name = "no-reverse"
	ReverseIgnoresAfter      Name = "reverse-ignores-after-context"
	AmbiguousSourceNotFound  Name = "ambiguous-source-as-not-found"
	AbsentSourceAmbiguous    Name = "absent-source-as-ambiguous"
	AmbiguousTargetNotFound  Name = "ambiguous-target-as-not-found"
	AbsentTargetAmbiguous    Name = "absent-target-as-ambiguous"
	DefaultStripZero         Name = "default-strip-0"
	ExitZeroOnFailure        Name = "exit-0-on-failure"
	MalformedErrorJSON       Name = "malformed-error-json"
	WrittenOnDryRun          Name = "written-on-dry-run"
	ChangedListsUnchanged    Name = "changed-lists-unchanged"
)

var active atomic.Pointer[Name]

// On reports whether the named mistake is switched on.
func On(n Name) bool {
	p := active.Load()
	return p != nil && *p == n
}

// Activate switches one mistake on for the whole process until the
// returned function is called. Only one mistake is on at a time; callers
// run one mutant at a time.
func Activate(n Name) (restore func()) {
	prev := active.Swap(&n)
	return func() { active.Store(prev) }
}

// Active reports whether any mistake is switched on.
func Active() bool { return active.Load() != nil }
