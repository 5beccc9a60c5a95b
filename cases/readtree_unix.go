//go:build unix

package cases

import (
	"io/fs"
	"syscall"
)

// allocated returns the bytes a file takes on disk, when the system says.
func allocated(info fs.FileInfo) (int64, bool) {
	st, ok := info.Sys().(*syscall.Stat_t)
	if !ok {
		return 0, false
	}
	return int64(st.Blocks) * 512, true
}
