package fuzz

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/renames"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// The steps of the two protocols, as package cases defines them.
const (
	StepCheck   = cases.StepCheck
	StepApply   = cases.StepApply
	StepRetry   = cases.StepRetry
	StepReverse = cases.StepReverse
	StepPlan    = cases.StepPlan
	StepPlanned = cases.StepPlanned
	StepMove    = cases.StepMove
)

// plannedFile is where the planned patch is written in the inputs folder.
const plannedFile = cases.PlannedFile

// Step is one command of a protocol and what it did.
type Step struct {
	Name string
	// Args are the arguments with the placeholders of step cases ({work},
	// {inputs}, {patch}) in place of the run's folders.
	Args  []string
	Stdin []byte
	// Fresh is set when the work tree is reset to the scenario's files
	// before the step.
	Fresh bool

	Exit           int
	Stdout, Stderr []byte
	// Doc is the JSON document the command printed: on stdout after
	// exit 0, on stderr after exit 1; nil when there is none.
	Doc map[string]any
	// Shape names a violation of the output contract (OUT-001, OUT-002),
	// or is empty.
	Shape string
	// Before and After are the work tree around the command.
	Before, After fstree.Tree
	// Renamed lists the files of After that the command renamed a new
	// file onto, in order (WRITE-003, WRITE-005); nil where renames cannot
	// be watched (inotify is Linux's).
	Renamed []string
	// Skipped is set when the step could not run (no planned patch).
	Skipped bool
	// TimedOut is set when the command was stopped at the timeout, not
	// when it ended by itself as the deadline passed.
	TimedOut bool
}

// Code returns the error code of a failed step, or "".
func (s *Step) Code() string {
	if e, ok := s.Doc["error"].(map[string]any); ok {
		c, _ := e["code"].(string)
		return c
	}
	return ""
}

// Summary names the outcome of a step: "exit 0 applied", "exit 1
// source_ambiguous".
func (s *Step) Summary() string {
	switch {
	case s.Skipped:
		return "not run"
	case s.Exit == 0:
		st, _ := s.Doc["status"].(string)
		return strings.TrimSpace("exit 0 " + st)
	case s.Exit == 1:
		return "exit 1 " + s.Code()
	}
	return "exit " + strconv.Itoa(s.Exit)
}

// sandbox is one implementation's folders for one scenario: work is the
// tree, inputs holds the patch and what else commands read.
type sandbox struct {
	root, work, inputs string
}

func newSandbox(root string) (*sandbox, error) {
	sb := &sandbox{root: root, work: filepath.Join(root, "work"), inputs: filepath.Join(root, "inputs")}
	return sb, sb.clear()
}

func (sb *sandbox) clear() error {
	if err := runner.RemoveAll(sb.root); err != nil {
		return err
	}
	for _, d := range []string{sb.work, sb.inputs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	return nil
}

func (sb *sandbox) resetWork(sc *gen.Scenario) error {
	if err := runner.RemoveAll(sb.work); err != nil {
		return err
	}
	if err := os.MkdirAll(sb.work, 0o755); err != nil {
		return err
	}
	return fstree.WriteWith(sb.work, sc.Files, sc.Extra)
}

// watch starts watching every folder of the work tree for renames, or
// returns nil where it cannot.
func (sb *sandbox) watch() *renames.Watch {
	var dirs []string
	filepath.WalkDir(sb.work, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			dirs = append(dirs, p)
		}
		return nil
	})
	w, err := renames.Start(dirs)
	if err != nil {
		return nil
	}
	return w
}

// renamedFiles returns the paths renamed onto, below the work tree, that
// are files of after, in order: the files the command replaced by rename.
func (sb *sandbox) renamedFiles(renamed []string, after fstree.Tree) []string {
	var out []string
	for _, p := range renamed {
		rel, err := filepath.Rel(sb.work, p)
		if err != nil {
			continue
		}
		rel = filepath.ToSlash(rel)
		if _, ok := after.Files[rel]; ok && !slices.Contains(out, rel) {
			out = append(out, rel)
		}
	}
	return out
}

// expand replaces the placeholders of args by the sandbox's folders.
func (sb *sandbox) expand(args []string) []string {
	return cases.ExpandArgs(args, sb.work, sb.inputs)
}

// hide replaces the sandbox's folders in output by the placeholders, so
// that two implementations run in different folders print the same bytes.
func (sb *sandbox) hide(b []byte) []byte {
	for _, r := range [][2]string{{sb.inputs, cases.InputsPlaceholder}, {sb.work, cases.WorkPlaceholder}, {sb.root, "{root}"}} {
		b = bytes.ReplaceAll(b, []byte(r[0]), []byte(r[1]))
	}
	return b
}

// plan lists the steps of a scenario's protocol (cases.StandardSteps or
// cases.PlannedSteps). full is false for a failing protocol: check and
// apply, or plan and move, only. The retry of the planned patch is left
// out: 1.1.0 renders minimal context, so its planned patch may apply a
// second time where the reference's refuses, a point the documents leave
// open and the corpus pins only where the two agree.
func plan(sc *gen.Scenario, full bool) []Step {
	proto, args := cases.Standard, sc.Args
	var strip *int
	if sc.Protocol == gen.ProtoRequest {
		proto, args = cases.Planned, nil
	} else if sc.StripFlag {
		strip = &sc.Strip
	}
	var steps []Step
	for _, ps := range proto.Steps(!full) {
		if ps.Name == cases.StepRetryPlanned {
			continue
		}
		st := Step{Name: ps.Name, Args: ps.Args(args, strip), Fresh: ps.Fresh}
		if ps.Input == cases.RequestInput {
			st.Stdin = sc.Request
		}
		deliver(&st, sc)
		steps = append(steps, st)
	}
	return steps
}

// deliver hands the patch to a step the way the scenario says (CLI-001
// to CLI-004): on stdin after "-" or with no path, after -i or --input,
// or as a path relative to the shell's folder (the inputs folder).
func deliver(st *Step, sc *gen.Scenario) {
	i := slices.Index(st.Args, cases.PatchPlaceholder)
	if i < 0 || sc.Deliver == gen.DeliverPath {
		return
	}
	args := slices.Clone(st.Args)
	switch sc.Deliver {
	case gen.DeliverDash:
		args[i], st.Stdin = "-", sc.Patch
	case gen.DeliverStdin:
		args, st.Stdin = slices.Delete(args, i, i+1), sc.Patch
	case gen.DeliverI:
		args = slices.Insert(args, i, "-i")
	case gen.DeliverInput:
		args = slices.Insert(args, i, "--input")
	case gen.DeliverRelative:
		args[i] = cases.PatchFile
	}
	st.Args = args
}

// run runs the steps on impl in the sandbox and fills in their outcomes.
// The Go error is a harness fault: the implementation could not be run or
// the folders could not be written.
func run(ctx context.Context, impl Impl, sb *sandbox, sc *gen.Scenario, steps []Step, timeout time.Duration) ([]Step, error) {
	if err := sb.clear(); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(sb.inputs, cases.PatchFile), sc.Patch, 0o644); err != nil {
		return nil, err
	}
	out := slices.Clone(steps)
	var planned []byte
	for i := range out {
		s := &out[i]
		if s.Fresh {
			if err := sb.resetWork(sc); err != nil {
				return nil, err
			}
		}
		if s.Name == StepPlanned {
			if planned == nil {
				s.Skipped = true
				continue
			}
			if err := os.WriteFile(filepath.Join(sb.inputs, plannedFile), planned, 0o644); err != nil {
				return nil, err
			}
		}
		var err error
		if s.Before, err = fstree.Read(sb.work); err != nil {
			return nil, err
		}
		var watch *renames.Watch
		if s.Name != StepCheck && s.Name != StepPlan { // the steps that may write
			watch = sb.watch()
		}
		cctx, cancel := context.WithTimeout(ctx, timeout)
		exit, stdout, stderr, err := impl.Exec(cctx, sb.expand(s.Args), sb.inputs, s.Stdin)
		s.TimedOut = exit == -1 && errors.Is(cctx.Err(), context.DeadlineExceeded) && ctx.Err() == nil
		cancel()
		var renamed []string
		if watch != nil {
			renamed, _ = watch.Stop()
		}
		if err != nil {
			return nil, fmt.Errorf("running %q: %w", s.Args, err)
		}
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		s.Exit, s.Stdout, s.Stderr = exit, sb.hide(stdout), sb.hide(stderr)
		s.Doc, s.Shape = document(s.Exit, s.Stdout, s.Stderr)
		if s.After, err = fstree.Read(sb.work); err != nil {
			return nil, err
		}
		s.Renamed = sb.renamedFiles(renamed, s.After)
		if s.Name == StepPlan && s.Exit == 0 {
			if p, ok := s.Doc["patch"].(string); ok {
				planned = []byte(p)
			}
		}
	}
	return out, nil
}

// document finds the one-line JSON document a JSON-output command must
// print and says how the output breaks the contract, if it does.
func document(exit int, stdout, stderr []byte) (map[string]any, string) {
	where, other := stdout, stderr
	name, otherName := "stdout", "stderr"
	if exit != 0 {
		where, other, name, otherName = stderr, stdout, "stderr", "stdout"
	}
	var doc map[string]any
	if err := json.Unmarshal(where, &doc); err != nil {
		if exit != 0 && exit != 1 {
			return nil, "crashed (exit " + strconv.Itoa(exit) + ")"
		}
		return nil, "no JSON object on " + name
	}
	switch {
	case exit != 0 && exit != 1:
		return doc, "exit status " + strconv.Itoa(exit)
	case bytes.Count(where, []byte("\n")) != 1 || !bytes.HasSuffix(where, []byte("\n")):
		return doc, "the JSON on " + name + " is not exactly one line"
	case len(bytes.TrimSpace(other)) != 0:
		return doc, otherName + " is not empty"
	}
	return doc, ""
}
