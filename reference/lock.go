package reference

import (
	"cmp"
	"context"
	"errors"
	"io/fs"
	"os"
	"slices"
	"syscall"
	"time"
)

// lockDirs takes an exclusive advisory lock (flock) on each distinct
// folder of dirs, in the order of their device and inode numbers so that
// two processes never wait for each other in a circle, and returns the
// function that releases them. Every blockpatch Commit locks the folders it
// writes in from its re-check to its last rename, so two processes on the
// same files are serialised: the second re-checks after the first wrote,
// and reports concurrent_modification instead of losing the first's change.
// The lock is on the folder itself, so it puts no file in the tree. Waiting
// ends early when ctx is done. A filesystem without locks is not locked,
// nor is a folder the process may not read, since flock needs a folder
// opened for reading.
func lockDirs(ctx context.Context, dirs []*treeDir) (unlock func(), err error) {
	type lockable struct {
		d        *treeDir
		dev, ino uint64
	}
	var all []lockable
	for _, d := range dirs {
		info, err := d.handle.Stat()
		if err != nil {
			return nil, FileError(err, d.rel, "io")
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			continue
		}
		all = append(all, lockable{d, uint64(st.Dev), uint64(st.Ino)})
	}
	slices.SortFunc(all, func(a, b lockable) int {
		return cmp.Or(cmp.Compare(a.dev, b.dev), cmp.Compare(a.ino, b.ino))
	})
	all = slices.CompactFunc(all, func(a, b lockable) bool { return a.dev == b.dev && a.ino == b.ino })
	var held []*os.File
	unlock = func() {
		for _, f := range held {
			f.Close() // closing releases the lock
		}
	}
	for _, l := range all {
		f, err := l.d.handle.OpenLock()
		if errors.Is(err, fs.ErrPermission) {
			continue // a folder that may be written but not read (WRITE-015)
		}
		if err != nil {
			unlock()
			return nil, FileError(err, l.d.rel, "io")
		}
		locked, err := lockFile(ctx, f)
		if err != nil {
			f.Close()
			unlock()
			return nil, err
		}
		if !locked {
			f.Close()
			continue
		}
		held = append(held, f)
	}
	return unlock, nil
}

// lockFile waits for an exclusive flock on f, polling so that ctx can end
// the wait. It reports false when the filesystem has no locks.
func lockFile(ctx context.Context, f *os.File) (bool, error) {
	delay := time.Millisecond
	for {
		err := flock(f)
		switch err {
		case nil:
			return true, nil
		case syscall.EINTR:
			continue
		case syscall.EWOULDBLOCK:
		case syscall.ENOLCK, syscall.EOPNOTSUPP, syscall.ENOSYS, syscall.EINVAL:
			return false, nil
		default:
			return false, FileError(&fs.PathError{Op: "flock", Path: f.Name(), Err: err}, f.Name(), "io")
		}
		if err := interrupted(ctx); err != nil {
			return false, err
		}
		time.Sleep(delay)
		delay = min(2*delay, 20*time.Millisecond)
	}
}
