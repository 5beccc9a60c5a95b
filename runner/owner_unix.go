//go:build unix

package runner

import (
	"fmt"
	"io/fs"
	"syscall"
)

// Owner names the owner and group of a file.
func Owner(info fs.FileInfo) string {
	if st, ok := info.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf("owner %d:%d", st.Uid, st.Gid)
	}
	return ""
}
