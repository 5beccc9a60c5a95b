//go:build linux

package reference

import (
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// dirHandle is a folder held open by an O_PATH descriptor. Such a
// descriptor needs search permission on the way to the folder and none on
// the folder itself, so a folder that may be searched and written but not
// listed (mode 0311) is walked, read and written through as the releases do
// (WRITE-015); os.Root opens every folder for reading and cannot.
//
// Every operation names one entry of the folder and follows no symlink, so
// nothing outside the folder is reached whatever the tree holds.
type dirHandle struct {
	f *os.File // the O_PATH descriptor, closed with it
}

// openDirHandle opens the folder at path, following symlinks on the way:
// the work tree's root, given with its symlinks resolved.
func openDirHandle(path string) (*dirHandle, error) {
	var fd int
	err := ignoringEINTR(func() (err error) {
		fd, err = unix.Open(path, unix.O_PATH|unix.O_DIRECTORY|unix.O_CLOEXEC, 0)
		return err
	})
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: path, Err: err}
	}
	return &dirHandle{os.NewFile(uintptr(fd), path)}, nil
}

// openat opens name relative to dir, never following a symlink it ends in.
func openat(dir int, name string, flag int, perm uint32) (fd int, err error) {
	err = ignoringEINTR(func() error {
		fd, err = unix.Openat(dir, name, flag|unix.O_NOFOLLOW|unix.O_CLOEXEC, perm)
		return err
	})
	return fd, err
}

// fd is the folder's descriptor, for the *at system calls.
func (d *dirHandle) fd() int { return int(d.f.Fd()) }

// Lstat returns the stat of the entry name itself, a symlink included. It
// stats the entry through an O_PATH descriptor of its own so the answer is
// the os package's, which os.SameFile can compare with an open file's.
func (d *dirHandle) Lstat(name string) (fs.FileInfo, error) {
	if err := entry("lstat", name); err != nil {
		return nil, err
	}
	fd, err := openat(d.fd(), name, unix.O_PATH, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "lstat", Path: name, Err: err}
	}
	f := os.NewFile(uintptr(fd), name)
	defer f.Close()
	return f.Stat()
}

// Stat returns the folder's own stat.
func (d *dirHandle) Stat() (fs.FileInfo, error) { return d.f.Stat() }

// OpenFile opens the entry name as os.OpenFile would, except that a
// symlink is not followed (ELOOP).
func (d *dirHandle) OpenFile(name string, flag int, perm fs.FileMode) (*os.File, error) {
	if err := entry("openat", name); err != nil {
		return nil, err
	}
	fd, err := openat(d.fd(), name, flag, uint32(perm.Perm()))
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: err}
	}
	return os.NewFile(uintptr(fd), name), nil
}

// OpenDir opens the folder name; a symlink, even to a folder, is not one
// (ENOTDIR).
func (d *dirHandle) OpenDir(name string) (*dirHandle, error) {
	if err := entry("openat", name); err != nil {
		return nil, err
	}
	fd, err := openat(d.fd(), name, unix.O_PATH|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: name, Err: err}
	}
	return &dirHandle{os.NewFile(uintptr(fd), name)}, nil
}

// OpenLock opens the folder for reading, which flock needs: an O_PATH
// descriptor cannot be locked. A folder the process may not read gives
// fs.ErrPermission.
func (d *dirHandle) OpenLock() (*os.File, error) {
	fd, err := openat(d.fd(), ".", unix.O_RDONLY|unix.O_DIRECTORY, 0)
	if err != nil {
		return nil, &fs.PathError{Op: "openat", Path: d.f.Name(), Err: err}
	}
	return os.NewFile(uintptr(fd), d.f.Name()), nil
}

// Mkdir makes the folder name with perm before the umask.
func (d *dirHandle) Mkdir(name string, perm fs.FileMode) error {
	if err := entry("mkdirat", name); err != nil {
		return err
	}
	return pathErr("mkdirat", name, ignoringEINTR(func() error { return unix.Mkdirat(d.fd(), name, uint32(perm.Perm())) }))
}

// Link makes to a hard link of from; it fails if to exists.
func (d *dirHandle) Link(from, to string) error {
	if err := entry("linkat", from); err != nil {
		return err
	}
	if err := entry("linkat", to); err != nil {
		return err
	}
	return pathErr("linkat", to, ignoringEINTR(func() error { return unix.Linkat(d.fd(), from, d.fd(), to, 0) }))
}

// Rename renames the entry from to to, replacing a file at to.
func (d *dirHandle) Rename(from, to string) error {
	if err := entry("renameat", from); err != nil {
		return err
	}
	if err := entry("renameat", to); err != nil {
		return err
	}
	return pathErr("renameat", to, ignoringEINTR(func() error { return unix.Renameat(d.fd(), from, d.fd(), to) }))
}

// RenameNoReplace renames the entry from to to unless to exists
// (EEXIST); filesystems without RENAME_NOREPLACE give EINVAL.
func (d *dirHandle) RenameNoReplace(from, to string) error {
	if err := entry("renameat2", from); err != nil {
		return err
	}
	if err := entry("renameat2", to); err != nil {
		return err
	}
	return pathErr("renameat2", to, ignoringEINTR(func() error {
		return unix.Renameat2(d.fd(), from, d.fd(), to, unix.RENAME_NOREPLACE)
	}))
}

// Remove removes the file or empty folder name.
func (d *dirHandle) Remove(name string) error {
	if err := entry("unlinkat", name); err != nil {
		return err
	}
	err := ignoringEINTR(func() error { return unix.Unlinkat(d.fd(), name, 0) })
	if err == syscall.EISDIR {
		err = ignoringEINTR(func() error { return unix.Unlinkat(d.fd(), name, unix.AT_REMOVEDIR) })
	}
	return pathErr("unlinkat", name, err)
}

// Close releases the descriptor.
func (d *dirHandle) Close() error { return d.f.Close() }

// ignoringEINTR makes call again for as long as a signal interrupts it.
func ignoringEINTR(call func() error) error {
	err := call()
	for err == syscall.EINTR {
		err = call()
	}
	return err
}

// pathErr wraps a system call's error as os does, nil staying nil.
func pathErr(op, name string, err error) error {
	if err == nil {
		return nil
	}
	return &fs.PathError{Op: op, Path: name, Err: err}
}
