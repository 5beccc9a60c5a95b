package reference

import (
	"errors"
	"io/fs"
	"os"
	"strings"
)

// treeDir is a directory of the work tree held open. Every file operation
// names one entry relative to it, so nothing that changes on the path
// above it (a folder swapped for a symlink, a "..") can redirect the
// operation elsewhere; os.Root keeps even a symlink entry from leading out.
type treeDir struct {
	root *os.Root
	rel  string // its path below the work tree's root, "" for the root itself
}

// below returns the path of name in d below the work tree's root.
func (d *treeDir) below(name string) string {
	if d.rel == "" {
		return name
	}
	return d.rel + "/" + name
}

// errDirSwapped reports a folder replaced between its lookup and its
// opening.
var errDirSwapped = errors.New("the folder changed while it was opened")

// segments splits an operation path into its non-empty components.
func segments(path string) []string {
	var segs []string
	for _, seg := range strings.Split(path, "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	return segs
}

// enter opens the folder name of d that Lstat showed as seen. The opened
// folder must be that very folder: if name was swapped in between, even for
// a symlink that os.Root would follow, it is errDirSwapped.
func (d *treeDir) enter(name string, seen fs.FileInfo) (*treeDir, error) {
	r, err := d.root.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	now, err := r.Stat(".")
	if err != nil || !os.SameFile(now, seen) {
		r.Close()
		return nil, errDirSwapped
	}
	return &treeDir{root: r, rel: d.join(name)}, nil
}

// close releases d unless it is the work tree's root, which the Workspace
// owns.
func (w *Workspace) closeDir(d *treeDir) {
	if d != nil && d != w.top {
		d.root.Close()
	}
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b *treeDir) bool {
	ai, err := a.root.Stat(".")
	if err != nil {
		return false
	}
	bi, err := b.root.Stat(".")
	return err == nil && os.SameFile(ai, bi)
}

// findDir walks the folders of segs from the root, refusing symlinks and
// anything that is not a folder; it returns the innermost folder, open.
// Its errors are operating-system errors (fs.ErrNotExist for a missing
// folder), errDirSwapped, or a *notDirError.
func (w *Workspace) findDir(segs []string) (*treeDir, error) {
	d := w.top
	for _, seg := range segs {
		info, err := d.root.Lstat(seg)
		if err == nil && !info.IsDir() { // a symlink included
			err = &notDirError{d.join(seg)}
		}
		var next *treeDir
		if err == nil {
			next, err = d.enter(seg, info)
		}
		w.closeDir(d)
		if err != nil {
			return nil, err
		}
		d = next
	}
	return d, nil
}

// notDirError reports a path component that is not a folder (a symlink
// included); rel is the component's path below the root.
type notDirError struct{ rel string }

func (e *notDirError) Error() string { return e.rel + " is not a folder" }

// join appends name to d's path below the root.
func (d *treeDir) join(name string) string {
	if d.rel == "" {
		return name
	}
	return d.rel + "/" + name
}

// madeDir is a folder Commit created: name inside parent.
type madeDir struct {
	parent *treeDir
	name   string
}

// makeDirs walks the folders of segs from the root like findDir, creating
// the missing ones (mode 0755 before the umask). It returns the innermost
// folder and the folders it made, outermost first, with their parents held
// open so a failed Commit can remove them again. A component that is a
// file or symlink is a *notDirError.
func (w *Workspace) makeDirs(segs []string) (*treeDir, []madeDir, error) {
	d := w.top
	var made []madeDir
	fail := func(err error) (*treeDir, []madeDir, error) {
		if len(made) == 0 || made[len(made)-1].parent != d {
			w.closeDir(d)
		}
		return nil, made, err
	}
	for _, seg := range segs {
		err := d.root.Mkdir(seg, 0o755)
		created := err == nil
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return fail(err)
		}
		info, err := d.root.Lstat(seg)
		if err != nil {
			return fail(err)
		}
		if !info.IsDir() {
			return fail(&notDirError{d.join(seg)})
		}
		next, err := d.enter(seg, info)
		if err != nil {
			return fail(err)
		}
		if created {
			made = append(made, madeDir{parent: d, name: seg}) // d stays open
		} else {
			w.closeDir(d)
		}
		d = next
	}
	return d, made, nil
}
