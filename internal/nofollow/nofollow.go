// Package nofollow writes files inside an os.Root without ever writing
// through a symlink: every folder on the way must be a real folder, and an
// entry being replaced is removed first, never opened. The certifier uses it
// for every write into a case's box, where a hostile implementation or case
// folder may have planted symlinks.
//
// The checks and the writes are separate system calls; the os.Root keeps
// whatever changes in between inside the root.
package nofollow

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strings"
	"syscall"
)

// ErrSymlink is returned, wrapped, when a write would go through a
// symlink or replace a folder.
var ErrSymlink = errors.New("not a real folder: the runner does not write through symlinks")

// MkdirAll makes the folder name (a slash path in r) and its parents with
// mode perm, refusing any component that exists and is not a folder.
func MkdirAll(r *os.Root, name string, perm fs.FileMode) error {
	if name == "." || name == "" {
		return nil
	}
	dir := ""
	for seg := range strings.SplitSeq(path.Clean(name), "/") {
		dir = path.Join(dir, seg)
		info, err := r.Lstat(dir)
		switch {
		case errors.Is(err, fs.ErrNotExist):
			if err := r.Mkdir(dir, perm); err != nil && !errors.Is(err, fs.ErrExist) {
				return err
			}
			if info, err = r.Lstat(dir); err != nil {
				return err
			}
			if !info.IsDir() {
				return &fs.PathError{Op: "mkdir", Path: dir, Err: ErrSymlink}
			}
		case err != nil:
			return err
		case !info.IsDir():
			return &fs.PathError{Op: "mkdir", Path: dir, Err: ErrSymlink}
		}
	}
	return nil
}

// clear makes room for a new entry at name: its parent folders are made,
// and an entry of another kind than a folder is removed.
func clear(r *os.Root, name string) error {
	if err := MkdirAll(r, path.Dir(name), 0o755); err != nil {
		return err
	}
	info, err := r.Lstat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil
	case err != nil:
		return err
	case info.IsDir():
		return &fs.PathError{Op: "write", Path: name, Err: errors.New("a folder is in the way")}
	}
	return r.Remove(name)
}

// WriteFile writes data to a new file at name with mode perm, replacing
// what was there (the entry, not what a symlink there points at).
func WriteFile(r *os.Root, name string, data []byte, perm fs.FileMode) error {
	if err := clear(r, name); err != nil {
		return err
	}
	// O_EXCL never follows a symlink, even one planted since clear.
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// Overwrite replaces the bytes of the regular file name in place, keeping
// its inode, as a concurrent writer does, or creates it with mode perm when
// it does not exist. A symlink or any other kind of file at name is
// refused, never opened.
func Overwrite(r *os.Root, name string, data []byte, perm fs.FileMode) error {
	if err := MkdirAll(r, path.Dir(name), 0o755); err != nil {
		return err
	}
	info, err := r.Lstat(name)
	if errors.Is(err, fs.ErrNotExist) {
		return WriteFile(r, name, data, perm)
	}
	if err != nil {
		return err
	}
	if !info.Mode().IsRegular() {
		return &fs.PathError{Op: "write", Path: name, Err: fmt.Errorf("%v, not a regular file: not written", info.Mode().Type())}
	}
	f, err := r.OpenFile(name, os.O_WRONLY|os.O_TRUNC|nonblock, 0)
	if err != nil {
		return err
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() {
		return &fs.PathError{Op: "write", Path: name, Err: errors.New("not a regular file: not written")}
	}
	_, err = f.Write(data)
	return err
}

// Symlink makes name a symlink to target, replacing what was there.
func Symlink(r *os.Root, target, name string) error {
	if err := clear(r, name); err != nil {
		return err
	}
	return r.Symlink(target, name)
}

// Link makes name a second name of the file oldname, replacing what was at
// name. A symlink at oldname is linked itself, not followed.
func Link(r *os.Root, oldname, name string) error {
	if err := clear(r, name); err != nil {
		return err
	}
	return r.Link(oldname, name)
}

// ChmodDir sets the mode of the folder name, refusing anything but a
// real folder.
func ChmodDir(r *os.Root, name string, perm fs.FileMode) error {
	info, err := r.Lstat(name)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return &fs.PathError{Op: "chmod", Path: name, Err: ErrSymlink}
	}
	return r.Chmod(name, perm)
}

// nonblock keeps an open from waiting on a FIFO swapped in after a check.
const nonblock = syscall.O_NONBLOCK
