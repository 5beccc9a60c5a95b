//go:build !linux

package reference

import (
	"io/fs"
	"os"
	"syscall"
)

// dirHandle is a folder held open as an os.Root where Linux's O_PATH is not
// at hand: a folder the process may not read cannot be held (WRITE-015).
type dirHandle struct{ r *os.Root }

func openDirHandle(path string) (*dirHandle, error) {
	r, err := os.OpenRoot(path)
	if err != nil {
		return nil, err
	}
	return &dirHandle{r}, nil
}

func (d *dirHandle) Lstat(name string) (fs.FileInfo, error) {
	if err := entry("lstat", name); err != nil {
		return nil, err
	}
	return d.r.Lstat(name)
}

func (d *dirHandle) Stat() (fs.FileInfo, error) { return d.r.Stat(".") }

func (d *dirHandle) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := entry("openat", name); err != nil {
		return nil, err
	}
	return d.r.OpenFile(name, flag, perm)
}

func (d *dirHandle) OpenDir(name string) (*dirHandle, error) {
	if err := entry("openat", name); err != nil {
		return nil, err
	}
	r, err := d.r.OpenRoot(name)
	if err != nil {
		return nil, err
	}
	return &dirHandle{r}, nil
}

func (d *dirHandle) OpenLock() (*os.File, error) { return d.r.Open(".") }

func (d *dirHandle) Mkdir(name string, perm fs.FileMode) error {
	if err := entry("mkdirat", name); err != nil {
		return err
	}
	return d.r.Mkdir(name, perm)
}

func (d *dirHandle) Link(from, to string) error {
	if err := entry("linkat", from); err != nil {
		return err
	}
	if err := entry("linkat", to); err != nil {
		return err
	}
	return d.r.Link(from, to)
}

func (d *dirHandle) Rename(from, to string) error {
	if err := entry("renameat", from); err != nil {
		return err
	}
	if err := entry("renameat", to); err != nil {
		return err
	}
	return d.r.Rename(from, to)
}

// RenameNoReplace is not at hand: EINVAL sends the caller to a hard link.
func (d *dirHandle) RenameNoReplace(from, to string) error {
	return &fs.PathError{Op: "renameat2", Path: to, Err: syscall.EINVAL}
}

func (d *dirHandle) Remove(name string) error {
	if err := entry("unlinkat", name); err != nil {
		return err
	}
	return d.r.Remove(name)
}

func (d *dirHandle) Close() error { return d.r.Close() }
