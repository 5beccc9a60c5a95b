package blockpatch

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file compares trees: the work tree after a command against the
// case's expected tree, or against the tree before it when nothing may
// change.

// changedPaths lists the paths whose bytes differ between a tree read from
// disk and the tree expected after a command: created, removed, or with
// other bytes or another symlink target. Folders do not count.
func changedPaths(before, after cases.Tree) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range []cases.Tree{before, after} {
		for p := range t {
			if seen[p] {
				continue
			}
			seen[p] = true
			b, bok := before[p]
			a, aok := after[p]
			bok, aok = bok && !b.Dir, aok && !a.Dir
			switch {
			case !bok && !aok:
			case bok != aok, b.Kind() != a.Kind(), b.Symlink != a.Symlink, string(b.Data) != string(a.Data):
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// treeCheck is the outcome of comparing a tree with an expectation.
type treeCheck struct {
	problems []string
	// strayOnly is set when the only differences are entries nobody
	// expected that did not exist before: files left behind.
	strayOnly bool
	// warnings are differences the documentation allows but that are
	// worth reporting.
	warnings []string
}

// compareAfter compares the tree after a successful command with want:
// the whole tree (DiffTree), expected_absent, and the modes want leaves
// unstated: a file that existed before keeps its mode (WRITE-011) and, from
// profile 1.1, a created file gets 0644 (WRITE-010).
func compareAfter(want, before, got cases.Tree, work string, absent []string, profile string) treeCheck {
	var tc treeCheck
	modes := modeProblems(want, before, got, profile)
	if d := cases.DiffTree(want, got); d != "" {
		extra := strays(want, before, got)
		rest := got.Clone()
		for _, p := range extra {
			delete(rest, p)
		}
		tc.strayOnly = len(extra) > 0 && cases.DiffTree(want, rest) == "" && len(modes) == 0
		msg := "the tree differs from the expected tree (-want +got):\n" + treeDiff(want, got, false)
		if tc.strayOnly {
			msg = fmt.Sprintf("stray files left in the work tree: %s (WRITE-008)\n", strings.Join(quoteAll(extra), ", ")) + msg
		}
		tc.problems = append(tc.problems, msg)
	}
	tc.problems = append(tc.problems, modes...)
	for _, p := range absent {
		if _, err := os.Lstat(filepath.Join(work, filepath.FromSlash(p))); err == nil {
			tc.problems = append(tc.problems, fmt.Sprintf("%q exists, but the case says it must be absent", p))
			tc.strayOnly = false
		}
	}
	return tc
}

// strays lists the files and symlinks of got that want does not expect and
// that were not there before the command.
func strays(want, before, got cases.Tree) []string {
	var out []string
	for _, p := range got.Paths() {
		if got[p].Dir {
			continue
		}
		if _, ok := want[p]; ok {
			continue
		}
		if _, ok := before[p]; ok {
			continue
		}
		out = append(out, p)
	}
	return out
}

func modeProblems(want, before, got cases.Tree, profile string) []string {
	var out []string
	for _, p := range got.Paths() {
		g := got[p]
		w, ok := want[p]
		if !ok || g.Kind() != "file" || w.Kind() != "file" || w.Mode != 0 {
			continue
		}
		if b, ok := before[p]; ok && b.Kind() == "file" {
			if g.Mode != b.Mode {
				out = append(out, fmt.Sprintf("%q: mode %04o, but it was %04o before and a replaced file keeps its mode (WRITE-011)", p, g.Mode, b.Mode))
			}
			continue
		}
		if r, _ := spec.Lookup("WRITE-010"); spec.Includes(profile, r.Since) && g.Mode != cases.DefaultFileMode {
			out = append(out, fmt.Sprintf("%q: created with mode %04o, want %04o (WRITE-010)", p, g.Mode, cases.DefaultFileMode))
		}
	}
	return out
}

// compareSame checks that a command left the tree exactly as it was:
// every file, symlink and folder, with bytes and modes.
func compareSame(before, after cases.Tree, req string) treeCheck {
	var tc treeCheck
	var extraFiles, extraDirs int
	same := true
	for _, p := range after.Paths() {
		a := after[p]
		b, ok := before[p]
		switch {
		case !ok && a.Dir:
			extraDirs++
		case !ok:
			extraFiles++
		case !sameEntry(a, b):
			same = false
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			same = false
		}
	}
	if same && extraFiles == 0 && extraDirs == 0 {
		return tc
	}
	if same && extraFiles == 0 {
		// 1.1.0 leaves the folders it made for a failed creation; the
		// documentation promises only that files are not modified.
		tc.warnings = append(tc.warnings, fmt.Sprintf("empty folders were created and left behind: %s", strings.Join(quoteAll(newDirs(before, after)), ", ")))
		return tc
	}
	tc.strayOnly = same && extraFiles > 0
	msg := fmt.Sprintf("the tree changed, but this command must leave it as it was (%s) (-before +after):\n%s", req, treeDiff(before, after, true))
	if tc.strayOnly {
		msg = fmt.Sprintf("stray files left in the work tree: %s (WRITE-008)\n", strings.Join(quoteAll(strays(nil, before, after)), ", ")) + msg
	}
	tc.problems = append(tc.problems, msg)
	return tc
}

func newDirs(before, after cases.Tree) []string {
	var out []string
	for _, p := range after.Paths() {
		if _, ok := before[p]; !ok && after[p].Dir {
			out = append(out, p)
		}
	}
	return out
}

func sameEntry(a, b cases.Entry) bool {
	return a.Kind() == b.Kind() && a.Mode == b.Mode && a.Symlink == b.Symlink && string(a.Data) == string(b.Data)
}

func quoteAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%q", p)
	}
	return out
}
