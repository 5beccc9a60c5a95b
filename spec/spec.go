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
	"encoding/json"
	"slices"
	"sync"
)

//go:generate go run ./internal/gen -in blockpatch-1.1.md -out requirements.json

//go:embed requirements.json
var requirementsJSON []byte

// Requirement is one numbered requirement of the spec.
type Requirement struct {
	ID        string `json:"id"`        // stable identifier, such as "FMT-001"
	Area      string `json:"area"`      // the ID's prefix, such as "FMT"
	Since     string `json:"since"`     // profile that introduced it: "1.0", "1.1" or "1.1.1"
	Statement string `json:"statement"` // one MUST or MUST NOT sentence, in markdown
	// Clarification is true when the requirement records an answer the
	// upstream documents do not give: what upstream's release observably
	// does, or, rarely, a convention of this project.
	Clarification bool `json:"clarification"`
}

type index struct {
	Version      string        `json:"version"`
	Profiles     []string      `json:"profiles"`
	ErrorCodes   []string      `json:"error_codes"`
	Options      []Option      `json:"options"`
	Requirements []Requirement `json:"requirements"`
}

// load decodes the embedded index once. The embedded bytes are checked by
// the package tests, so a decoding failure cannot ship; should it happen
// anyway, the accessors return empty results rather than panic.
var load = sync.OnceValue(func() *index {
	ix := new(index)
	if err := json.Unmarshal(requirementsJSON, ix); err != nil {
		return new(index)
	}
	return ix
})

var byID = sync.OnceValue(func() map[string]Requirement {
	m := make(map[string]Requirement, len(load().Requirements))
	for _, r := range load().Requirements {
		m[r.ID] = r
	}
	return m
})

// Requirements returns every requirement in spec order. The slice is a copy
// the caller may modify.
func Requirements() []Requirement {
	return slices.Clone(load().Requirements)
}

// Lookup returns the requirement with the given ID, such as "MATCH-004".
func Lookup(id string) (Requirement, bool) {
	r, ok := byID()[id]
	return r, ok
}

// InProfile reports whether r belongs to profile, following ProfileTable's
// inheritance: "1.0" holds only the requirements introduced in 1.0, "1.1"
// holds those of 1.0 and 1.1, and "1.1.1" holds them all. It reports false
// for a profile or a Since value that is not a known profile.
func InProfile(r Requirement, profile string) bool { return Includes(profile, r.Since) }

// ErrorCodes lists the spec's error codes in spec order, as given by the
// error-code table of the ERR area in the markdown. The slice is a copy the
// caller may modify.
func ErrorCodes() []string {
	return slices.Clone(load().ErrorCodes)
}
