// Package pdcases is the PatchDIFF case format: the corpus of calls of the
// PatchDIFF core runtime (spec/patchdiff), each with what the runtime must
// answer, its strict loader, and Compare, which a runner uses to judge an
// actual result against a case.
//
// The corpus is embedded (Corpus, LoadCorpus). Cases cite requirement IDs
// of spec/patchdiff and name only labels of its labels.json; the loader
// refuses anything else. README.md describes the format; COVERAGE.md,
// generated, traces the corpus to every requirement and label.
//
// The package depends on spec/patchdiff only, never on an implementation:
// every expectation was written by hand from seed 003 (internal/gen).
package pdcases
