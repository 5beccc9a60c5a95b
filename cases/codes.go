package cases

import (
	"regexp"
	"slices"
)

// Codes lists the 28 error codes of blockpatch 1.1 in the order the spec
// gives them. The loader rejects any other error_code unless
// Options.KnownCode says otherwise.
var Codes = []string{
	"parse_error",
	"invalid_path",
	"path_outside_cwd",
	"symlink_path",
	"file_not_found",
	"not_regular_file",
	"permission_denied",
	"io_error",
	"source_not_found",
	"source_ambiguous",
	"target_not_found",
	"target_ambiguous",
	"destination_exists",
	"concurrent_modification",
	"partial_applied_duplicate",
	"payload_mismatch",
	"hash_mismatch",
	"invalid_utf8",
	"target_overlaps_source",
	"invalid_move_args",
	"invalid_json",
	"missing_move_args",
	"unknown_command",
	"unknown_option",
	"invalid_option",
	"missing_option_value",
	"too_many_args",
	"unexpected_error",
}

// IsCode reports whether code is one of Codes.
func IsCode(code string) bool { return slices.Contains(Codes, code) }

// Phases lists the values of an error's phase that 1.1.0 prints (OUT-023).
var Phases = []string{"path", "io", "payload", "source", "target", "render", "write"}

// Statuses lists the values of a success result's status.
var Statuses = []string{"applied", "noop", "already_applied"}

// requirementID is the shape of a requirement ID: upper-case words joined by
// hyphens and a number, as in "MATCH-003".
var requirementID = regexp.MustCompile(`^[A-Z][A-Z0-9]*(-[A-Z][A-Z0-9]*)*-[0-9]{3,}$`)

// IsRequirementID reports whether id has the shape of a requirement ID. It
// does not say whether the spec defines it; Options.KnownRequirement does.
func IsRequirementID(id string) bool { return requirementID.MatchString(id) }

// sha256Hex is a lower-case hex SHA-256, the only form the spec prints.
var sha256Hex = regexp.MustCompile(`^[0-9a-f]{64}$`)

// RangeLimit is how many ranges an ambiguous-match error lists: "up to the
// first 10" (spec.md; decision D3).
const RangeLimit = 10
