// Package fstree writes in-memory trees to disk and reads them back, for
// the fuzz tests and campaigns that run the command line on real folders.
package fstree

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// Write creates every file of t under dir with mode 0644, creating folders
// as needed.
func Write(dir string, t reference.MapFiles) error {
	for p, data := range t {
		name := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(name), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(name, data, 0o644); err != nil {
			return err
		}
		if err := os.Chmod(name, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// Tree is what Read finds: the regular files with their bytes, and the
// entries that are neither files nor folders (symlinks, FIFOs), by kind.
type Tree struct {
	Files reference.MapFiles
	Modes map[string]fs.FileMode
	Other map[string]string
}

// Read reads every regular file under dir.
func Read(dir string) (Tree, error) {
	t := Tree{Files: reference.MapFiles{}, Modes: map[string]fs.FileMode{}, Other: map[string]string{}}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil || rel == "." {
			return err
		}
		rel = filepath.ToSlash(rel)
		switch {
		case d.IsDir():
			return nil
		case d.Type().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := d.Info()
			if err != nil {
				return err
			}
			t.Files[rel] = data
			t.Modes[rel] = info.Mode().Perm()
		default:
			t.Other[rel] = d.Type().String()
		}
		return nil
	})
	return t, err
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
