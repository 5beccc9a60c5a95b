package runner

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
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
