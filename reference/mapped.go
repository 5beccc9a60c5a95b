package reference

import (
	"hash/crc32"
	"io/fs"
	"runtime/debug"
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

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// checksumOf returns the checksum of a mapped file's bytes; ok is false
// when reading them faults, the file having shrunk.
func checksumOf(data []byte) (sum uint32, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	return crc32.Checksum(data, castagnoli), true
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
