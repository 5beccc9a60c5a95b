package runner

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// The folders of one case, under the case's box in the run's temp root:
//
//	<box>/SENTINEL                 must stay untouched
//	<box>/run/                     the folder commands run in (parent of work)
//	<box>/run/SENTINEL             must stay untouched
//	<box>/run/work/                the work tree, --cwd
//	<box>/run/inputs/              the patch and step inputs, outside work
//	<box>/run/outside/             a sibling of work with sentinel files
//
// A case's symlink may point at ../outside/sentinel.txt, which exists.
const (
	runDir      = "run"
	workDir     = "work"
	inputsDir   = "inputs"
	outsideDir  = "outside"
	sentinel    = "SENTINEL"
	plannedFile = "planned.blockpatch"
)

// sentinels are written around the work tree; none may change.
var sentinels = cases.Tree{
	sentinel:                {Data: []byte("the runner's box: nothing may write here\n")},
	runDir + "/" + sentinel: {Data: []byte("the parent of the work tree: nothing may write here\n")},
	runDir + "/" + outsideDir + "/sentinel.txt":    {Data: []byte("a sibling of the work tree\n")},
	runDir + "/" + outsideDir + "/nested/file.txt": {Data: []byte("nested outside the work tree\n"), Mode: 0o600},
}

// caseRun is one case being run.
type caseRun struct {
	r *Runner
	c *cases.Case
	// impl runs the case's commands: the runner's implementation, or its
	// unprivileged form for a case that needs one.
	impl Implementation
	// race is the concurrent writer of the step being run, or nil.
	race *cases.Race
	ctx  context.Context
	desc Description

	box, dir, work, inputs string
	// outside is the box as it must stay: everything but the work tree.
	outside cases.Tree

	warnings []string
	// last is the last invocation, kept for the failure report.
	last *record
}

// record is one invocation and what surrounded it.
type record struct {
	step          string
	inv           Invocation
	out           Outcome
	before, after cases.Tree
	// want is the expected tree, wantJSON the expected JSON (subset or
	// error), when the step has them.
	want     cases.Tree
	wantJSON any
	doc      map[string]any
}

// stepError is a step that went wrong.
type stepError struct {
	verdict  Verdict
	problems []string
	rec      *record
}

func (cr *caseRun) setup() error {
	cr.dir = filepath.Join(cr.box, runDir)
	cr.work = filepath.Join(cr.dir, workDir)
	cr.inputs = filepath.Join(cr.dir, inputsDir)
	if err := sentinels.Write(cr.box); err != nil {
		return err
	}
	for _, d := range []string{cr.work, cr.inputs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	if err := cr.c.Files.Write(cr.work); err != nil {
		return fmt.Errorf("writing the case's files: %w", err)
	}
	if cr.c.Patch != nil {
		if err := os.WriteFile(filepath.Join(cr.inputs, cases.PatchFile), cr.c.Patch, 0o644); err != nil {
			return err
		}
	}
	return cr.saveOutside()
}

// saveOutside records the box as it must stay; the runner calls it after
// each of its own writes outside the work tree.
func (cr *caseRun) saveOutside() error {
	t, err := cr.readOutside()
	cr.outside = t
	return err
}

func (cr *caseRun) readOutside() (cases.Tree, error) {
	return readTreeExcept(cr.box, cr.work)
}

// readTreeExcept reads the tree under dir as cases.ReadTree does, leaving
// out the folder skip and everything in it.
func readTreeExcept(dir, skip string) (cases.Tree, error) {
	t := cases.Tree{}
	err := filepath.WalkDir(dir, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if name == skip {
			return filepath.SkipDir
		}
		if name == dir {
			return nil
		}
		rel, err := filepath.Rel(dir, name)
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		e := cases.Entry{Mode: info.Mode().Perm()}
		switch m := info.Mode(); {
		case m.IsDir():
			e.Dir = true
		case m&fs.ModeSymlink != 0:
			e.Mode = 0
			if e.Symlink, err = os.Readlink(name); err != nil {
				return err
			}
		case m.IsRegular():
			if e.Data, err = os.ReadFile(name); err != nil {
				return err
			}
		default:
			e.Symlink = "(" + m.Type().String() + ")"
		}
		t[filepath.ToSlash(rel)] = e
		return nil
	})
	return t, err
}

// resetWork gives the work folder back its initial files.
func (cr *caseRun) resetWork() error {
	if err := removeAll(cr.work); err != nil {
		return err
	}
	if err := os.MkdirAll(cr.work, 0o755); err != nil {
		return err
	}
	return cr.c.Files.Write(cr.work)
}

// removeAll removes a tree, making folders writable when read-only
// folders stop it.
func removeAll(dir string) error {
	if os.RemoveAll(dir) == nil {
		return nil
	}
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			os.Chmod(p, 0o755)
		}
		return nil
	})
	return os.RemoveAll(dir)
}

// invoke runs one command and judges what no case can accept: a run that
// could not start, a write outside the work tree, a timeout, a signal, a
// crash, output too large to judge.
func (cr *caseRun) invoke(step string, args []string, stdin []byte, dir string) (*record, *stepError) {
	rec := &record{step: step, inv: Invocation{Args: args, Dir: dir, Stdin: stdin}}
	cr.last = rec
	before, err := cases.ReadTree(cr.work)
	if err != nil {
		return rec, &stepError{verdict: Error, problems: []string{"reading the work tree: " + err.Error()}, rec: rec}
	}
	rec.before = before
	ctx, cancel := context.WithTimeout(cr.ctx, cr.r.Timeout)
	if cr.race != nil {
		rec.out = cr.execRacing(ctx, rec)
	} else {
		rec.out = cr.impl.Exec(ctx, rec.inv)
	}
	cancel()
	after, err := cases.ReadTree(cr.work)
	rec.after = after
	if err != nil {
		return rec, &stepError{verdict: Fail, problems: []string{"the work tree cannot be read after the command: " + err.Error()}, rec: rec}
	}
	o := rec.out
	if o.Err != nil {
		return rec, &stepError{verdict: Error, problems: []string{"the implementation could not be run: " + o.Err.Error()}, rec: rec}
	}
	if outside, err := cr.readOutside(); err != nil || !sameTree(cr.outside, outside) {
		msg := "the folders around the work tree cannot be read: "
		if err != nil {
			msg += err.Error()
		} else {
			msg = fmt.Sprintf("files outside the work tree changed: %s; the parent folders and the sibling folder must stay untouched (-before +after):\n%s",
				strings.Join(differences(cr.outside, outside), ", "), treeDiff(cr.outside, outside, true))
		}
		return rec, &stepError{verdict: Escape, problems: []string{msg}, rec: rec}
	}
	switch {
	case o.TimedOut:
		return rec, &stepError{verdict: Timeout, problems: []string{fmt.Sprintf("the command did not finish within %s and was killed with its process group", cr.r.Timeout)}, rec: rec}
	case o.Signal != "":
		v := Signal
		if strings.HasPrefix(o.Signal, "panic:") {
			v = Crash
		}
		return rec, &stepError{verdict: v, problems: []string{"the command was ended by " + o.Signal}, rec: rec}
	case o.Exit != 0 && o.Exit != 1:
		return rec, &stepError{verdict: Crash, problems: []string{fmt.Sprintf("exit status %d: blockpatch exits 0 on success and 1 on any error (CLI-026), so this is a crash, not a rejection", o.Exit)}, rec: rec}
	case o.Truncated:
		return rec, &stepError{verdict: Fail, problems: []string{"the command printed more output than the runner keeps; it cannot be one JSON line"}, rec: rec}
	}
	return rec, nil
}

// finish turns the problems of a step into its verdict.
func (cr *caseRun) finish(rec *record, problems []string, tree treeCheck, otherProblems bool) *stepError {
	problems = append(problems, tree.problems...)
	for _, w := range tree.warnings {
		cr.warn("%s: %s", rec.step, w)
	}
	if len(problems) == 0 {
		return nil
	}
	v := Fail
	if tree.strayOnly && !otherProblems {
		v = Stray
	}
	return &stepError{verdict: v, problems: problems, rec: rec}
}

// expectSuccess runs a command that must succeed and checks its JSON and
// the tree it leaves.
func (cr *caseRun) expectSuccess(step string, args []string, stdin []byte, w successWant) (*record, *stepError) {
	watch, werr := cr.watch(w.writeOrder)
	rec, e := cr.invoke(step, args, stdin, cr.dir)
	var renamed []string
	if watch != nil {
		renamed, werr = watch.stop()
	}
	if e != nil {
		return rec, e
	}
	rec.want, rec.wantJSON = w.after, w.result
	var problems []string
	o := rec.out
	if o.Exit != 0 {
		problems = append(problems, fmt.Sprintf("exit status %d, want 0%s", o.Exit, errorSummary(o)))
	} else if doc, raw, err := oneObject(o.Stdout); err != nil {
		problems = append(problems, fmt.Sprintf("stdout is %s, want one JSON object (OUT-001)", describeErr(err)))
	} else {
		rec.doc = doc
		problems = append(problems, checkSuccessJSON(doc, raw, rec.before, w)...)
		if !oneLine(o.Stdout) {
			cr.warn("%s: the success JSON is not exactly one line ending in \\n (OUT-001)", step)
		}
		if len(bytes.TrimSpace(o.Stderr)) > 0 {
			cr.warn("%s: stderr is not empty on success (OUT-001)", step)
		}
	}
	switch {
	case len(w.writeOrder) == 0:
	case werr != nil:
		cr.warn("%s: write_order not checked: %v", step, werr)
	default:
		problems = append(problems, cr.checkWriteOrder(w.writeOrder, renamed)...)
	}
	var tc treeCheck
	if w.dry {
		tc = compareSame(rec.before, rec.after, "WRITE-002")
	} else {
		tc = compareAfter(w.after, rec.before, rec.after, cr.work, w.absent, cr.r.Profile)
	}
	return rec, cr.finish(rec, problems, tc, len(problems) > 0)
}

// expectError runs a command that must fail with the given code and
// details and leave the tree as it was.
func (cr *caseRun) expectError(step string, args []string, stdin []byte, code string, details *cases.ErrorDetails) *stepError {
	rec, e := cr.invoke(step, args, stdin, cr.dir)
	if e != nil {
		return e
	}
	want := details.Want(code)
	rec.wantJSON = want
	rec.want = rec.before
	var problems []string
	o := rec.out
	if o.Exit == 0 {
		problems = append(problems, fmt.Sprintf("exit status 0, want 1 with error %s", code))
	} else {
		doc, raw, where, err := errorDocument(o)
		switch {
		case err != nil:
			problems = append(problems, fmt.Sprintf("want one JSON error object on stderr (OUT-002), but stderr is %s and stdout is %s", describeOutput(o.Stderr), describeOutput(o.Stdout)))
		default:
			rec.doc = doc
			stream := o.Stderr
			if where == "stdout" {
				stream = o.Stdout
				cr.warn("%s: the error JSON is on stdout; OUT-002 puts it on stderr", step)
			}
			if !oneLine(stream) {
				cr.warn("%s: the error JSON is not exactly one line ending in \\n (OUT-002)", step)
			}
			if d := cases.MatchError(want, raw); d != "" {
				what := "the error JSON differs from the case"
				if got := errorCode(doc); got != code {
					what = fmt.Sprintf("error code %s, want %s", jsonText(got), code)
				}
				problems = append(problems, fmt.Sprintf("%s (-want +got):\n%s", what, d))
			}
			if e, ok := doc["error"].(map[string]any); ok {
				if m, ok := e["message"].(string); !ok || m == "" {
					problems = append(problems, "the error object has no message (OUT-004)")
				}
			}
		}
	}
	tc := compareSame(rec.before, rec.after, "WRITE-001")
	return cr.finish(rec, problems, tc, len(problems) > 0)
}

// outcome runs retry or reverse as the case's Outcome says.
func (cr *caseRun) outcome(step string, o *cases.Outcome, args []string, absent []string) *stepError {
	if o.Expect == cases.Fail {
		return cr.expectError(step, args, nil, o.ErrorCode, o.Error)
	}
	_, e := cr.expectSuccess(step, args, nil, successWant{
		after: o.ExpectedFiles, absent: absent, result: o.Result, strip: effectiveStrip(cr.c, args),
	})
	return e
}

// errorDocument finds the JSON error: on stderr, or else on stdout.
func errorDocument(o Outcome) (map[string]any, []byte, string, error) {
	if doc, raw, err := oneObject(o.Stderr); err == nil {
		return doc, raw, "stderr", nil
	}
	doc, raw, err := oneObject(o.Stdout)
	return doc, raw, "stdout", err
}

// errorCode returns the code of a JSON error, or nil.
func errorCode(doc map[string]any) any {
	if e, ok := doc["error"].(map[string]any); ok {
		return e["code"]
	}
	return nil
}

// errorSummary names the error a command reported, for "want 0" messages.
func errorSummary(o Outcome) string {
	doc, _, _, err := errorDocument(o)
	if err != nil {
		return ""
	}
	if e, ok := doc["error"].(map[string]any); ok {
		return fmt.Sprintf(": it reported %v: %v", e["code"], e["message"])
	}
	return ""
}

func describeErr(err error) string {
	if err.Error() == "no output" {
		return "empty"
	}
	return err.Error()
}

func describeOutput(b []byte) string {
	if len(bytes.TrimSpace(b)) == 0 {
		return "empty"
	}
	if _, _, err := oneObject(b); err == nil {
		return "a JSON object"
	}
	return "not one JSON object"
}

func (cr *caseRun) warn(format string, args ...any) {
	cr.warnings = append(cr.warnings, fmt.Sprintf(format, args...))
}

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
	if err := os.WriteFile(planned, []byte(patch), 0o644); err != nil {
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
			if err := s.Inputs.Write(cr.inputs); err != nil {
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

// matchStepJSON compares a step's JSON as MatchSubset does, and an error
// as MatchError does.
func matchStepJSON(want map[string]any, raw []byte, exit int) string {
	if exit != 0 {
		return cases.MatchError(want, raw)
	}
	return cases.MatchSubset(want, raw)
}

// sameTree reports whether two trees read from disk are identical.
func sameTree(a, b cases.Tree) bool {
	if len(a) != len(b) {
		return false
	}
	for p, e := range a {
		if f, ok := b[p]; !ok || !sameEntry(e, f) || e.Dir != f.Dir {
			return false
		}
	}
	return true
}

// differences names each path that differs between two trees read from
// disk, relative to the box: "run/x (created)".
func differences(before, after cases.Tree) []string {
	var out []string
	for _, p := range after.Paths() {
		b, ok := before[p]
		switch {
		case !ok:
			out = append(out, p+" (created)")
		case !sameEntry(b, after[p]) || b.Dir != after[p].Dir:
			out = append(out, p+" (changed)")
		}
	}
	for _, p := range before.Paths() {
		if _, ok := after[p]; !ok {
			out = append(out, p+" (removed)")
		}
	}
	return out
}

// oneLine reports whether b is one line ending in "\n", as the JSON
// output contract prints it.
func oneLine(b []byte) bool {
	return len(b) > 0 && bytes.IndexByte(b, '\n') == len(b)-1
}

// watch starts recording renames in the folders of the given work-tree
// files; nil when there is nothing to watch.
func (cr *caseRun) watch(files []string) (*renameWatch, error) {
	if len(files) == 0 {
		return nil, nil
	}
	var dirs []string
	for _, f := range files {
		d := filepath.Dir(filepath.Join(cr.work, filepath.FromSlash(f)))
		if !slices.Contains(dirs, d) {
			dirs = append(dirs, d)
		}
	}
	return watchRenames(dirs)
}

// checkWriteOrder compares the renames seen during a command with the
// files it must replace by rename, in order (WRITE-003, WRITE-005).
func (cr *caseRun) checkWriteOrder(order, renamed []string) []string {
	var problems []string
	last, lastFile := -1, ""
	for _, f := range order {
		at := slices.Index(renamed, filepath.Join(cr.work, filepath.FromSlash(f)))
		switch {
		case at < 0:
			problems = append(problems, fmt.Sprintf("%s was not replaced by renaming a new file over it (WRITE-003); renames seen: %q", f, renamed))
		case at < last:
			problems = append(problems, fmt.Sprintf("%s was renamed into place before %s; the destination must be renamed before the source (WRITE-005)", f, lastFile))
		default:
			last, lastFile = at, f
		}
	}
	return problems
}

// execRacing runs a step with a concurrent writer: the command gets the
// hold-before-commit hook, and once it says it has staged its write, the
// runner changes the race's file and lets it go on. The hold folder sits
// beside the case's box, where the final temp-root check allows it.
func (cr *caseRun) execRacing(ctx context.Context, rec *record) Outcome {
	hold := cr.box + "-hold"
	os.RemoveAll(hold)
	if err := os.Mkdir(hold, 0o755); err != nil {
		return Outcome{Exit: -1, Err: err}
	}
	defer os.RemoveAll(hold)
	rec.inv.Env = append(rec.inv.Env, spec.HoldDirEnv+"="+hold)
	done := make(chan Outcome, 1)
	go func() { done <- cr.impl.Exec(ctx, rec.inv) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			return o // finished without holding: the case judges that
		case <-tick.C:
			if _, err := os.Stat(filepath.Join(hold, spec.HoldStaged)); err != nil {
				continue
			}
			full := filepath.Join(cr.work, filepath.FromSlash(cr.race.Path))
			if err := os.WriteFile(full, cr.race.Data, 0o644); err != nil {
				cr.warn("the racing write to %s failed: %v", cr.race.Path, err)
			}
			if err := os.WriteFile(filepath.Join(hold, spec.HoldResume), nil, 0o644); err != nil {
				cr.warn("releasing the held command: %v", err)
			}
			return <-done
		}
	}
}
