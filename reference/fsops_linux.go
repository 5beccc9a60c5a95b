//go:build linux

package reference

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// flock tries once to lock f exclusively.
func flock(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
}

// renameNoReplace renames the entry from of d to to unless to exists, in
// which case it fails with fs.ErrExist and changes nothing: a file that
// appeared meanwhile is never replaced. Filesystems without
// RENAME_NOREPLACE get a hard link and an unlink, as atomic.
func renameNoReplace(d *treeDir, from, to string) error {
	dir, err := d.root.Open(".")
	if err != nil {
		return err
	}
	defer dir.Close()
	fd := int(dir.Fd())
	err = unix.Renameat2(fd, from, fd, to, unix.RENAME_NOREPLACE)
	switch {
	case err == nil:
		return nil
	case errors.Is(err, syscall.EINVAL), errors.Is(err, syscall.ENOSYS), errors.Is(err, syscall.EOPNOTSUPP):
		if err := d.root.Link(from, to); err != nil {
			return err
		}
		return d.root.Remove(from)
	}
	return &fs.PathError{Op: "renameat2", Path: to, Err: err}
}

// keepOwner gives f the owner and group of was where the process may set
// them: the owner needs privilege, the group only membership.
func keepOwner(f *os.File, was fs.FileInfo) {
	st, ok := was.Sys().(*syscall.Stat_t)
	if !ok {
		return
	}
	now, err := f.Stat()
	if err != nil {
		return
	}
	cur, ok := now.Sys().(*syscall.Stat_t)
	if !ok || (cur.Uid == st.Uid && cur.Gid == st.Gid) {
		return
	}
	if f.Chown(int(st.Uid), int(st.Gid)) != nil {
		f.Chown(-1, int(st.Gid))
	}
}
