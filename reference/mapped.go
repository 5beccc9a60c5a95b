package reference

import (
	"io"
	"io/fs"
	"os"
	"runtime/debug"

	"github.com/zeebo/xxh3"
)

// mapThreshold is the size from which Workspace maps a file into memory
// instead of copying it: the pages are the system's file cache, so a large
// file costs neither a copy nor fresh memory, which on some machines costs
// more than reading it.
//
// A mapped file is no private copy: its bytes are what the file holds at
// each moment. The Workspace therefore keeps, for Commit's re-check
// (WRITE-006), a checksum of the bytes taken before any of them is used,
// and compares it, with the stat and the inode's change time, with the
// file as it is after staging. A file that shrinks while mapped makes
// reading beyond its new end fault; see MappedFault.
const mapThreshold = 256 << 10

// checksumOf returns the checksum of a mapped file's bytes, XXH3 (64 bits,
// vectorised: a small fraction of the cost of copying the file); ok is
// false when reading them faults, the file having shrunk.
func checksumOf(data []byte) (sum uint64, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return xxh3.Hash(data), true
}

// MappedFault returns, for a value recovered from a panic, the error to
// report when it is a memory fault: a file the Workspace mapped shrank
// while it was being read, concurrent_modification. It returns nil for any
// other panic. Faults panic only in goroutines that set
// debug.SetPanicOnFault; elsewhere they crash the program.
func MappedFault(p any) *Error {
	if _, ok := p.(interface{ Addr() uintptr }); !ok {
		return nil
	}
	return &Error{Code: ConcurrentModification, Phase: "io",
		Message: "a file shrank while it was being read"}
}

// Close releases the files the Workspace mapped. No slice of their bytes,
// from ReadFile or in a plan's changes, may be used after it.
func (w *Workspace) Close() error {
	var first error
	for path, snap := range w.seen {
		if snap.mapped {
			if err := unmap(snap.data); err != nil && first == nil {
				first = err
			}
			snap.file.Close()
			delete(w.seen, path)
		}
	}
	return first
}

// holds reports whether the file at full, whose stat is info, still has
// the bytes read: compared with them, or for a mapped file by its change
// time and the checksum of the mapping, which shows the file as it is now.
func (s snapshot) holds(full string, info fs.FileInfo) bool {
	if !s.mapped {
		return sameContent(full, s.data)
	}
	sum, ok := checksumOf(s.data)
	return s.summed && sameChangeTime(info, s.info) && ok && sum == s.sum
}

// writeSegment writes d, a slice of a new file's content, to f. A stretch
// of a mapped file is copied from the file itself, by the system where it
// can (copy_file_range, as cp does), without passing through this process;
// a file that shrank since is concurrent_modification.
func (w *Workspace) writeSegment(f *os.File, d []byte) error {
	for path, snap := range w.seen {
		off, ok := snap.offsetOf(d)
		if !ok {
			continue
		}
		if _, err := snap.file.Seek(int64(off), io.SeekStart); err != nil {
			return err
		}
		n, err := io.Copy(f, &io.LimitedReader{R: snap.file, N: int64(len(d))})
		if err == nil && n != int64(len(d)) {
			err = &Error{Code: ConcurrentModification, Phase: "io", Path: path,
				Message: path + " shrank while it was being copied"}
		}
		return err
	}
	_, err := f.Write(d)
	return err
}

// offsetOf returns where d starts in a mapped file, when d is a non-empty
// slice of its mapping.
func (s snapshot) offsetOf(d []byte) (int, bool) {
	if !s.mapped || len(d) == 0 {
		return 0, false
	}
	// A slice of data keeps the end of data's capacity: its offset is the
	// capacity it lost, if the byte there is d's first.
	off := cap(s.data) - cap(d)
	ok := off >= 0 && off+len(d) <= len(s.data) && &s.data[off] == &d[0]
	return off, ok
}
