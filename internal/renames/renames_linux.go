//go:build linux

package renames

import (
	"errors"
	"path/filepath"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Watch records, in order, the paths that files are renamed onto in a set
// of folders. It watches the file system itself, so it sees what any
// implementation does, in process or not.
type Watch struct {
	fd   int
	dirs map[int]string // watch descriptor -> folder
}

// Start starts watching the given folders (not their subfolders).
func Start(dirs []string) (*Watch, error) {
	fd, err := unix.InotifyInit1(unix.IN_CLOEXEC | unix.IN_NONBLOCK)
	if err != nil {
		return nil, err
	}
	w := &Watch{fd: fd, dirs: map[int]string{}}
	for _, d := range dirs {
		wd, err := unix.InotifyAddWatch(fd, d, unix.IN_MOVED_TO)
		if err != nil {
			unix.Close(fd)
			return nil, err
		}
		w.dirs[wd] = d
	}
	return w, nil
}

// Stop ends the watch and returns the full paths renamed onto, in order.
func (w *Watch) Stop() ([]string, error) {
	defer unix.Close(w.fd)
	var out []string
	buf := make([]byte, 64<<10)
	for {
		n, err := unix.Read(w.fd, buf)
		if errors.Is(err, unix.EAGAIN) {
			return out, nil
		}
		if err != nil {
			return out, err
		}
		for off := 0; off+unix.SizeofInotifyEvent <= n; {
			ev := (*unix.InotifyEvent)(unsafe.Pointer(&buf[off]))
			name := buf[off+unix.SizeofInotifyEvent : off+unix.SizeofInotifyEvent+int(ev.Len)]
			off += unix.SizeofInotifyEvent + int(ev.Len)
			if ev.Mask&unix.IN_Q_OVERFLOW != 0 {
				return out, errors.New("inotify queue overflow")
			}
			if ev.Mask&unix.IN_MOVED_TO != 0 {
				if i := indexZero(name); i >= 0 {
					name = name[:i]
				}
				out = append(out, filepath.Join(w.dirs[int(ev.Wd)], string(name)))
			}
		}
	}
}

func indexZero(b []byte) int {
	for i, c := range b {
		if c == 0 {
			return i
		}
	}
	return -1
}
