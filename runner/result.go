package runner

import (
	"encoding/json"
	"time"
)

// Verdict is the outcome of one case.
type Verdict string

// The verdicts. Pass counts as passed; Skip, Unsupported and OutOfProfile
// as skipped; Error means the runner could not run the case; every other
// verdict counts as failed.
const (
	// Pass: every command of the case did what the case expects.
	Pass Verdict = "pass"
	// Fail: a command's exit status, output or resulting tree differs from
	// the case.
	Fail Verdict = "fail"
	// Stray: the tree is right except for files nobody asked for, such as
	// temporary files left behind.
	Stray Verdict = "stray"
	// Escape: something outside the work tree changed: the sentinel files
	// in the sibling folder or the parent folders; or, under isolation
	// that observes it (Isolation.Observed), anything written anywhere
	// outside the case's folder.
	Escape Verdict = "escape"
	// Timeout: a command ran past the timeout and was killed with its
	// process group.
	Timeout Verdict = "timeout"
	// Crash: a command exited with a status other than 0 and 1, or an
	// in-process implementation panicked. Never the rejection a fail case
	// expects.
	Crash Verdict = "crash"
	// Signal: a command was ended by a signal.
	Signal Verdict = "signal"
	// UnexpectedPass: a case on the skip list passed; the list is stale.
	UnexpectedPass Verdict = "unexpected-pass"
	// Skip: a case on the skip list failed, as the list says it does.
	Skip Verdict = "skip"
	// Unsupported: the case needs a level (or a feature such as a
	// handshake operation) the implementation does not claim, and the
	// level is not required.
	Unsupported Verdict = "unsupported"
	// OutOfProfile: the case holds only for a newer profile than the one
	// certified.
	OutOfProfile Verdict = "out-of-profile"
	// Error: the runner itself could not run the case (the implementation
	// could not be started, a temp folder could not be written).
	Error Verdict = "error"
)

// Failed reports whether v counts as a failure.
func (v Verdict) Failed() bool {
	switch v {
	case Fail, Stray, Escape, Timeout, Crash, Signal, UnexpectedPass:
		return true
	}
	return false
}

// Skipped reports whether v counts as skipped.
func (v Verdict) Skipped() bool {
	return v == Skip || v == Unsupported || v == OutOfProfile
}

// Result is what happened to one case.
type Result struct {
	Name   string `json:"name"`
	Source string `json:"source"`
	// Protocol names how the suite ran the case ("standard", "planned",
	// "steps" for blockpatch; "runtime" for PatchDIFF), Expect whether it
	// expects acceptance ("pass") or refusal ("fail").
	Protocol string `json:"protocol"`
	Expect   string `json:"expect,omitempty"`
	// Levels are the levels the case needs (blockpatch's core, planner,
	// cli); a suite without levels leaves them out.
	Levels       []string `json:"levels,omitempty"`
	Since        string   `json:"since"`
	Requirements []string `json:"requirements,omitempty"`
	// Description is the case's one line saying what it checks.
	Description string `json:"description,omitempty"`

	Verdict Verdict `json:"verdict"`
	// Reason is one line saying why, for every verdict but Pass.
	Reason string `json:"reason,omitempty"`
	// SkipReason is the skip list's reason for a listed case.
	SkipReason string `json:"skip_reason,omitempty"`

	// Failure describes the first command that went wrong; for a skipped
	// listed case it is the failure the list expected.
	Failure *Failure `json:"failure,omitempty"`
	// Warnings are deviations the runner accepts but reports, such as
	// error JSON printed on stdout.
	Warnings []string `json:"warnings,omitempty"`

	// Kept is the folder kept for a failed case (Runner.Keep).
	Kept string `json:"kept,omitempty"`
	// Rerun is a command line that runs this case alone again.
	Rerun string `json:"rerun,omitempty"`

	Elapsed Duration `json:"elapsed"`

	// Case is the suite's own case value, for tools that read results
	// (a *cases.Case for blockpatch).
	Case any `json:"-"`
}

// Failure is a command that did not do what a case expects.
type Failure struct {
	// Step names the command in the case's protocol: for blockpatch
	// "check", "apply", "retry", "reverse", "plan", "apply planned patch",
	// "move", or "step N" of a step case; for PatchDIFF "apply".
	Step string `json:"step"`
	// Argv is the full command line run, implementation prefix included;
	// Dir is the folder it ran in.
	Argv []string `json:"argv,omitempty"`
	Dir  string   `json:"dir,omitempty"`
	// Stdin is the command's standard input, shown as text.
	Stdin string `json:"stdin,omitempty"`
	// Exit is the exit status, -1 when the process did not exit by itself.
	Exit int `json:"exit"`
	// Stdout and Stderr are bounded and rendered with visible bytes.
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	// Got is the JSON document the command printed, when it printed one:
	// the whole of it, where Stdout and Stderr are bounded. Calibration
	// tools read expectations off it.
	Got map[string]any `json:"got,omitempty"`
	// Problems lists every difference found, each a paragraph that may
	// hold a go-cmp diff (-want +got).
	Problems []string `json:"problems"`
	// Reproduce is a shell command line that reruns the command by hand.
	Reproduce string `json:"reproduce,omitempty"`
}

// Duration marshals as seconds in JSON.
type Duration time.Duration

// MarshalJSON writes seconds as a number.
func (d Duration) MarshalJSON() ([]byte, error) {
	return json.Marshal(time.Duration(d).Seconds())
}

// UnmarshalJSON reads seconds.
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s float64
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	*d = Duration(s * float64(time.Second))
	return nil
}
