package blockpatch

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/renames"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file runs one command of a case and gives the verdicts no case can
// accept: a command that cannot start, times out, crashes, floods its
// output or writes outside its work tree; and the race of WRITE-013.

// record is one invocation and what surrounded it.
type record struct {
	step          string
	inv           runner.Invocation
	out           runner.Outcome
	before, after cases.Tree
	// want is the expected tree, wantJSON the expected JSON (subset or
	// error), when the step has them.
	want     cases.Tree
	wantJSON any
	doc      map[string]any
}

// stepError is a step that went wrong.
type stepError struct {
	verdict  runner.Verdict
	problems []string
	rec      *record
}

// invoke runs one command and judges what no case can accept: a run that
// could not start, a write outside the work tree (in the case's folder, or
// anywhere else where the isolation observes it), a timeout, a signal, a
// crash, output too large to judge.
func (cr *caseRun) invoke(step string, args []string, stdin []byte, dir string) (*record, *stepError) {
	rec := &record{step: step, inv: runner.Invocation{Args: args, Dir: dir, Stdin: stdin, Isolation: cr.iso, Writable: []string{cr.box, cr.home}, Home: cr.home}}
	cr.last = rec
	before, err := cr.readWork(time.Time{})
	if err != nil {
		return rec, &stepError{verdict: runner.Error, problems: []string{"reading the work tree: " + err.Error()}, rec: rec}
	}
	rec.before = before
	// The command's --timeout covers the reads of what it left too, so
	// that no tree, however built, holds a case past it.
	deadline := time.Now().Add(cr.r.Timeout)
	ctx, cancel := context.WithDeadline(cr.ctx, deadline)
	if cr.race != nil {
		rec.out = cr.execRacing(ctx, rec)
	} else {
		rec.out = cr.impl.Exec(ctx, rec.inv)
	}
	cancel()
	o := rec.out
	readBy := deadline
	if o.TimedOut || o.Err != nil {
		readBy = time.Time{} // the command had its time: the read limits alone bound the reads
	}
	after, err := cr.readWork(readBy)
	rec.after = after
	if o.Err != nil {
		return rec, &stepError{verdict: runner.Error, problems: []string{"the implementation could not be run: " + o.Err.Error()}, rec: rec}
	}
	if len(o.Outside) > 0 {
		return rec, &stepError{verdict: runner.Escape, problems: []string{fmt.Sprintf("the command wrote outside its case's folder: %s; it may write only in its work tree (the writes went to an overlay, which the runner removed: the host is unchanged)",
			strings.Join(o.Outside, ", "))}, rec: rec}
	}
	if errors.Is(err, cases.ErrDeadline) {
		return rec, readTimeout(cr.r.Timeout, rec)
	}
	if err != nil {
		return rec, &stepError{verdict: runner.Fail, problems: []string{"the work tree cannot be read after the command: " + err.Error()}, rec: rec}
	}
	outside, err := cr.readOutside(readBy)
	if errors.Is(err, cases.ErrDeadline) {
		return rec, readTimeout(cr.r.Timeout, rec)
	}
	if err != nil || !sameTree(cr.outside, outside) {
		msg := "the folders around the work tree cannot be read: "
		if err != nil {
			msg += err.Error()
		} else {
			msg = fmt.Sprintf("files outside the work tree changed: %s; the parent folders and the sibling folder must stay untouched (-before +after):\n%s",
				strings.Join(differences(cr.outside, outside), ", "), treeDiff(cr.outside, outside, true))
		}
		return rec, &stepError{verdict: runner.Escape, problems: []string{msg}, rec: rec}
	}
	if len(o.Leftovers) > 0 {
		return rec, &stepError{verdict: runner.Escape, problems: []string{fmt.Sprintf("the command left processes running in a session of their own, out of its process group; the runner killed them: %s", strings.Join(o.Leftovers, ", "))}, rec: rec}
	}
	switch {
	case o.ForksRefused > 0:
		return rec, &stepError{verdict: runner.Fail, problems: []string{fmt.Sprintf("the command hit the process limit: its pids cgroup refused %d forks (%s)", o.ForksRefused, cr.iso.Limits)}, rec: rec}
	case o.TimedOut:
		return rec, &stepError{verdict: runner.Timeout, problems: []string{fmt.Sprintf("the command did not finish within %s and was killed with its process group", cr.r.Timeout)}, rec: rec}
	case o.Signal != "":
		v := runner.Signal
		if strings.HasPrefix(o.Signal, "panic:") {
			v = runner.Crash
		}
		msg := "the command was ended by " + o.Signal
		if limit := o.LimitHit(); limit != "" {
			msg += ": it passed the " + limit + " (" + cr.iso.Limits.String() + ")"
		}
		return rec, &stepError{verdict: v, problems: []string{msg}, rec: rec}
	case o.Exit != 0 && o.Exit != 1:
		return rec, &stepError{verdict: runner.Crash, problems: []string{fmt.Sprintf("exit status %d: blockpatch exits 0 on success and 1 on any error (CLI-026), so this is a crash, not a rejection", o.Exit)}, rec: rec}
	case o.Truncated:
		return rec, &stepError{verdict: runner.Fail, problems: []string{"the command printed more output than the runner keeps; it cannot be one JSON line"}, rec: rec}
	}
	return rec, nil
}

// readTimeout is the verdict of a command whose run and the read of the
// trees it left took longer than its timeout.
func readTimeout(timeout time.Duration, rec *record) *stepError {
	return &stepError{verdict: runner.Timeout, problems: []string{fmt.Sprintf("the command and the read of the tree it left did not finish within %s (--timeout counts both)", timeout)}, rec: rec}
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
	v := runner.Fail
	if tree.strayOnly && !otherProblems {
		v = runner.Stray
	}
	return &stepError{verdict: v, problems: problems, rec: rec}
}

// errorDocument finds the JSON error: on stderr, or else on stdout.
func errorDocument(o runner.Outcome) (map[string]any, []byte, string, error) {
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
func errorSummary(o runner.Outcome) string {
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

// oneLine reports whether b is one line ending in "\n", as the JSON
// output contract prints it.
func oneLine(b []byte) bool {
	return len(b) > 0 && bytes.IndexByte(b, '\n') == len(b)-1
}

// watch starts recording renames in the folders of the given work-tree
// files; nil when there is nothing to watch.
func (cr *caseRun) watch(files []string) (*renames.Watch, error) {
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
	return renames.Start(dirs)
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
func (cr *caseRun) execRacing(ctx context.Context, rec *record) runner.Outcome {
	hold := cr.box + "-hold"
	if err := os.Mkdir(hold, 0o755); err != nil {
		return runner.Outcome{Exit: -1, Err: err}
	}
	defer os.RemoveAll(hold)
	holdRoot, err := os.OpenRoot(hold)
	if err != nil {
		return runner.Outcome{Exit: -1, Err: err}
	}
	defer holdRoot.Close()
	rec.inv.Env = append(rec.inv.Env, spec.HoldDirEnv+"="+hold)
	rec.inv.Writable = append(rec.inv.Writable, hold)
	done := make(chan runner.Outcome, 1)
	go func() { done <- cr.impl.Exec(ctx, rec.inv) }()
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
	for {
		select {
		case o := <-done:
			return o // finished without holding: the case judges that
		case <-tick.C:
			if _, err := holdRoot.Lstat(spec.HoldStaged); err != nil {
				continue
			}
			// The command may have put a symlink where the raced file
			// was: the write never goes through it.
			if err := nofollow.Overwrite(cr.root, workRel+"/"+cr.race.Path, cr.race.Data, 0o644); err != nil {
				cr.warn("the racing write to %s failed: %v", cr.race.Path, err)
			}
			if err := nofollow.WriteFile(holdRoot, spec.HoldResume, nil, 0o644); err != nil {
				cr.warn("releasing the held command: %v", err)
			}
			return <-done
		}
	}
}
