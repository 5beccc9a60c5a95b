package reference

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"syscall"
)

// verify re-checks every path the plan read (WRITE-006, WRITE-007): its
// folder is still the one the change is staged in, absent paths are still
// absent (or already hold the planned bytes), present files have the same
// stat and the same bytes.
func (w *Workspace) verify(stages []*staged) error {
	planned := map[string]*staged{}
	for _, s := range stages {
		planned[s.change.Path] = s
	}
	for path, snap := range w.seen {
		changed := &Error{Code: ConcurrentModification, Phase: "write", Path: path,
			Message: path + " changed after it was verified; nothing was written"}
		segs := segments(path)
		name := segs[len(segs)-1]
		d, err := w.findDir(segs[:len(segs)-1])
		if err != nil {
			var nd *notDirError
			if snap.absent && (errors.Is(err, fs.ErrNotExist) || errors.As(err, &nd)) && planned[path] == nil {
				continue // still absent, and not to be created
			}
			return changed
		}
		ok, err := w.unchanged(d, name, snap, planned[path])
		w.closeDir(d)
		if err != nil {
			return FileError(err, w.display(path), "io")
		}
		if !ok {
			return changed
		}
	}
	return nil
}

// unchanged reports whether the file name of d is as snap saw it, and, when
// s stages a change of it, d is the folder s is staged in. A path read as
// absent that cannot be looked up now (a name too long, say) is an error.
func (w *Workspace) unchanged(d *treeDir, name string, snap snapshot, s *staged) (bool, error) {
	if s != nil && !sameDir(d, s.dir) {
		return false, nil
	}
	info, err := d.handle.Lstat(name)
	if snap.absent {
		switch {
		case errors.Is(err, fs.ErrNotExist):
			return true, nil
		case err != nil:
			return false, err
		}
		return s != nil && info.Mode().IsRegular() && holdsExactly(d, name, s.change.Bytes()), nil
	}
	return err == nil && sameStat(info, snap.info) && snap.holds(d, name, info), nil
}

// holds reports whether the file name of d, whose Lstat is info, still has
// the bytes snap read: compared with them, or for a mapped file by its
// change time and checksum.
func (snap snapshot) holds(d *treeDir, name string, info fs.FileInfo) bool {
	if snap.mapped != nil {
		return snap.mapped.holds(info, snap.info)
	}
	return holdsExactly(d, name, snap.data)
}

// stillAt reports whether the path of s still leads to the folder s is
// staged in.
func (w *Workspace) stillAt(s *staged) bool {
	segs := segments(s.change.Path)
	d, err := w.findDir(segs[:len(segs)-1])
	if err != nil {
		return false
	}
	defer w.closeDir(d)
	return sameDir(d, s.dir)
}

// statUnchanged reports whether a path read as a present file still has the
// stat it had then; paths read as absent are judged by verify alone.
func (w *Workspace) statUnchanged(s *staged) bool {
	snap, ok := w.seen[s.change.Path]
	if !ok || snap.absent {
		return true
	}
	info, err := s.dir.handle.Lstat(s.name)
	return err == nil && sameStat(info, snap.info)
}

func sameStat(now, then fs.FileInfo) bool {
	return now.Mode().IsRegular() && os.SameFile(now, then) && now.Size() == then.Size() &&
		now.ModTime().Equal(then.ModTime()) && now.Mode() == then.Mode()
}

// holdsExactly streams the regular file name of d and compares it with
// want.
func holdsExactly(d *treeDir, name string, want []byte) bool {
	f, err := d.handle.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return false
	}
	defer f.Close()
	if info, err := f.Stat(); err != nil || !info.Mode().IsRegular() || info.Size() != int64(len(want)) {
		return false
	}
	buf := make([]byte, 1<<20)
	for {
		n, err := f.Read(buf)
		if n > len(want) || !bytes.Equal(buf[:n], want[:n]) {
			return false
		}
		want = want[n:]
		if err == io.EOF {
			return len(want) == 0
		}
		if err != nil {
			return false
		}
	}
}
