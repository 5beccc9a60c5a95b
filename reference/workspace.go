package reference

import (
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
// Every access below the root goes through the folders held open on the
// way to it (dirHandle), one path component at a time and without following
// symlinks, so no symlink or ".." can lead outside the root whatever
// changes underneath.
//
// A Workspace remembers every file it read, so Commit can prove nothing
// changed underneath the plan. Use one Workspace per operation, and Close
// it when done.
type Workspace struct {
	// root is the root as given, made absolute: messages name a file's
	// absolute path under it, through a symlink if --cwd is one (OUT-020).
	root string
	// base is the root as given, made absolute without following
	// symlinks: the folder upstream resolves operation paths against
	// (see leaves).
	base string
	// rootErr is why the root cannot be resolved; every read reports it.
	rootErr error
	// top is the root held open; nil when it cannot be opened, with
	// openErr saying why (every path's lookup reports it).
	top     *treeDir
	openErr error
	seen    map[string]snapshot
	// peeked holds the files peek read, until ReadFile reads them.
	peeked map[string]snapshot
	// InputLimit caps the size of a file ReadFile reads, in bytes; zero
	// means DefaultInputLimit.
	InputLimit int64
	// BeforeVerify, when set, runs after every file is staged and before the
	// inputs are re-checked. Tests use it to inject concurrent changes.
	BeforeVerify func()
	// ReadOnly says Commit will not be called (check, plan, dry runs):
	// mapped files are then read without the checksum that Commit's
	// re-check compares, and a Commit finds them changed.
	ReadOnly bool
	maps     []*mapping // every file mapped, released by Close
}

// snapshot is what ReadFile saw at a path.
type snapshot struct {
	absent bool
	data   []byte
	info   fs.FileInfo
	mapped *mapping // nil when data is a private copy
}

// NewWorkspace opens root as the directory operations are confined to. As
// upstream does, the root is judged only when a path is first read: a
// missing root makes every ReadFile fail with file_not_found naming the
// absolute root (phase path), before the path itself is checked; a root
// that is not a directory makes every path file_not_found.
func NewWorkspace(root string) (*Workspace, error) {
	abs, err := absolute(root)
	if err != nil {
		return nil, FileError(err, root, "path")
	}
	w := &Workspace{root: abs, base: filepath.ToSlash(abs), seen: map[string]snapshot{}, peeked: map[string]snapshot{}}
	real, err := filepath.EvalSymlinks(abs)
	if err != nil {
		w.rootErr = FileError(err, abs, "path")
		return w, nil
	}
	if info, err := os.Stat(real); err == nil && !info.IsDir() {
		w.openErr = &fs.PathError{Op: "lstat", Path: real, Err: syscall.ENOTDIR}
	} else if h, err := openDirHandle(real); err != nil {
		w.openErr = err
	} else {
		w.top = &treeDir{handle: h}
	}
	return w, nil
}

// Close releases the root and the files the Workspace mapped. The
// Workspace must not be used afterwards, nor any slice of a file's bytes,
// from ReadFile or in a plan's changes.
func (w *Workspace) Close() error {
	var first error
	for _, m := range w.maps {
		if err := m.release(); err != nil && first == nil {
			first = err
		}
	}
	w.maps = nil
	if w.top != nil {
		if err := w.top.handle.Close(); err != nil && first == nil {
			first = err
		}
		w.top = nil
		w.openErr = fs.ErrClosed
	}
	return first
}

// Root returns the workspace's absolute root with symlinks resolved.
func (w *Workspace) Root() string { return w.root }

// absolute returns root made absolute as upstream does it: against the
// working directory as the kernel reports it (os.Getwd prefers $PWD, which
// may reach it through a symlink), cleaned without following symlinks.
func absolute(root string) (string, error) {
	if filepath.IsAbs(root) {
		return filepath.Clean(root), nil
	}
	wd, err := syscall.Getwd()
	if err != nil {
		return "", err
	}
	return filepath.Join(wd, root), nil
}

// folder implements placed.
func (w *Workspace) folder() string { return w.base }

// display is the absolute path that messages give for an operation path.
func (w *Workspace) display(path string) string {
	return filepath.Join(w.root, filepath.FromSlash(path))
}

// ReadFile implements Files. Besides the codes of checkTreePath it returns,
// with phase "path", symlink_path for a path with a symlink component
// (wherever it leads), not_regular_file, and file_not_found for a missing
// path or one whose parent is not a directory; a failing read is
// permission_denied or io_error with phase "io", and so is a file larger
// than the input limit.
func (w *Workspace) ReadFile(path string) ([]byte, error) {
	if w.rootErr != nil {
		e := *w.rootErr.(*Error)
		return nil, &e
	}
	if snap, ok := w.peeked[path]; ok {
		delete(w.peeked, path)
		w.seen[path] = snap
		return snap.data, nil
	}
	d, name, info, err := w.resolve(path)
	if err != nil {
		if errors.Is(err, &Error{Code: FileNotFound}) {
			w.seen[path] = snapshot{absent: true}
		}
		return nil, err
	}
	snap, err := w.readFound(d, name, info, path)
	if err != nil {
		return nil, err
	}
	w.seen[path] = snap
	return snap.data, nil
}

// linked implements linker: a and b were read as one file, by device and
// inode.
func (w *Workspace) linked(a, b string) bool {
	sa, oka := w.seen[a]
	sb, okb := w.seen[b]
	return oka && okb && !sa.absent && !sb.absent && os.SameFile(sa.info, sb.info)
}

// readFound reads the file name of d that resolve found for path, within
// the input limit, and closes d; Close releases the file if it is mapped.
func (w *Workspace) readFound(d *treeDir, name string, info fs.FileInfo, path string) (snapshot, error) {
	defer w.closeDir(d)
	if limit := w.inputLimit(); info.Size() > limit {
		return snapshot{}, tooLarge(path, limit)
	}
	snap, err := readRegular(d, name, info, !w.ReadOnly)
	if err != nil {
		return snapshot{}, FileError(err, path, "io")
	}
	if snap.mapped != nil {
		w.maps = append(w.maps, snap.mapped)
	}
	return snap, nil
}

// peek reads path as ReadFile does, for ReadPatch to find a patch's long
// lines in, without the file counting among those read: ReadFile hands
// the bytes over, as read then, if the operation reads the file. It
// returns nil for a file ReadFile would refuse.
func (w *Workspace) peek(path string) []byte {
	if snap, ok := w.peeked[path]; ok {
		return snap.data
	}
	if w.rootErr != nil {
		return nil
	}
	d, name, info, err := w.resolve(path)
	if err != nil {
		return nil
	}
	snap, err := w.readFound(d, name, info, path)
	if err != nil {
		return nil
	}
	w.peeked[path] = snap
	return snap.data
}

func (w *Workspace) inputLimit() int64 {
	if w.InputLimit > 0 {
		return w.InputLimit
	}
	return DefaultInputLimit
}

// readRegular reads the file name of d that Lstat showed as seen, with the
// stat of the opened file. The opened file must be the one looked up: one
// swapped in between is concurrent_modification. A large file is mapped,
// with the checksum of its bytes when sum is set (see mapThreshold).
func readRegular(d *treeDir, name string, seen fs.FileInfo, sum bool) (snap snapshot, err error) {
	// O_NONBLOCK: a FIFO swapped in after the lookup must not block the open.
	swapped := &Error{Code: ConcurrentModification, Phase: "io", Message: name + " changed while being opened"}
	f, err := d.handle.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if errors.Is(err, syscall.ELOOP) { // a symlink now, which is not followed
		return snapshot{}, swapped
	}
	if err != nil {
		return snapshot{}, err
	}
	defer func() {
		if snap.mapped == nil { // a mapped file stays open until Close
			f.Close()
		}
	}()
	info, err := f.Stat()
	if err != nil {
		return snapshot{}, err
	}
	if !info.Mode().IsRegular() || !os.SameFile(info, seen) {
		return snapshot{}, swapped
	}
	snap.info = info
	if snap.mapped, err = mapRegular(f, info, sum); err != nil {
		return snapshot{}, err
	}
	if snap.mapped != nil {
		snap.data = snap.mapped.data
		return snap, nil
	}
	snap.data = make([]byte, info.Size())
	if _, err := io.ReadFull(f, snap.data); err != nil {
		return snapshot{}, err
	}
	if n, _ := f.Read(make([]byte, 1)); n != 0 { // grew while reading
		return snapshot{}, &Error{Code: ConcurrentModification, Phase: "io", Message: name + " changed while being read"}
	}
	return snap, nil
}

// resolve checks an operation path and walks it component by component
// below the root, refusing symlinks and non-directories on the way. Empty
// segments are skipped. It returns the file's folder, held open, its name
// there and its Lstat.
func (w *Workspace) resolve(path string) (*treeDir, string, fs.FileInfo, error) {
	if err := checkTreePath(w.base, path); err != nil {
		return nil, "", nil, err
	}
	if w.top == nil {
		return nil, "", nil, FileError(w.openErr, path, "path")
	}
	segs := segments(path)
	d := w.top
	for i, seg := range segs {
		rel := strings.Join(segs[:i+1], "/")
		info, err := d.handle.Lstat(seg)
		if err != nil {
			w.closeDir(d)
			return nil, "", nil, FileError(err, path, "path")
		}
		var bad error
		switch mode := info.Mode(); {
		case mode&fs.ModeSymlink != 0:
			bad = &Error{Code: SymlinkPath, Phase: "path", Path: path,
				Message: path + " passes through the symlink " + rel}
		case i < len(segs)-1 && !mode.IsDir():
			bad = &Error{Code: FileNotFound, Phase: "path", Path: path,
				Message: rel + " is not a directory, in path " + path}
		case i == len(segs)-1 && !mode.IsRegular():
			bad = &Error{Code: NotRegularFile, Phase: "path", Path: path,
				Message: path + " is not a regular file"}
		case i == len(segs)-1:
			return d, seg, info, nil
		}
		var next *treeDir
		if bad == nil {
			if next, err = d.enter(seg, info); err != nil {
				bad = w.pathChanged(err, path)
			}
		}
		w.closeDir(d)
		if bad != nil {
			return nil, "", nil, bad
		}
		d = next
	}
	return nil, "", nil, &Error{Code: InvalidPath, Phase: "path", Path: path, Message: "invalid path " + path}
}

// pathChanged maps an error of entering a folder while resolving path.
func (w *Workspace) pathChanged(err error, path string) error {
	if errors.Is(err, errDirSwapped) {
		return &Error{Code: ConcurrentModification, Phase: "path", Path: path,
			Message: "a folder on the path " + path + " changed while it was being resolved"}
	}
	return FileError(err, path, "path")
}

// FileError maps a failed file-system call on path to its spec code (the CLI's input files too).
func FileError(err error, path, phase string) error {
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
