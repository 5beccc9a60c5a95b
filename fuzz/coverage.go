package fuzz

import (
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// CoverageFile is the generator coverage table, relative to this package.
const CoverageFile = "COVERAGE.md"

// Coverage renders fuzz/COVERAGE.md: for every requirement of the spec,
// the generators and mutators that exercise it and how often a campaign
// (its default options) meets each per 1,000 iterations, then the
// requirements no generator reaches. TestCoverageTableIsCurrent keeps the
// committed file in step; `blockpatch-fuzz coverage` prints it.
func Coverage() string {
	var ids []string
	for _, r := range spec.Requirements() {
		ids = append(ids, r.ID)
	}
	return "# Generator coverage\n\n" +
		"Written by `go run ./cmd/blockpatch-fuzz coverage > fuzz/COVERAGE.md` (or `go test ./fuzz -run TestCoverageTableIsCurrent -update`);\n" +
		"`go test ./fuzz` fails when it is stale. Each generator, knob and mutator of `fuzz/internal/gen` declares the\n" +
		"requirements of spec/blockpatch-1.1.md it exercises (`gen.Areas`); the counts are the iterations, of the first\n" +
		"1,000 of a campaign, whose scenario belongs to it. Requirements the campaign cannot reach (most command-line\n" +
		"forms, races, limits) are listed at the end: the corpus covers them (spec/COVERAGE.md).\n\n" +
		gen.CoverageTable(ids, NewConfig(nil).Options)
}
