package blockpatch

import (
	"bytes"
	"fmt"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// This file judges a command against what the case expects of it: a
// success's JSON and tree, an error's code and details.

// expectSuccess runs a command that must succeed and checks its JSON and
// the tree it leaves.
func (cr *caseRun) expectSuccess(step string, args []string, stdin []byte, w successWant) (*record, *stepError) {
	watch, werr := cr.watch(w.writeOrder)
	rec, e := cr.invoke(step, args, stdin, cr.dir)
	var renamed []string
	if watch != nil {
		renamed, werr = watch.Stop()
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
					what = fmt.Sprintf("error code %s, want %s", runner.JSONText(got), code)
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

// matchStepJSON compares a step's JSON as MatchSubset does, and an error
// as MatchError does.
func matchStepJSON(want map[string]any, raw []byte, exit int) string {
	if exit != 0 {
		return cases.MatchError(want, raw)
	}
	return cases.MatchSubset(want, raw)
}

// successWant is what a successful check, apply, plan or move must show.
type successWant struct {
	// after is the tree the command leaves, or would leave when dry.
	after  cases.Tree
	absent []string
	// dry commands (check, plan) must not change the tree.
	dry bool
	// result is the case's expected subset of the success JSON, or nil.
	result map[string]any
	// strip is the strip count the JSON must report, -1 when none.
	strip int
	// plan commands must return the rendered patch; wantPatch, when not
	// nil, is the exact patch.
	plan      bool
	wantPatch []byte
	// writeOrder lists files the command must replace by rename, in order.
	writeOrder []string
}

// successMembers are the members every success object holds (OUT-003).
var successMembers = []string{"ok", "changed", "affected", "written", "noop", "status", "moves"}

// checkSuccessJSON compares a success object with what the trees say it
// must report (OUT-003 to OUT-011), then with the case's own result.
func checkSuccessJSON(doc map[string]any, raw []byte, before cases.Tree, w successWant) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	var missing []string
	for _, m := range successMembers {
		if _, ok := doc[m]; !ok {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		add("the success JSON lacks %s (OUT-003)", strings.Join(missing, ", "))
	}
	if ok, _ := doc["ok"].(bool); !ok {
		add("ok is %s, want true", member(doc, "ok"))
	}
	want := changedPaths(before, w.after)
	changed, isList := stringList(doc["changed"])
	if d := duplicate(changed); d != "" {
		add("changed lists %q twice (OUT-005)", d)
	}
	cleanPaths(changed)
	if _, present := doc["changed"]; present && !isList {
		add("changed is %s, want a list of paths", runner.JSONText(doc["changed"]))
	} else if isList {
		// A file that a patch spells two ways may be listed under both
		// spellings (PATH-014): the cleaned paths are compared as a set.
		got := slices.Compact(slices.Sorted(slices.Values(changed)))
		if !slices.Equal(got, want) {
			add("changed lists %s, but the paths whose bytes change are %s (OUT-005)", runner.JSONText(changed), runner.JSONText(want))
		}
	}
	if v, present := doc["written"]; present {
		wantWritten := !w.dry && len(want) > 0
		if b, ok := v.(bool); !ok || b != wantWritten {
			add("written is %s, want %v (OUT-007)", runner.JSONText(v), wantWritten)
		}
	}
	if v, present := doc["noop"]; present {
		if b, ok := v.(bool); !ok || b != (len(want) == 0) {
			add("noop is %s, want %v: noop is true exactly when nothing changes (OUT-008)", runner.JSONText(v), len(want) == 0)
		}
	}
	if v, present := doc["status"]; present {
		s, _ := v.(string)
		switch {
		case len(want) > 0 && s != "applied":
			add("status is %s, want \"applied\" since bytes change (OUT-009)", runner.JSONText(v))
		case len(want) == 0 && s != "noop" && s != "already_applied":
			add("status is %s, want \"noop\" or \"already_applied\" since no bytes change (OUT-009)", runner.JSONText(v))
		}
	}
	if affected, ok := stringList(doc["affected"]); ok {
		cleanPaths(affected)
		for _, p := range changed {
			if !slices.Contains(affected, p) {
				add("changed path %q is missing from affected %s (OUT-006)", p, runner.JSONText(affected))
			}
		}
	}
	if w.strip >= 0 {
		if n, ok := doc["strip_components"].(float64); !ok || int(n) != w.strip {
			add("strip_components is %s, want %d (OUT-010)", member(doc, "strip_components"), w.strip)
		}
	}
	if w.plan {
		p, ok := doc["patch"].(string)
		switch {
		case !ok:
			add("the JSON has no patch member holding the rendered patch (OUT-011)")
		case w.wantPatch != nil && p != string(w.wantPatch):
			add("the rendered patch differs from expected_patch (-want +got):\n%s", runner.LinesDiff(w.wantPatch, []byte(p)))
		}
	}
	if w.result != nil {
		if d := cases.MatchSubset(w.result, raw); d != "" {
			add("the success JSON differs from the case's result (-want +got):\n%s", d)
		}
	}
	return out
}

// duplicate returns a path ps lists twice, spelled alike, or "".
func duplicate(ps []string) string {
	sorted := slices.Sorted(slices.Values(ps))
	for i := 1; i < len(sorted); i++ {
		if sorted[i] == sorted[i-1] {
			return sorted[i]
		}
	}
	return ""
}

// cleanPaths reads dir//f and f/, which a patch may write, as the paths
// they name.
func cleanPaths(ps []string) {
	for i, p := range ps {
		ps[i] = path.Clean(p)
	}
}

func stringList(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// withoutWritten returns the case's apply result for a dry command, which
// reports the same move but writes nothing.
func withoutWritten(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != "written" {
			out[k] = v
		}
	}
	return out
}

// member renders a member of a JSON object for a message.
func member(doc map[string]any, name string) string {
	v, ok := doc[name]
	if !ok {
		return "absent"
	}
	return runner.JSONText(v)
}
