// Package mutants lists deliberately broken variants of the reference
// implementation, each a realistic mistake an implementer could make, and
// measures which conformance cases catch them (the kill matrix).
//
// A mutant is the reference with one fault of package fault switched on,
// or, for the do-nothing mutant, no implementation at all. Faults are
// process-wide, so mutants run one at a time.
package mutants

import "github.com/blockpatch-conformance/blockpatch-conformance/internal/fault"

// Mutant is one broken implementation.
type Mutant struct {
	Name string
	// Fault is switched on while the mutant runs; empty for DoNothing.
	Fault fault.Name
	// Mistake says what an implementer got wrong.
	Mistake string
}

// DoNothing is the mutant that answers every command with {"ok":true} and
// touches nothing: it must not pass a single pass-case.
const DoNothing = "do-nothing"

// All lists every mutant.
var All = []Mutant{
	{DoNothing, "", "prints {\"ok\":true} for every command and changes nothing"},
	{"first-match", fault.FirstMatch, "takes the first occurrence instead of requiring a unique one"},
	{"non-overlapping-count", fault.NonOverlappingCount, "counts occurrences without overlaps, so \"aa\" occurs once in \"aaa\""},
	{"ignore-hash", fault.IgnoreHash, "never checks payload-sha256"},
	{"hash-without-final-newline", fault.HashWithoutFinalNewline, "hashes the payload without its final newline"},
	{"normalise-crlf", fault.NormaliseCRLF, "turns CRLF into LF in patches and files"},
	{"ignore-trailing-whitespace", fault.IgnoreTrailingWhitespace, "matches lines without their trailing blanks"},
	{"ignore-no-newline-marker", fault.IgnoreNoNewlineMarker, "ignores the no-newline marker"},
	{"missing-file-is-empty", fault.MissingFileIsEmpty, "treats a missing file as an empty one"},
	{"accept-absolute-path", fault.AcceptAbsolutePath, "accepts absolute operation paths"},
	{"accept-dotdot", fault.AcceptDotDot, "accepts . and .. path segments"},
	{"accept-backslash", fault.AcceptBackslash, "accepts backslashes in paths"},
	{"follow-symlinks", fault.FollowSymlinks, "follows symlink components instead of refusing them"},
	{"write-in-place", fault.WriteInPlace, "overwrites files in place instead of temp file and rename"},
	{"leave-temp-file", fault.LeaveTempFile, "copies the temp file over the original and leaves it behind"},
	{"fail-on-retry", fault.FailOnRetry, "fails a retry instead of reporting already_applied"},
	{"applied-not-already-applied", fault.AppliedNotAlready, "reports applied where the state was already_applied"},
	{"no-reverse", fault.NoReverse, "ignores -R and applies forward"},
	{"reverse-ignores-after-context", fault.ReverseIgnoresAfter, "anchors a reversed insertion on its before context only"},
	{"ambiguous-source-as-not-found", fault.AmbiguousSourceNotFound, "reports an ambiguous source as source_not_found"},
	{"absent-source-as-ambiguous", fault.AbsentSourceAmbiguous, "reports an absent source as source_ambiguous"},
	{"ambiguous-target-as-not-found", fault.AmbiguousTargetNotFound, "reports an ambiguous target as target_not_found"},
	{"absent-target-as-ambiguous", fault.AbsentTargetAmbiguous, "reports an absent target as target_ambiguous"},
	{"partial-cross-file-write", fault.PartialCrossFileWrite, "writes a cross-file destination before the source is proven"},
	{"source-renamed-first", fault.SourceRenamedFirst, "renames the source before the destination"},
	{"created-file-mode-0600", fault.CreatedFileMode0600, "creates files with mode 0600"},
	{"blank-line-in-hunk", fault.BlankLineInHunk, "accepts a blank line inside a hunk as an empty context line"},
	{"ignore-hunk-counts", fault.IgnoreHunkCounts, "ignores the counts in hunk headers"},
	{"default-strip-0", fault.DefaultStripZero, "strips no path components by default"},
	{"exit-0-on-failure", fault.ExitZeroOnFailure, "exits 0 after printing an error"},
	{"malformed-error-json", fault.MalformedErrorJSON, "prints error JSON that does not parse"},
	{"written-on-dry-run", fault.WrittenOnDryRun, "reports written: true without writing"},
	{"changed-lists-unchanged", fault.ChangedListsUnchanged, "lists every affected path as changed"},
	{"never-truncate", fault.NeverTruncate, "never sets matches_truncated"},
	{"line-ranges-off-by-one", fault.LineRangesOffByOne, "reports line ranges one line too long"},
}
