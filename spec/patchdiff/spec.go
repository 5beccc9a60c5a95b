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
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/index"
)

//go:generate go run ../internal/gen -doc patchdiff -in patchdiff-core.md -out requirements.json

//go:embed requirements.json
var requirementsJSON []byte

// Areas lists the requirement areas in document order.
var Areas = []string{"DECODE", "CANON", "HASH", "FIND", "SELECT", "SEQ", "FACT", "SPAN", "SCOPE", "SOLE", "PROFILE", "EVIDENCE", "WARN", "STAGE", "GUARD", "ADAPTER", "REPLAY", "BATCH"}

// Requirement is one numbered requirement of patchdiff-core.md.
type Requirement = index.Requirement

var load = index.Once(requirementsJSON)

// Requirements returns every requirement in document order, as a copy.
func Requirements() []Requirement { return slices.Clone(load().Requirements) }

// Lookup returns the requirement with the given ID.
func Lookup(id string) (Requirement, bool) { return load().Lookup(id) }
