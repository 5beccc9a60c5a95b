package reference

import (
	"io/fs"
	"os"
	"syscall"
)

// mapFile maps the first size bytes of f read-only, page tables filled at
// once. It returns nil when the file is not to be mapped.
func mapFile(f *os.File, size int64) ([]byte, error) {
	if size < mapThreshold || size != int64(int(size)) {
		return nil, nil
	}
	return syscall.Mmap(int(f.Fd()), 0, int(size), syscall.PROT_READ, syscall.MAP_SHARED|syscall.MAP_POPULATE)
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
