package reference

import (
	"io/fs"
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, page tables filled at
// once. It returns nil when the file is not to be mapped.
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
