package mutants

import (
	"context"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// Suite is one suite's reference as the mechanical campaign sees it: the
// folders its mutants are made from, the command each mutant is built
// into, the error codes swap-code cycles through, how a mutant binary is
// certified, and where the campaign keeps its files.
type Suite struct {
	// Name selects the suite on the command line: "blockpatch", "patchdiff".
	Name string
	// Title names the reference in the report's heading.
	Title string
	// Dirs are the folders, relative to the module root, whose non-test Go
	// files the mechanical mutants are generated from.
	Dirs []string
	// Package is the command a mutant binary is built from.
	Package string
	// Codes are the error code constants swap-code replaces by the next.
	Codes Codes
	// Certify certifies a mutant binary; it is the suite's runner over
	// its embedded corpus.
	Certify Certifier
	// OpinionPackages are packages (relative to the module root) whose
	// tests judge a survivor after those of its own file (-opinions).
	OpinionPackages []string
	// Results, Report and Verdicts are the campaign's files, relative to
	// the module root (see Options).
	Results, Report, Verdicts string
}

// Codes names a list of error code constants: those of type Type declared
// in File (relative to the module root), in their order, which other
// packages refer to as Qualifier.Name.
type Codes struct {
	File, Type, Qualifier string
}

// Certifier runs one certification of impl over a suite's corpus, with
// the settings adjusted by set (case selection, progress, fail-fast).
type Certifier func(ctx context.Context, impl *runner.Command, set func(*runner.Settings)) (*runner.Report, error)

const testdata = "internal/mutants/testdata/"

// Blockpatch is the blockpatch reference CLI, certified through
// runner.Command by the blockpatch corpus with every feature level
// required, so nothing counts as unsupported.
var Blockpatch = Suite{
	Name: "blockpatch", Title: "the reference",
	Dirs: []string{"reference", "reference/cli"}, Package: "./cmd/blockpatch",
	Codes:   Codes{File: "reference/errors.go", Type: "Code", Qualifier: "reference"},
	Certify: BlockpatchCertifier(newBlockpatchRunner),
	Results: testdata + "mechanical-results.jsonl", Report: testdata + "mechanical-report.md", Verdicts: testdata + "mechanical-verdicts.txt",
}

// PatchDIFF is the reference PatchDIFF runtime, built as cmd/patchdiff and
// certified as a stream adapter by the PatchDIFF corpus at the newest
// profile. swap-code cycles through the failure_reason labels of
// spec/patchdiff.
var PatchDIFF = Suite{
	Name: "patchdiff", Title: "the reference PatchDIFF runtime",
	Dirs: []string{"reference/patchdiff"}, Package: "./cmd/patchdiff",
	Codes:           Codes{File: "spec/patchdiff/labels.go", Type: "Reason", Qualifier: "pdspec"},
	Certify:         PatchDIFFCertifier(newPatchDIFFRunner),
	OpinionPackages: []string{"fuzz/patchdiff"}, // the properties and native targets
	Results:         testdata + "patchdiff-results.jsonl", Report: testdata + "patchdiff-report.md", Verdicts: testdata + "patchdiff-verdicts.txt",
}

// Suites lists the suites by name.
var Suites = []Suite{Blockpatch, PatchDIFF}

// LookupSuite returns the suite called name.
func LookupSuite(name string) (Suite, bool) {
	i := slices.IndexFunc(Suites, func(s Suite) bool { return s.Name == name })
	if i < 0 {
		return Suite{}, false
	}
	return Suites[i], true
}

func newBlockpatchRunner() *blockpatch.Runner {
	r := blockpatch.New(nil)
	r.Seed = 1
	r.Parallel = 1 // mutants run side by side instead
	return r
}

func newPatchDIFFRunner() *pdrunner.Runner {
	r := pdrunner.New(nil)
	r.Seed = 1
	r.Parallel = 1
	return r
}

// BlockpatchCertifier certifies with a fresh runner from newRunner, every
// feature level required.
func BlockpatchCertifier(newRunner func() *blockpatch.Runner) Certifier {
	return func(ctx context.Context, impl *runner.Command, set func(*runner.Settings)) (*runner.Report, error) {
		r := newRunner()
		r.Impl = impl
		r.Require = slices.Clone(cases.Levels)
		set(&r.Settings)
		return r.Run(ctx)
	}
}

// PatchDIFFCertifier certifies the binary as a stream adapter with a
// fresh runner from newRunner.
func PatchDIFFCertifier(newRunner func() *pdrunner.Runner) Certifier {
	return func(ctx context.Context, impl *runner.Command, set func(*runner.Settings)) (*runner.Report, error) {
		r := newRunner()
		r.Applier, r.Isolate = pdrunner.Stream{Cmd: impl}, impl
		set(&r.Settings)
		return r.Run(ctx)
	}
}
