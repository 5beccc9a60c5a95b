package blockpatch

import (
	"context"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file runs one case in its box and turns what went wrong into a
// Result.

// runCase runs one case in its own box and returns its result.
func (r *Runner) runCase(ctx context.Context, l loaded, i int, root string, f Features, seed uint64, desc runner.Description, iso *runner.Isolation) *runner.Result {
	c := l.Case
	res := &runner.Result{
		Name: c.Name, Source: l.Source, Protocol: string(c.Protocol), Expect: string(c.Expect), Levels: levelNames(c.Levels),
		Since: c.Since, Requirements: c.Requirements, Description: c.Description, Case: c,
	}
	if r.Rerun != nil {
		res.Rerun = r.Rerun(c.Name, seed)
	}
	if !spec.Includes(r.Profile, c.Since) {
		res.Verdict, res.Reason = runner.OutOfProfile, fmt.Sprintf("the case holds from profile %s; certifying %s", c.Since, r.Profile)
		return res
	}
	if missing := f.missing(c.Levels, r.Require); len(missing) > 0 {
		res.Verdict, res.Reason = runner.Unsupported, fmt.Sprintf("the case needs %s; %s", cases.LevelsText(c.Levels), levelWhy(f, missing))
		return res
	}
	if c.NeedsHold() && !f.Has(cases.HoldFeature) {
		res.Verdict, res.Reason = runner.Unsupported, "the case races a writer against the command, which needs the hold-before-commit hook (WRITE-013); version --json-output does not list it"
		return res
	}
	impl := r.Impl
	if c.Unprivileged {
		var why string
		if impl, why = r.unprivileged(iso); impl == nil {
			res.Verdict, res.Reason = runner.Unsupported, why
			return res
		}
	}
	start := time.Now()
	cr := &caseRun{r: r, c: c, impl: impl, ctx: ctx, desc: desc, iso: iso, box: filepath.Join(root, fmt.Sprintf("%04d-%s", i+1, slug(c.Name)))}
	cr.home = cr.box + "-home"
	var e *stepError
	if err := cr.setup(); err != nil {
		e = &stepError{verdict: runner.Error, problems: []string{"setting up the case: " + err.Error()}}
	} else {
		switch c.Protocol {
		case cases.Planned:
			e = cr.planned()
		case cases.Steps:
			e = cr.steps()
		default:
			e = cr.standard()
		}
	}
	res.Elapsed = runner.Duration(time.Since(start))
	res.Warnings = cr.warnings
	res.Verdict = runner.Pass
	if e != nil {
		res.Verdict = e.verdict
		res.Failure = r.failure(cr, e)
		res.Reason = res.Failure.Step + ": " + firstLine(e.problems)
	}
	r.SkipList.Apply(res)
	if r.Keep && res.Verdict.Failed() && res.Verdict != runner.UnexpectedPass {
		if err := cr.keep(res); err == nil {
			res.Kept = cr.box
		} else {
			res.Warnings = append(res.Warnings, "keeping the case folder: "+err.Error())
		}
	}
	if cr.root != nil {
		cr.root.Close()
	}
	if res.Kept == "" {
		runner.RemoveAll(cr.box)
	}
	runner.RemoveAll(cr.home)
	return res
}

// levelWhy says why each level of missing is not claimed.
func levelWhy(f Features, missing []cases.Level) string {
	var out []string
	for _, l := range missing {
		out = append(out, fmt.Sprintf("%s %s", l, f.How[l]))
	}
	return strings.Join(out, "; ")
}

func levelNames(ls []cases.Level) []string {
	out := make([]string, len(ls))
	for i, l := range ls {
		out[i] = string(l)
	}
	return out
}

func firstLine(problems []string) string {
	if len(problems) == 0 {
		return ""
	}
	l, _, _ := strings.Cut(problems[0], "\n")
	for _, suffix := range []string{" (-want +got):", " (-before +after):"} {
		l = strings.TrimSuffix(l, suffix)
	}
	return l
}

// failure describes a failed step for the report.
func (r *Runner) failure(cr *caseRun, e *stepError) *runner.Failure {
	f := &runner.Failure{Problems: e.problems, Exit: -1}
	rec := e.rec
	if rec == nil {
		f.Step = "setup"
		return f
	}
	f.Step = rec.step
	d := cr.desc
	f.Argv = append(slices.Clone(d.Argv), rec.inv.Args...)
	f.Dir = rec.inv.Dir
	if len(rec.inv.Stdin) > 0 {
		f.Stdin = runner.Bounded(rec.inv.Stdin, outputShown)
	}
	f.Exit = rec.out.Exit
	f.Stdout = runner.Bounded(rec.out.Stdout, outputShown)
	f.Stderr = runner.Bounded(rec.out.Stderr, outputShown)
	f.Got = rec.doc
	return f
}

// outputShown is how many bytes of each output a report shows.
const outputShown = 2048
