package pdcases

import (
	"regexp"
	"slices"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Every label a case may name comes from spec/patchdiff (labels.json and
// profiles.json), which restates seed 003; the loader refuses anything else.

// FailureReasons returns the failure_reason values a case may expect: the
// runtime's (STAGE-005), never a service-only or replay-only label
// (STAGE-003, STAGE-004).
func FailureReasons() []string {
	var out []string
	for _, r := range pdspec.LabelSet().RuntimeFailureReasons {
		out = append(out, string(r))
	}
	return out
}

// Stages returns the validation stages the runtime reports (no
// COMMIT_GUARD, STAGE-003).
func Stages() []string {
	var out []string
	for _, s := range pdspec.LabelSet().ValidationStages {
		if s.Runtime {
			out = append(out, string(s.Name))
		}
	}
	return out
}

// WarningCodes returns the advisory warning codes (WARN).
func WarningCodes() []string {
	var out []string
	for _, w := range pdspec.LabelSet().WarningCodes {
		out = append(out, string(w))
	}
	return out
}

// NotEvaluated is the one value of validity.task_correct and
// validity.semantic (STAGE-002).
func NotEvaluated() string { return pdspec.LabelSet().NotEvaluated }

var requirementShape = regexp.MustCompile(`^[A-Z]+-[0-9]{3}$`)

// IsRequirementID reports whether id has the shape of a requirement ID.
func IsRequirementID(id string) bool { return requirementShape.MatchString(id) }

// DefaultKnownRequirement reports whether spec/patchdiff has requirement id.
func DefaultKnownRequirement(id string) bool {
	_, ok := pdspec.Lookup(id)
	return ok
}

func isFailureReason(s string) bool { return slices.Contains(FailureReasons(), s) }

func isStage(s string) bool { return slices.Contains(Stages(), s) }

func isOperation(s string) bool { return slices.Contains(pdspec.LabelSet().Operations, s) }
