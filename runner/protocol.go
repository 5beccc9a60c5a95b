package runner

import (
	"bytes"
	"fmt"
	"path/filepath"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
)

// This file holds the protocols of cases/README.md: the command lines of
// each protocol's steps and what each step must do.

// patchArgs builds a check or apply command line of the Standard protocol.
func (cr *caseRun) patchArgs(command string, args []string) []string {
	out := []string{command, filepath.Join(cr.inputs, cases.PatchFile)}
	out = append(out, args...)
	if cr.c.Strip != nil {
		out = append(out, fmt.Sprintf("-p%d", *cr.c.Strip))
	}
	return append(out, "--cwd", cr.work, "--json-output")
}

// standard runs upstream's protocol: check, apply, retry and reverse, or
// check and apply failing.
func (cr *caseRun) standard() *stepError {
	c := cr.c
	if c.Expect == cases.Fail {
		for _, command := range []string{"check", "apply"} {
			if e := cr.expectError(command, cr.patchArgs(command, c.Args), nil, c.ErrorCode, c.Error); e != nil {
				return e
			}
		}
		return nil
	}
	strip := effectiveStrip(c, c.Args)
	if _, e := cr.expectSuccess("check", cr.patchArgs("check", c.Args), nil, successWant{
		after: c.ExpectedFiles, dry: true, result: withoutWritten(c.Result), strip: strip,
	}); e != nil {
		return e
	}
	if _, e := cr.expectSuccess("apply", cr.patchArgs("apply", c.Args), nil, successWant{
		after: c.ExpectedFiles, absent: c.ExpectedAbsent, result: c.Result, strip: strip,
		writeOrder: c.WriteOrder,
	}); e != nil {
		return e
	}
	if e := cr.outcome("retry", c.Retry, cr.patchArgs("apply", c.Args), c.ExpectedAbsent); e != nil {
		return e
	}
	return cr.outcome("reverse", c.Reverse, cr.patchArgs("apply", c.ReverseArgs()), nil)
}

// planned runs the planner protocol: plan, apply of the planned patch, and
// move on a fresh tree; or plan and move failing.
func (cr *caseRun) planned() *stepError {
	c := cr.c
	planArgs := append(append([]string{"plan", "--json", "-"}, c.Args...), "--cwd", cr.work)
	moveArgs := append(append([]string{"move", "--json", "-"}, c.Args...), "--cwd", cr.work, "--json-output")
	if c.Expect == cases.Fail {
		if e := cr.expectError("plan", planArgs, c.Request, c.ErrorCode, c.Error); e != nil {
			return e
		}
		return cr.expectError("move", moveArgs, c.Request, c.ErrorCode, c.Error)
	}
	rec, e := cr.expectSuccess("plan", planArgs, c.Request, successWant{
		after: c.ExpectedFiles, dry: true, result: withoutWritten(c.Result), strip: -1,
		plan: true, wantPatch: c.ExpectedPatch,
	})
	if e != nil {
		return e
	}
	planned := filepath.Join(cr.inputs, plannedFile)
	patch, _ := rec.doc["patch"].(string)
	if err := nofollow.WriteFile(cr.root, inputsRel+"/"+plannedFile, []byte(patch), 0o644); err != nil {
		return &stepError{verdict: Error, problems: []string{err.Error()}}
	}
	if err := cr.saveOutside(); err != nil {
		return &stepError{verdict: Error, problems: []string{err.Error()}}
	}
	applyArgs := append(append([]string{"apply", planned}, c.Args...), "--cwd", cr.work, "--json-output")
	if _, e := cr.expectSuccess("apply planned patch", applyArgs, nil, successWant{
		after: c.ExpectedFiles, absent: c.ExpectedAbsent, strip: effectiveStrip(c, c.Args),
	}); e != nil {
		return e
	}
	// The planned patch is the retry artifact (PLAN-037): applied again it
	// proves its final state, unless the move changed nothing at all.
	retryStatus := "already_applied"
	if rec.doc["status"] == "noop" {
		retryStatus = "noop"
	}
	if _, e := cr.expectSuccess("retry planned patch", applyArgs, nil, successWant{
		after: c.ExpectedFiles, absent: c.ExpectedAbsent, strip: effectiveStrip(c, c.Args),
		result: map[string]any{"status": retryStatus},
	}); e != nil {
		return e
	}
	if err := cr.resetWork(); err != nil {
		return &stepError{verdict: Error, problems: []string{"resetting the work tree: " + err.Error()}}
	}
	_, e = cr.expectSuccess("move", moveArgs, c.Request, successWant{
		after: c.ExpectedFiles, absent: c.ExpectedAbsent, result: c.Result, strip: -1,
	})
	return e
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
				return &stepError{verdict: Error, problems: []string{"writing the step's inputs: " + err.Error()}}
			}
			if err := cr.saveOutside(); err != nil {
				return &stepError{verdict: Error, problems: []string{err.Error()}}
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
			} else if d := matchStepJSON(s.JSON, raw, o.Exit); d != "" {
				problems = append(problems, fmt.Sprintf("the JSON on %s differs (-want +got):\n%s", where, d))
			}
		}
		if s.Stdout != nil && !bytes.Equal(o.Stdout, s.Stdout) {
			problems = append(problems, "stdout differs (-want +got):\n"+linesDiff(s.Stdout, o.Stdout))
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
