// Package cases holds the conformance cases of blockpatch 1.1 and the loader
// that reads them.
//
// A case is data: a folder holding one case.json. The loader accepts the
// case.json files of upstream's conformance folder unchanged, with upstream's
// meaning, and a set of extensions of our own: metadata (description,
// requirement IDs, version, level), byte-exact content that a JSON string
// cannot hold (base64, file modes, symlinks, empty directories), expected
// error details and success JSON, command-line steps, and move requests for
// the planner. README.md in this folder is the reference for the format; the
// Go types here follow it field by field.
//
// Cases reach a runner as an fs.FS, so a test can hand the loader an
// fstest.MapFS:
//
//	all, err := cases.Load(cases.Corpus(), ".")   // the embedded corpus
//	up, err := cases.LoadDir("../shared/upstream-1.1.0/conformance/cases")
//
// Loading is strict. Every problem a case can have on its own is a load
// error that names the case and the offending field (a *CaseError): unknown
// fields, unknown error codes and requirement IDs, malformed content, unsafe
// paths, and expectations no implementation could meet. The runner can then
// trust a loaded Case and compare outcomes without re-checking its shape.
//
// MatchSubset compares an expected JSON subset with an actual JSON document,
// and Tree, ReadTree and DiffTree give the work-tree semantics the format
// describes: what a tree holds, how it is written to disk, and what is
// compared after a command.
package cases
