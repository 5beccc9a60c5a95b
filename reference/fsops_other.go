//go:build !linux

package reference

import (
	"io/fs"
	"os"
	"syscall"
)

// flock does not lock where Linux's flock is not at hand.
func flock(*os.File) error { return syscall.ENOSYS }

// keepOwner keeps nothing where ownership is not known.
func keepOwner(*os.File, fs.FileInfo) {}

// writeback pushes nothing to disk ahead of the system where Linux's
// sync_file_range is not at hand.
type writeback struct{}

func startWriteback(*os.File) *writeback { return nil }
func (*writeback) upTo(int64)            {}
func (*writeback) stop()                 {}
