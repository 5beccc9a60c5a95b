package reference

import (
	"bytes"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Workspace is the filesystem layer. It resolves operation paths inside a
// root directory (the CLI's --cwd), implements Files for the planner, and
// commits a plan with temp-file-and-rename writes.
//
// A Workspace remembers every file it read, so Commit can prove nothing
// changed underneath the plan. Use one Workspace per operation.
type Workspace struct {
	root string
	// rootErr is why the root cannot be resolved; every read reports it.
	rootErr error
	seen    map[string]snapshot
	// BeforeVerify, when set, runs after every file is staged and before the
	// inputs are re-checked. Tests use it to inject concurrent changes.
	BeforeVerify func()
}

// snapshot is what ReadFile saw at a path.
type snapshot struct {
	absent bool
	data   []byte
	info   fs.FileInfo
}

// NewWorkspace opens root as the directory operations are confined to. As
// upstream does, the root is judged only when a path is first read: a
// missing root makes every ReadFile fail with file_not_found naming the
// absolute root (phase path), before the path itself is checked; a root
// that is not a directory makes every path file_not_found.
func NewWorkspace(root string) (*Workspace, error) {
	abs, err := filepath.Abs(root)
	if err != nil {
		return nil, fsError(err, root, "path")
	}
	w := &Workspace{root: abs, seen: map[string]snapshot{}}
	if real, err := filepath.EvalSymlinks(abs); err != nil {
		w.rootErr = fsError(err, abs, "path")
	} else {
		w.root = real
	}
	return w, nil
}

// Root returns the workspace's absolute root with symlinks resolved.
func (w *Workspace) Root() string { return w.root }

// ReadFile implements Files. Besides the codes of checkTreePath it returns,
// with phase "path", symlink_path for a path with a symlink component
// (wherever it leads), not_regular_file, and file_not_found for a missing
// path or one whose parent is not a directory; a failing read is
// permission_denied or io_error with phase "io".
func (w *Workspace) ReadFile(path string) ([]byte, error) {
	if w.rootErr != nil {
		e := *w.rootErr.(*Error)
		return nil, &e
	}
	full, err := w.resolve(path)
	if err != nil {
		if errors.Is(err, &Error{Code: FileNotFound}) {
			w.seen[path] = snapshot{absent: true}
		}
		return nil, err
	}
	data, info, err := readRegular(full)
	if err != nil {
		return nil, fsError(err, path, "io")
	}
	w.seen[path] = snapshot{data: data, info: info}
	return data, nil
}

// readRegular reads a file that Lstat showed to be regular, and returns the
// stat of the opened file so the two belong to the same inode.
func readRegular(full string) ([]byte, fs.FileInfo, error) {
	f, err := os.Open(full)
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, nil, err
	}
	data := make([]byte, info.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, nil, err
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 { // grew while reading
		return nil, nil, &Error{Code: ConcurrentModification, Phase: "io", Message: full + " changed while being read"}
	}
	return data, info, nil
}

// resolve checks an operation path and walks it component by component
// below the root, refusing symlinks and non-directories on the way. Empty
// segments are skipped.
func (w *Workspace) resolve(path string) (string, error) {
	if err := checkTreePath(path); err != nil {
		return "", err
	}
	var segs []string
	for _, seg := range strings.Split(path, "/") {
		if seg != "" {
			segs = append(segs, seg)
		}
	}
	cur := w.root
	for i, seg := range segs {
		cur = filepath.Join(cur, seg)
		rel := strings.Join(segs[:i+1], "/")
		info, err := os.Lstat(cur)
		if err != nil {
			return "", fsError(err, path, "path")
		}
		switch mode := info.Mode(); {
		case mode&fs.ModeSymlink != 0:
			return "", &Error{Code: SymlinkPath, Phase: "path", Path: path,
				Message: path + " passes through the symlink " + rel}
		case i < len(segs)-1 && !mode.IsDir():
			return "", &Error{Code: FileNotFound, Phase: "path", Path: path,
				Message: rel + " is not a directory, in path " + path}
		case i == len(segs)-1 && !mode.IsRegular():
			return "", &Error{Code: NotRegularFile, Phase: "path", Path: path,
				Message: path + " is not a regular file"}
		}
	}
	return cur, nil
}

// fsError maps an operating-system error to a spec code.
func fsError(err error, path, phase string) error {
	var e *Error
	if errors.As(err, &e) {
		if e.Path == "" {
			e.Path = path
		}
		return e
	}
	code := IOError
	switch {
	case errors.Is(err, fs.ErrNotExist):
		code = FileNotFound
	case errors.Is(err, fs.ErrPermission):
		code = PermissionDenied
	case errors.Is(err, syscall.ENOTDIR):
		code = FileNotFound
	}
	msg := err.Error()
	var pe *fs.PathError
	if errors.As(err, &pe) {
		msg = pe.Op + " " + path + ": " + pe.Err.Error()
	}
	return &Error{Code: code, Phase: phase, Path: path, Message: msg, Err: err}
}

// Commit makes a plan's changes on disk. It stages every new content in a
// temp file beside its target, re-checks that every file the plan read is
// unchanged (concurrent_modification otherwise), then renames in order,
// destination before source, and removes paths; right before each rename
// it re-checks the stat of the file it replaces. On any failure before the
// renames nothing on disk changes; no temp file survives any outcome.
func (w *Workspace) Commit(changes []Change) (err error) {
	type staged struct {
		change Change
		full   string
		temp   string
	}
	var (
		stages  []staged
		newDirs []string // created parents, deepest last
	)
	defer func() {
		for _, s := range stages {
			if s.temp != "" {
				os.Remove(s.temp)
			}
		}
		if err != nil {
			for i := len(newDirs) - 1; i >= 0; i-- {
				os.Remove(newDirs[i])
			}
		}
	}()
	for _, c := range changes {
		full := filepath.Join(w.root, filepath.FromSlash(c.Path))
		s := staged{change: c, full: full}
		if !c.Remove {
			if c.Create {
				dirs, err := w.makeParents(c.Path, full)
				newDirs = append(newDirs, dirs...)
				if err != nil {
					return err
				}
			}
			mode := fs.FileMode(0o644)
			if snap, ok := w.seen[c.Path]; ok && !snap.absent {
				mode = snap.info.Mode().Perm()
			}
			if s.temp, err = stage(full, c.Data, mode); err != nil {
				return fsError(err, full, "io")
			}
		}
		stages = append(stages, s)
	}
	if w.BeforeVerify != nil {
		w.BeforeVerify()
	}
	if err := w.verify(changes); err != nil {
		return err
	}
	for i := range stages {
		s := &stages[i]
		if !w.statUnchanged(s.change.Path) { // cheap re-check between renames
			return &Error{Code: ConcurrentModification, Phase: "verify", Path: s.change.Path,
				Message: s.change.Path + " changed while the move was being written"}
		}
		switch {
		case s.change.Remove:
			err = os.Remove(s.full)
		default:
			err = os.Rename(s.temp, s.full)
			if err == nil {
				s.temp = ""
			}
		}
		if err != nil {
			return fsError(err, s.change.Path, "io")
		}
	}
	return nil
}

// makeParents creates the missing parent directories of an operation path
// and returns those it created, outermost first. Its errors name full, the
// absolute path being created, in phase "io"; a parent that is not a
// directory is io_error.
func (w *Workspace) makeParents(path, full string) ([]string, error) {
	segs := strings.Split(path, "/")
	var made []string
	cur := w.root
	for _, seg := range segs[:len(segs)-1] {
		cur = filepath.Join(cur, seg)
		err := os.Mkdir(cur, 0o755)
		switch {
		case err == nil:
			made = append(made, cur)
		case errors.Is(err, fs.ErrExist):
			if info, lerr := os.Lstat(cur); lerr != nil || !info.IsDir() {
				return made, &Error{Code: IOError, Phase: "io", Path: full, Err: err,
					Message: "cannot make the folder " + cur + ": a file is in the way"}
			}
		default:
			return made, fsError(err, full, "io")
		}
	}
	return made, nil
}

// stage writes data to a new temp file in full's directory with the given
// mode and returns its name.
func stage(full string, data [][]byte, mode fs.FileMode) (string, error) {
	f, err := os.CreateTemp(filepath.Dir(full), "."+filepath.Base(full)+".blockpatch-*")
	if err != nil {
		return "", err
	}
	name := f.Name()
	for _, d := range data {
		if _, err = f.Write(d); err != nil {
			break
		}
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(name)
		return "", err
	}
	return name, nil
}

// verify re-checks every path the plan read: absent paths are still absent
// (or already hold the planned bytes), present files have the same stat and
// the same bytes.
func (w *Workspace) verify(changes []Change) error {
	planned := map[string]Change{}
	for _, c := range changes {
		planned[c.Path] = c
	}
	for path, snap := range w.seen {
		changed := &Error{Code: ConcurrentModification, Phase: "verify", Path: path,
			Message: path + " changed after it was verified; nothing was written"}
		full := filepath.Join(w.root, filepath.FromSlash(path))
		info, err := os.Lstat(full)
		if snap.absent {
			if errors.Is(err, fs.ErrNotExist) {
				continue
			}
			if c, ok := planned[path]; ok && err == nil && info.Mode().IsRegular() && sameContent(full, c.Bytes()) {
				continue
			}
			return changed
		}
		if err != nil || !sameStat(info, snap.info) || !sameContent(full, snap.data) {
			return changed
		}
	}
	return nil
}

// statUnchanged reports whether a path read as a present file still has the
// stat it had then; paths read as absent are judged by verify alone.
func (w *Workspace) statUnchanged(path string) bool {
	snap, ok := w.seen[path]
	if !ok || snap.absent {
		return true
	}
	info, err := os.Lstat(filepath.Join(w.root, filepath.FromSlash(path)))
	return err == nil && sameStat(info, snap.info)
}

func sameStat(now, then fs.FileInfo) bool {
	return now.Mode().IsRegular() && os.SameFile(now, then) && now.Size() == then.Size() &&
		now.ModTime().Equal(then.ModTime()) && now.Mode() == then.Mode()
}

// sameContent streams the file at full and compares it with want.
func sameContent(full string, want []byte) bool {
	f, err := os.Open(full)
	if err != nil {
		return false
	}
	defer f.Close()
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
