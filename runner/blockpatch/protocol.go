package blockpatch

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// This file holds the protocols of cases/README.md: the command lines of
// each protocol's steps and what each step must do.

// stepArgs is a protocol step's command line for this case's folders.
func (cr *caseRun) stepArgs(s cases.ProtocolStep) []string {
	strip := cr.c.Strip
	if s.Input != cases.PatchPlaceholder {
		strip = nil // -p belongs to the case's own patch
	}
	return cases.ExpandArgs(s.Args(cr.c.Args, strip), cr.work, cr.inputs)
}

// standard runs upstream's protocol: check, apply, retry and reverse, or
// check and apply failing.
func (cr *caseRun) standard() *stepError {
	c := cr.c
	strip := effectiveStrip(c, c.Args)
	for _, s := range c.Protocol.Steps(c.Expect == cases.Fail) {
		args := cr.stepArgs(s)
		var e *stepError
		switch {
		case c.Expect == cases.Fail:
			e = cr.expectError(s.Name, args, nil, c.ErrorCode, c.Error)
		case s.Name == cases.StepCheck:
			_, e = cr.expectSuccess(s.Name, args, nil, successWant{
				after: c.ExpectedFiles, dry: true, result: withoutWritten(c.Result), strip: strip,
			})
		case s.Name == cases.StepApply:
			_, e = cr.expectSuccess(s.Name, args, nil, successWant{
				after: c.ExpectedFiles, absent: c.ExpectedAbsent, result: c.Result, strip: strip,
				writeOrder: c.WriteOrder,
			})
		case s.Name == cases.StepRetry:
			e = cr.outcome(s.Name, c.Retry, args, c.ExpectedAbsent)
		case s.Name == cases.StepReverse:
			e = cr.outcome(s.Name, c.Reverse, args, nil)
		}
		if e != nil {
			return e
		}
	}
	return nil
}

// planned runs the planner protocol: plan, apply of the planned patch and
// its retry, and move on a fresh tree; or plan and move failing.
func (cr *caseRun) planned() *stepError {
	c := cr.c
	var planStatus any
	for _, s := range c.Protocol.Steps(c.Expect == cases.Fail) {
		args := cr.stepArgs(s)
		if s.Fresh && s.Name != cases.StepPlan && c.Expect != cases.Fail {
			if err := cr.resetWork(); err != nil {
				return &stepError{verdict: runner.Error, problems: []string{"resetting the work tree: " + err.Error()}}
			}
		}
		var e *stepError
		switch {
		case c.Expect == cases.Fail:
			e = cr.expectError(s.Name, args, c.Request, c.ErrorCode, c.Error)
		case s.Name == cases.StepPlan:
			var rec *record
			rec, e = cr.expectSuccess(s.Name, args, c.Request, successWant{
				after: c.ExpectedFiles, dry: true, result: withoutWritten(c.Result), strip: -1,
				plan: true, wantPatch: c.ExpectedPatch,
			})
			if e != nil {
				return e
			}
			planStatus = rec.doc["status"]
			patch, _ := rec.doc["patch"].(string)
			if err := nofollow.WriteFile(cr.root, inputsRel+"/"+cases.PlannedFile, []byte(patch), 0o644); err != nil {
				return &stepError{verdict: runner.Error, problems: []string{err.Error()}}
			}
			if err := cr.saveOutside(); err != nil {
				return &stepError{verdict: runner.Error, problems: []string{err.Error()}}
			}
		case s.Name == cases.StepPlanned:
			_, e = cr.expectSuccess(s.Name, args, nil, successWant{
				after: c.ExpectedFiles, absent: c.ExpectedAbsent, strip: effectiveStrip(c, c.Args),
			})
		case s.Name == cases.StepRetryPlanned:
			// The planned patch is the retry artifact (PLAN-037): applied
			// again it proves its final state, unless the move changed
			// nothing at all.
			retryStatus := "already_applied"
			if planStatus == "noop" {
				retryStatus = "noop"
			}
			_, e = cr.expectSuccess(s.Name, args, nil, successWant{
				after: c.ExpectedFiles, absent: c.ExpectedAbsent, strip: effectiveStrip(c, c.Args),
				result: map[string]any{"status": retryStatus},
			})
		case s.Name == cases.StepMove:
			_, e = cr.expectSuccess(s.Name, args, c.Request, successWant{
				after: c.ExpectedFiles, absent: c.ExpectedAbsent, result: c.Result, strip: -1,
			})
		}
		if e != nil {
			return e
		}
	}
	return nil
}

// steps runs a step case's command lines as written.
func (cr *caseRun) steps() *stepError {
	for i, s := range cr.c.Steps {
		name := fmt.Sprintf("step %d of %d", i+1, len(cr.c.Steps))
		if s.Description != "" {
			name += " (" + s.Description + ")"
		}
		if len(s.Inputs) > 0 {
			if err := s.Inputs.WriteIn(cr.root, inputsRel); err != nil {
				return &stepError{verdict: runner.Error, problems: []string{"writing the step's inputs: " + err.Error()}}
			}
			if err := cr.saveOutside(); err != nil {
				return &stepError{verdict: runner.Error, problems: []string{err.Error()}}
			}
		}
		dir := cr.work
		if s.Dir == cases.DirInputs {
			dir = cr.inputs
		}
		cr.race = s.Race
		rec, e := cr.invoke(name, s.Argv(cr.work, cr.inputs), s.Stdin, dir)
		cr.race = nil
		if e != nil {
			return e
		}
		rec.wantJSON = s.JSON
		var problems []string
		o := rec.out
		if o.Exit != s.Exit {
			problems = append(problems, fmt.Sprintf("exit status %d, want %d", o.Exit, s.Exit))
		}
		if s.JSON != nil {
			var raw []byte
			var err error
			where := "stdout"
			if o.Exit == 0 {
				rec.doc, raw, err = oneObject(o.Stdout)
			} else {
				rec.doc, raw, where, err = errorDocument(o)
				if err == nil && where == "stdout" {
					cr.warn("%s: the error JSON is on stdout; OUT-002 puts it on stderr", name)
				}
			}
			if err != nil {
				problems = append(problems, fmt.Sprintf("want one JSON object on %s, but it is %s", map[bool]string{true: "stdout", false: "stderr"}[o.Exit == 0], describeErr(err)))
			} else if d := matchStepJSON(cases.ExpandJSON(s.JSON, cr.work, cr.inputs).(map[string]any), raw, o.Exit); d != "" {
				problems = append(problems, fmt.Sprintf("the JSON on %s differs (-want +got):\n%s", where, d))
			}
		}
		if s.Stdout != nil && !bytes.Equal(o.Stdout, s.Stdout) {
			problems = append(problems, "stdout differs (-want +got):\n"+runner.LinesDiff(s.Stdout, o.Stdout))
		}
		if s.StdoutMatches != nil && !s.StdoutMatches.Match(o.Stdout) {
			problems = append(problems, fmt.Sprintf("stdout does not match %q", s.StdoutMatches))
		}
		if s.StderrContains != "" && !strings.Contains(string(o.Stderr), s.StderrContains) {
			problems = append(problems, fmt.Sprintf("stderr does not contain %q", s.StderrContains))
		}
		var tc treeCheck
		if s.Unchanged {
			rec.want = rec.before
			req := "the step says unchanged"
			if s.Exit == 1 {
				req = "WRITE-001"
			}
			tc = compareSame(rec.before, rec.after, req)
		} else {
			rec.want = s.Files
			tc = compareAfter(s.Files, rec.before, rec.after, cr.work, nil, cr.r.Profile)
		}
		if e := cr.finish(rec, problems, tc, len(problems) > 0); e != nil {
			return e
		}
	}
	return nil
}

// effectiveStrip is the strip count a check or apply with these arguments
// uses: the case's strip, a -pN/--strip in args, or the default 1.
func effectiveStrip(c *cases.Case, args []string) int {
	if c.Strip != nil {
		return *c.Strip
	}
	n := 1
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "-p" || a == "--strip":
			if i+1 < len(args) {
				v = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--strip="):
			v = strings.TrimPrefix(a, "--strip=")
		case strings.HasPrefix(a, "-p"):
			v = a[2:]
		default:
			continue
		}
		if _, err := fmt.Sscanf(v, "%d", &n); err != nil {
			return -1
		}
	}
	return n
}
