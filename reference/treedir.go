package reference

import (
	"errors"
	"io/fs"
	"os"
	"strings"
	"syscall"
)

// treeDir is a directory of the work tree held open. Every file operation
// names one entry relative to it, so nothing that changes on the path
// above it (a folder swapped for a symlink, a "..") can redirect the
// operation elsewhere, and no operation follows a symlink entry.
type treeDir struct {
	handle *dirHandle
	rel    string // its path below the work tree's root, "" for the root itself
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
// a symlink, it is errDirSwapped.
func (d *treeDir) enter(name string, seen fs.FileInfo) (*treeDir, error) {
	h, err := d.handle.OpenDir(name)
	if err != nil {
		if errors.Is(err, syscall.ENOTDIR) {
			return nil, errDirSwapped
		}
		return nil, err
	}
	now, err := h.Stat()
	if err != nil || !os.SameFile(now, seen) {
		h.Close()
		return nil, errDirSwapped
	}
	return &treeDir{handle: h, rel: d.join(name)}, nil
}

// close releases d unless it is the work tree's root, which the Workspace
// owns.
func (w *Workspace) closeDir(d *treeDir) {
	if d != nil && d != w.top {
		d.handle.Close()
	}
}

// sameDir reports whether a and b are the same folder.
func sameDir(a, b *treeDir) bool {
	ai, err := a.handle.Stat()
	if err != nil {
		return false
	}
	bi, err := b.handle.Stat()
	return err == nil && os.SameFile(ai, bi)
}

// findDir walks the folders of segs from the root, refusing symlinks and
// anything that is not a folder; it returns the innermost folder, open.
// Its errors are operating-system errors (fs.ErrNotExist for a missing
// folder), errDirSwapped, or a *notDirError.
func (w *Workspace) findDir(segs []string) (*treeDir, error) {
	d := w.top
	for _, seg := range segs {
		info, err := d.handle.Lstat(seg)
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
		err := d.handle.Mkdir(seg, 0o755)
		created := err == nil
		if err != nil && !errors.Is(err, fs.ErrExist) {
			return fail(err)
		}
		info, err := d.handle.Lstat(seg)
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

// entry checks that name is one entry of a folder: no separator, and not
// the folder itself or its parent. Operation paths reach a dirHandle only
// as such entries (PATH-002 refuses the rest first); this keeps a slip from
// ever leaving the folder.
func entry(op, name string) error {
	if name == "" || name == "." || name == ".." || strings.ContainsRune(name, '/') {
		return &fs.PathError{Op: op, Path: name, Err: syscall.EINVAL}
	}
	return nil
}

// renameNoReplace renames the entry from of d to to unless to exists, in
// which case it fails with fs.ErrExist and changes nothing: a file that
// appeared meanwhile is never replaced. Filesystems without
// RENAME_NOREPLACE get a hard link and an unlink, as atomic.
func renameNoReplace(d *treeDir, from, to string) error {
	err := d.handle.RenameNoReplace(from, to)
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOSYS) || errors.Is(err, syscall.EOPNOTSUPP) {
		if err := d.handle.Link(from, to); err != nil {
			return err
		}
		return d.handle.Remove(from)
	}
	return err
}
