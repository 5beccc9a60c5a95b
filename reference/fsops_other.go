//go:build !linux

package reference

import (
	"io/fs"
	"os"
	"syscall"
)

// flock does not lock where Linux's flock is not at hand.
func flock(*os.File) error { return syscall.ENOSYS }

// renameNoReplace renames the entry from of d to to unless to exists, in
// which case it fails with fs.ErrExist: a hard link never replaces.
func renameNoReplace(d *treeDir, from, to string) error {
	if err := d.root.Link(from, to); err != nil {
		return err
	}
	return d.root.Remove(from)
}

// keepOwner keeps nothing where ownership is not known.
func keepOwner(*os.File, fs.FileInfo) {}

// writeback pushes nothing to disk ahead of the system where Linux's
// sync_file_range is not at hand.
type writeback struct{}

func startWriteback(*os.File) *writeback { return nil }
func (*writeback) upTo(int64)            {}
func (*writeback) stop()                 {}
