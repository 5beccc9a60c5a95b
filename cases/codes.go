package cases

import (
	"regexp"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// Codes lists the spec's error codes in spec order (spec.ErrorCodes). The
// loader rejects any other error_code unless Options.KnownCode says
// otherwise.
var Codes = spec.ErrorCodes()

// IsCode reports whether code is one of Codes.
func IsCode(code string) bool { return slices.Contains(Codes, code) }

// requirementID is the shape of a requirement ID: upper-case words joined by
// hyphens and a number, as in "MATCH-003".
var requirementID = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z][A-Z0-9]*)*-[0-9]{3,}$`)

// IsRequirementID reports whether id has the shape of a requirement ID. It
// does not say whether the spec defines it; Options.KnownRequirement does.
func IsRequirementID(id string) bool { return requirementID.MatchString(id) }

// sha256Hex is a lower-case hex SHA-256, the only form the spec prints.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)
