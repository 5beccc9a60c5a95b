//go:build linux

package reference

import (
	"io/fs"
	"os"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// flock tries once to lock f exclusively.
func flock(f *os.File) error {
	return unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
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

// writeback pushes the pages of a file being written to disk on its own
// goroutine, up to the length the writer last reported, so that the
// writing and the disk's work overlap. It is advice: what it does not
// push, the system writes later, and its failures are the system's to
// report to whoever syncs the file.
type writeback struct {
	rc   syscall.RawConn
	end  atomic.Int64  // what the writer has written
	wake chan struct{} // a new end, or closed: stop
	done chan struct{}
}

// startWriteback starts pushing f's pages to disk as upTo reports them
// written. stop must be called before f closes.
func startWriteback(f *os.File) *writeback {
	rc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	wb := &writeback{rc: rc, wake: make(chan struct{}, 1), done: make(chan struct{})}
	go wb.run()
	return wb
}

func (wb *writeback) run() {
	defer close(wb.done)
	var from int64
	for range wb.wake {
		end := wb.end.Load()
		if end == from { // a wake-up for an end already pushed; 0 bytes would mean all
			continue
		}
		wb.rc.Control(func(fd uintptr) {
			unix.SyncFileRange(int(fd), from, end-from, unix.SYNC_FILE_RANGE_WRITE)
		})
		from = end
	}
}

// upTo reports f written up to end.
func (wb *writeback) upTo(end int64) {
	if wb == nil {
		return
	}
	wb.end.Store(end)
	select {
	case wb.wake <- struct{}{}:
	default: // the goroutine has a wake-up pending and will load end
	}
}

// stop returns once the goroutine is done with f, leaving the rest to the
// system.
func (wb *writeback) stop() {
	if wb == nil {
		return
	}
	close(wb.wake)
	<-wb.done
}
