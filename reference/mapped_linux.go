package reference

import (
	"encoding/binary"
	"io/fs"
	"os"
	"runtime/debug"
	"sync/atomic"
	"syscall"
	"unsafe"
)

// mapFile maps the first size bytes of f read-only, its pages mapped as
// touched (see mappedWhole). It returns nil for a file not to be mapped.
func mapFile(f *os.File, size int64) (data []byte, err error) {
	if size < mapThreshold || size != int64(int(size)) {
		return nil, nil
	}
	rc, err := f.SyscallConn()
	if err != nil {
		return nil, err
	}
	cerr := rc.Control(func(fd uintptr) {
		data, err = syscall.Mmap(int(fd), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED)
	})
	if cerr != nil {
		return nil, cerr
	}
	return data, err
}

// unmap releases a mapping made by mapFile.
func unmap(data []byte) error { return syscall.Munmap(data) }

// sameChangeTime reports whether two stats of a file show the same inode
// change time, which no one can set back.
func sameChangeTime(now, then fs.FileInfo) bool {
	a, aok := now.Sys().(*syscall.Stat_t)
	b, bok := then.Sys().(*syscall.Stat_t)
	return aok && bok && a.Ctim == b.Ctim
}

// hugePiece is the size of the pieces in which the system may map a file
// whose cached pages come in pieces as large (a file written in large
// writes, on Linux 6.x): touching one maps all of it.
const hugePiece = 2 << 20

// hugeProbes is how many stretches of a mapping mappedWhole touches.
const hugeProbes = 4

// mappedWhole reports whether the system maps most of data, a fresh file
// mapping, a hugePiece at a time: it touches the first byte of stretches
// of hugePiece spread over data and asks /proc/self/pagemap whether the
// page half a piece on is mapped too, as it is only when the piece came
// whole. Such a file is cheap to map (issue 23: the whole of a 64 MiB
// file in under 1 ms on this VM) and is read in place; any other, whose
// pages are mapped one fault-around window at a time (a file written by
// cp or copy_file_range: 20-35 ms), is read through buffers (see cursor).
// Without /proc, or on a fault, it reports false.
func mappedWhole(data []byte) (whole bool) {
	base := uintptr(unsafe.Pointer(unsafe.SliceData(data)))
	first := (base + hugePiece - 1) &^ (hugePiece - 1)
	pieces := (base + uintptr(len(data)) - first) / hugePiece
	if pieces < hugeProbes {
		return false
	}
	pagemap, err := os.Open("/proc/self/pagemap")
	if err != nil {
		return false
	}
	defer pagemap.Close()
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			whole = false
		}
	}()
	mapped := 0
	for i := range uintptr(hugeProbes) {
		piece := first + (2*i+1)*pieces/(2*hugeProbes)*hugePiece
		touched.Add(uint32(data[piece-base]))
		var entry [8]byte
		page := (piece + hugePiece/2) / uintptr(os.Getpagesize())
		if n, _ := pagemap.ReadAt(entry[:], int64(page*8)); n == len(entry) && binary.LittleEndian.Uint64(entry[:])>>63 == 1 {
			mapped++
		}
	}
	return 2*mapped > hugeProbes
}

// touched keeps mappedWhole's reads from being left out.
var touched atomic.Uint32
