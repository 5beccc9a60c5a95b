package cases

import (
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// The steps of the Standard and Planned protocols of README.md, written
// once for every program that runs them: the runner, which judges each step
// against a case, and the differential campaigns of package fuzz, which
// compare two implementations step by step.

// ProtocolStep is one command of a protocol.
type ProtocolStep struct {
	// Name names the step in reports.
	Name string
	// Command is the subcommand run: check, apply, plan or move.
	Command string
	// Input is the file the command reads, as a placeholder path, or
	// RequestInput for the case's move request on stdin.
	Input string
	// Reverse runs the reverse of the case's arguments (ReverseArgs).
	Reverse bool
	// Fresh steps start from the case's files: the work tree is reset
	// before them.
	Fresh bool
	// Failing steps are the ones a fail case runs; each must fail with the
	// case's error and leave the tree alone.
	Failing bool
}

// RequestInput is the Input of a step that reads the move request on
// stdin.
const RequestInput = "-"

// PlannedFile is the name, inside the inputs folder, of the patch the plan
// step printed, which the planned-patch steps apply.
const PlannedFile = "planned.blockpatch"

// The names of the protocols' steps.
const (
	StepCheck        = "check"
	StepApply        = "apply"
	StepRetry        = "retry"
	StepReverse      = "reverse"
	StepPlan         = "plan"
	StepPlanned      = "apply planned patch"
	StepRetryPlanned = "retry planned patch"
	StepMove         = "move"
)

// StandardSteps is upstream's protocol: check, apply, retry and reverse.
var StandardSteps = []ProtocolStep{
	{Name: StepCheck, Command: "check", Input: PatchPlaceholder, Fresh: true, Failing: true},
	{Name: StepApply, Command: "apply", Input: PatchPlaceholder, Failing: true},
	{Name: StepRetry, Command: "apply", Input: PatchPlaceholder},
	{Name: StepReverse, Command: "apply", Input: PatchPlaceholder, Reverse: true},
}

// PlannedSteps is the planner's protocol: plan, apply of the planned patch
// and its retry (PLAN-037), and move on a fresh tree.
var PlannedSteps = []ProtocolStep{
	{Name: StepPlan, Command: "plan", Input: RequestInput, Fresh: true, Failing: true},
	{Name: StepPlanned, Command: "apply", Input: InputsPlaceholder + "/" + PlannedFile},
	{Name: StepRetryPlanned, Command: "apply", Input: InputsPlaceholder + "/" + PlannedFile},
	{Name: StepMove, Command: "move", Input: RequestInput, Fresh: true, Failing: true},
}

// Steps returns the steps of the Standard or Planned protocol a case runs:
// all of them, or only the Failing ones for a fail case.
func (p Protocol) Steps(failing bool) []ProtocolStep {
	all := StandardSteps
	if p == Planned {
		all = PlannedSteps
	}
	if !failing {
		return all
	}
	return slices.DeleteFunc(slices.Clone(all), func(s ProtocolStep) bool { return !s.Failing })
}

// Args returns the step's command line with the case's arguments and,
// when strip is not nil, its -p option, with the placeholders of step
// cases standing for the run's folders (see ExpandArgs). Every command but
// plan, whose JSON is its output, asks for JSON output.
func (s ProtocolStep) Args(args []string, strip *int) []string {
	out := []string{s.Command}
	if s.Input == RequestInput {
		out = append(out, "--json", RequestInput)
	} else {
		out = append(out, s.Input)
	}
	if s.Reverse {
		args = ReverseArgs(args)
	}
	out = append(out, args...)
	if strip != nil {
		out = append(out, "-p"+strconv.Itoa(*strip))
	}
	out = append(out, "--cwd", WorkPlaceholder)
	if s.Command != "plan" {
		out = append(out, "--json-output")
	}
	return out
}

// ReverseArgs returns args for the reverse command: with -R added, or
// removed when args reverse already.
func ReverseArgs(args []string) []string {
	if slices.ContainsFunc(args, isReverseFlag) {
		return slices.DeleteFunc(slices.Clone(args), isReverseFlag)
	}
	return append(slices.Clone(args), "-R")
}

func isReverseFlag(a string) bool { return a == "-R" || a == "--reverse" }

// ExpandArgs replaces the placeholders in args: {work} by work, {inputs}
// by inputs, and {patch} by the case's patch file inside inputs.
func ExpandArgs(args []string, work, inputs string) []string {
	r := placeholders(work, inputs)
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = r.Replace(a)
	}
	return out
}

func placeholders(work, inputs string) *strings.Replacer {
	return strings.NewReplacer(
		WorkPlaceholder, work,
		InputsPlaceholder, inputs,
		PatchPlaceholder, filepath.Join(inputs, PatchFile),
	)
}

// ExpandJSON returns a step's expected JSON with the placeholders of its
// string values replaced as ExpandArgs replaces them, for the few details
// that are absolute paths (OUT-020's exception).
func ExpandJSON(v any, work, inputs string) any {
	r := placeholders(work, inputs)
	var expand func(any) any
	expand = func(v any) any {
		switch x := v.(type) {
		case string:
			return r.Replace(x)
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = expand(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = expand(e)
			}
			return out
		}
		return v
	}
	return expand(v)
}
