package blockpatch

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
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
	runDir     = "run"
	workDir    = "work"
	inputsDir  = "inputs"
	outsideDir = "outside"
	sentinel   = "SENTINEL"
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
	impl runner.Implementation
	// race is the concurrent writer of the step being run, or nil.
	race *cases.Race
	ctx  context.Context
	desc runner.Description
	iso  *runner.Isolation

	box, dir, work, inputs string
	// home is the commands' HOME and TMPDIR, beside the box: what they
	// leave there is theirs, removed with the box.
	home string
	// root is the box, opened once it is made: every write of the runner
	// into the box goes through it.
	root *os.Root
	// outside is the box as it must stay: everything but the work tree.
	outside cases.Tree

	warnings []string
	// last is the last invocation, kept for the failure report.
	last *record
}

// The box's folders as slash paths inside its root.
var (
	workRel   = runDir + "/" + workDir
	inputsRel = runDir + "/" + inputsDir
)

// setup makes the case's box and fills it. The box must be new: every
// later write goes through its os.Root, and never through a symlink.
func (cr *caseRun) setup() error {
	cr.dir = filepath.Join(cr.box, runDir)
	cr.work = filepath.Join(cr.dir, workDir)
	cr.inputs = filepath.Join(cr.dir, inputsDir)
	if err := os.Mkdir(cr.box, 0o755); err != nil {
		return fmt.Errorf("making the case's folder (something else made it first?): %w", err)
	}
	if err := os.Mkdir(cr.home, 0o700); err != nil {
		return fmt.Errorf("making the commands' home folder: %w", err)
	}
	root, err := os.OpenRoot(cr.box)
	if err != nil {
		return err
	}
	cr.root = root
	if err := sentinels.WriteIn(root, "."); err != nil {
		return err
	}
	for _, d := range []string{workRel, inputsRel} {
		if err := nofollow.MkdirAll(root, d, 0o755); err != nil {
			return err
		}
	}
	if err := cr.c.Files.WriteIn(root, workRel); err != nil {
		return fmt.Errorf("writing the case's files: %w", err)
	}
	if cr.c.Patch != nil {
		if err := nofollow.WriteFile(root, inputsRel+"/"+cases.PatchFile, cr.c.Patch, 0o644); err != nil {
			return err
		}
	}
	return cr.saveOutside()
}

// saveOutside records the box as it must stay; the runner calls it after
// each of its own writes outside the work tree.
func (cr *caseRun) saveOutside() error {
	t, err := cr.readOutside(time.Time{})
	cr.outside = t
	return err
}

// readOutside reads the box but what the work tree holds: the work folder
// itself, its mode and owner included, is part of what must stay. A read
// after a command stops at the command's deadline (cases.ErrDeadline).
func (cr *caseRun) readOutside(deadline time.Time) (cases.Tree, error) {
	t, unread, err := cases.ReadTreeIn(cr.root, ".", readLimits(deadline), workRel)
	if err != nil {
		return nil, err
	}
	for p, what := range unread {
		t[p] = cases.Entry{Symlink: "(" + what + ")"}
	}
	for _, p := range []string{".", runDir, workRel} {
		info, err := cr.root.Lstat(p)
		if err != nil {
			return nil, err
		}
		e := t[p]
		e.Dir = info.IsDir()
		e.Mode = info.Mode().Perm()
		e.Symlink = runner.Owner(info)
		t[p] = e
	}
	return t, nil
}

// readLimits are the certifier's limits of a tree read, with the deadline
// of the command whose tree it reads (zero for the runner's own trees).
func readLimits(deadline time.Time) cases.ReadLimits {
	lim := cases.DefaultReadLimits
	lim.Deadline = deadline
	return lim
}

// readWork reads the work tree; a file it cannot read is an error, and so
// is a read past deadline when it is set.
func (cr *caseRun) readWork(deadline time.Time) (cases.Tree, error) {
	t, unread, err := cases.ReadTreeIn(cr.root, workRel, readLimits(deadline), "")
	if err != nil {
		return nil, err
	}
	if len(unread) > 0 {
		var parts []string
		for _, p := range slices.Sorted(maps.Keys(unread)) {
			parts = append(parts, p+" is "+unread[p])
		}
		return nil, fmt.Errorf("%s: the runner does not read it", strings.Join(parts, "; "))
	}
	return t, nil
}

// resetWork gives the work folder back its initial files.
func (cr *caseRun) resetWork() error {
	if err := runner.RemoveAllIn(cr.root, workRel); err != nil {
		return err
	}
	return cr.c.Files.WriteIn(cr.root, workRel)
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

var boxName = regexp.MustCompile(`^[0-9]{4,}-`)

func isBoxName(name string) bool { return boxName.MatchString(name) }

// slug turns a case name into a folder name.
func slug(name string) string {
	s := strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_', r == '.':
			return r
		}
		return '_'
	}, name)
	if len(s) > 60 {
		s = s[:60]
	}
	return s
}
