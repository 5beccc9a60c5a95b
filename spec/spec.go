// Package spec is the requirement index of blockpatch 1.1 and 1.1.1 as this
// project states it.
//
// The normative text is blockpatch-1.1.md in this directory: numbered,
// testable requirements with stable IDs such as FMT-001, grouped by area,
// each tagged with the profile that introduced it ("1.0", "1.1" or
// "1.1.1") and marked when it records a clarification: an answer the
// upstream documents do not give, taken from what upstream's release does. requirements.json is generated from that markdown by
// "go generate ./spec" and embedded here; a test fails when it is stale.
//
// The package is the one home of the spec's data: the error codes
// (ErrorCodes, read from the markdown's table), the profiles and their
// inheritance (ProfileTable), and the facts of the JSON output that other
// packages check or print (ErrorDetailFields, Phases, Statuses, the limits;
// output.go). Cases and implementations cite requirement IDs.
package spec

import (
	_ "embed"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/index"
)

//go:generate go run ./internal/gen -in blockpatch-1.1.md -out requirements.json

//go:embed requirements.json
var requirementsJSON []byte

// Requirement is one numbered requirement of the spec.
type Requirement = index.Requirement

var load = index.Once(requirementsJSON)

// loadHead decodes the index but its requirements, for what every start of
// the reference CLI reads (ErrorCodes, Options).
var loadHead = index.OnceHead(requirementsJSON)

// Requirements returns every requirement in spec order. The slice is a copy
// the caller may modify.
func Requirements() []Requirement {
	return slices.Clone(load().Requirements)
}

// Lookup returns the requirement with the given ID, such as "MATCH-004".
func Lookup(id string) (Requirement, bool) { return load().Lookup(id) }

// InProfile reports whether r belongs to profile, following ProfileTable's
// inheritance: "1.0" holds only the requirements introduced in 1.0, "1.1"
// holds those of 1.0 and 1.1, and "1.1.1" holds them all. It reports false
// for a profile or a Since value that is not a known profile.
func InProfile(r Requirement, profile string) bool { return Includes(profile, r.Since) }

// ErrorCodes lists the spec's error codes in spec order, as given by the
// error-code table of the ERR area in the markdown. The slice is a copy the
// caller may modify.
func ErrorCodes() []string {
	return slices.Clone(loadHead().ErrorCodes)
}
