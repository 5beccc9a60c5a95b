// Package pdspec is the requirement index, the runtime profiles and the
// labels of the PatchDIFF core runtime as this project states them.
//
// The normative text is patchdiff-core.md in this directory: numbered
// requirements with stable IDs such as FIND-003, grouped by area, each
// tagged with the runtime profile that introduced it and marked when it
// records a choice the seed document does not make ("not stated by the
// seed"). requirements.json is generated from that markdown by
// "go generate ./spec/..." and embedded here; a test fails when it is stale.
//
// profiles.json (every profile's settings) and labels.json (failure
// reasons, validation stages, warning codes, diagnostic codes, span checks,
// evidence budgets) are data, embedded and exposed here once: the reference
// runtime, the cases and the runner read them from this package.
package pdspec

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"
)

//go:generate go run ../internal/gen -doc patchdiff -in patchdiff-core.md -out requirements.json

//go:embed requirements.json
var requirementsJSON []byte

// Areas lists the requirement areas in document order.
var Areas = []string{"DECODE", "CANON", "HASH", "FIND", "SELECT", "SEQ", "FACT", "SPAN", "SCOPE", "SOLE", "PROFILE", "EVIDENCE", "WARN", "STAGE", "GUARD", "ADAPTER", "REPLAY"}

// Requirement is one numbered requirement of patchdiff-core.md.
type Requirement struct {
	ID        string `json:"id"`        // stable identifier, such as "FIND-003"
	Area      string `json:"area"`      // the ID's prefix, such as "FIND"
	Since     string `json:"since"`     // profile that introduced it, such as "patchdiff-mvp-0.3.0"
	Statement string `json:"statement"` // one MUST or MUST NOT sentence, in markdown
	// Clarification is true when the requirement records a choice the seed
	// does not make ("not stated by the seed").
	Clarification bool `json:"clarification"`
}

type index struct {
	Version      string        `json:"version"`
	Profiles     []string      `json:"profiles"`
	Requirements []Requirement `json:"requirements"`
}

// load decodes the embedded index once; the tests check the bytes, so a
// failure cannot ship, and the accessors then return empty results.
var load = sync.OnceValue(func() *index {
	ix := new(index)
	if err := json.Unmarshal(requirementsJSON, ix); err != nil {
		return new(index)
	}
	return ix
})

// Requirements returns every requirement in document order, as a copy.
func Requirements() []Requirement { return slices.Clone(load().Requirements) }

// Lookup returns the requirement with the given ID.
func Lookup(id string) (Requirement, bool) {
	i := slices.IndexFunc(load().Requirements, func(r Requirement) bool { return r.ID == id })
	if i < 0 {
		return Requirement{}, false
	}
	return load().Requirements[i], true
}
