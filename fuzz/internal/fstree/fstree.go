// Package fstree writes in-memory trees to disk and reads them back, for
// the fuzz tests and campaigns that run the command line on real folders.
package fstree

import (
	"io/fs"
	"os"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// Write creates every file of t under dir with mode 0644, creating folders
// as needed, never writing through a symlink (cases.Tree.Write).
func Write(dir string, t reference.MapFiles) error { return WriteWith(dir, t, nil) }

// WriteWith is Write with extra entries: folders with a mode, symlinks,
// hard links (cases.Tree.Write writes them after the files).
func WriteWith(dir string, t reference.MapFiles, extra cases.Tree) error {
	tree := cases.Tree{}
	for p, data := range t {
		tree[p] = cases.Entry{Data: data, Mode: 0o644}
	}
	for p, e := range extra {
		tree[p] = e
	}
	return tree.Write(dir)
}

// Tree is what Read finds: the regular files with their bytes, and the
// entries that are neither files nor folders (symlinks, FIFOs, files too
// large to read), by kind.
type Tree struct {
	Files reference.MapFiles
	Modes map[string]fs.FileMode
	Other map[string]string
}

// Read reads every regular file under dir with the certifier's bounded
// reader (cases.ReadTreeIn under cases.DefaultReadLimits): FIFOs and
// devices are never opened, and files above the size limit are never read.
func Read(dir string) (Tree, error) {
	t := Tree{Files: reference.MapFiles{}, Modes: map[string]fs.FileMode{}, Other: map[string]string{}}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return t, err
	}
	defer r.Close()
	read, unread, err := cases.ReadTreeIn(r, ".", cases.DefaultReadLimits, "")
	if err != nil {
		return t, err
	}
	for p, e := range read {
		switch e.Kind() {
		case "file":
			t.Files[p] = e.Data
			t.Modes[p] = e.Mode
		case "symlink":
			t.Other[p] = "symlink"
		}
	}
	for p, what := range unread {
		t.Other[p] = what
	}
	return t, nil
}

// Equal reports whether two trees hold the same files, bytes and modes.
func Equal(a, b Tree) bool { return Diff(a, b) == "" }

// Diff lists the paths on which two trees differ, or "".
func Diff(a, b Tree) string {
	var out []string
	seen := map[string]bool{}
	for _, t := range []Tree{a, b} {
		for p := range t.Files {
			seen[p] = true
		}
		for p := range t.Other {
			seen[p] = true
		}
	}
	paths := make([]string, 0, len(seen))
	for p := range seen {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		da, oka := a.Files[p]
		db, okb := b.Files[p]
		switch {
		case a.Other[p] != b.Other[p]:
			out = append(out, p+" (kind)")
		case oka != okb:
			out = append(out, p+" (presence)")
		case string(da) != string(db):
			out = append(out, p+" (bytes)")
		case a.Modes[p] != b.Modes[p]:
			out = append(out, p+" (mode)")
		}
	}
	return strings.Join(out, ", ")
}
