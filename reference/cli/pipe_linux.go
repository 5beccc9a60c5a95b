package cli

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// pipeSize is the buffer widenPipe asks for: the most an unprivileged
// process may set by default (/proc/sys/fs/pipe-max-size).
const pipeSize = 1 << 20

// widenPipe asks for a larger buffer when w is a pipe, before a large
// output is written to it (issue 23): with the default 64 KiB, the 85 MB
// of JSON of plan on a file of one 64 MiB line pass in 1,300 turns
// between writer and reader, which cost a quarter of the command's time.
// It is a request: anything else, or a refusal, leaves w as it was.
func widenPipe(w io.Writer) {
	f, ok := w.(*os.File)
	if !ok {
		return
	}
	if rc, err := f.SyscallConn(); err == nil {
		rc.Control(func(fd uintptr) {
			unix.FcntlInt(fd, unix.F_SETPIPE_SZ, pipeSize) // fails on a file or a terminal
		})
	}
}
