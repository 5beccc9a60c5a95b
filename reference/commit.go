package reference

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
)

// staged is one change of a Commit: the folder of its path, held open from
// staging to the last rename, the file's name there and its temp file.
type staged struct {
	change Change
	dir    *treeDir
	name   string
	temp   string // "" once renamed or when there is none
}

// Commit is CommitContext without a way to stop it.
func (w *Workspace) Commit(changes []Change) error {
	return w.CommitContext(context.Background(), changes)
}

// CommitContext makes a plan's changes on disk (WRITE-003 to WRITE-008).
// It stages every new content in a temp file beside its target, locks the
// folders it writes in against other blockpatch processes, re-checks that
// every file the plan read is unchanged and still at its path
// (concurrent_modification otherwise), then renames in order, destination
// before source, and removes paths; right before each rename it re-checks
// the stat of the file it replaces, and a created file never replaces one
// that appeared meanwhile. On any failure before the renames nothing on
// disk changes; no temp file survives any outcome Go can see.
//
// When ctx is done before the first rename, CommitContext removes what it
// staged and made and returns io_error; from the first rename on it
// finishes, so each file is either wholly old or wholly new.
func (w *Workspace) CommitContext(ctx context.Context, changes []Change) (err error) {
	if w.rootErr != nil {
		return w.rootErr
	}
	if w.top == nil {
		return w.unopenedRootError(changes[0])
	}
	w.takeSums()
	var (
		stages []*staged
		made   []madeDir // created folders, outermost first
	)
	defer func() {
		for _, s := range stages {
			if s.temp != "" {
				s.dir.handle.Remove(s.temp)
			}
		}
		if err != nil {
			for i := len(made) - 1; i >= 0; i-- {
				made[i].parent.handle.Remove(made[i].name)
			}
		}
		for _, s := range stages {
			w.closeDir(s.dir)
		}
		for _, m := range made {
			w.closeDir(m.parent)
		}
	}()
	for _, c := range changes {
		full := w.display(c.Path)
		segs := segments(c.Path)
		s := &staged{change: c, name: segs[len(segs)-1]}
		var derr error
		if c.Create {
			var dirs []madeDir
			s.dir, dirs, derr = w.makeDirs(segs[:len(segs)-1])
			made = append(made, dirs...)
		} else {
			s.dir, derr = w.findDir(segs[:len(segs)-1])
		}
		if derr != nil {
			return w.dirError(derr, c, full)
		}
		stages = append(stages, s)
		if !c.Remove {
			if err := s.stage(ctx, w.seen[c.Path], w.writeSegment); err != nil {
				if errors.Is(err, syscall.EFAULT) { // a mapped input shrank
					return &Error{Code: ConcurrentModification, Phase: "io", Path: c.Path, Err: err,
						Message: "an input of " + c.Path + " shrank while it was being written"}
				}
				return FileError(err, full, "io")
			}
		}
	}
	if w.BeforeVerify != nil {
		w.BeforeVerify()
	}
	if err := interrupted(ctx); err != nil {
		return err
	}
	dirs := make([]*treeDir, len(stages))
	for i, s := range stages {
		dirs[i] = s.dir
	}
	unlock, err := lockDirs(ctx, dirs)
	if err != nil {
		return err
	}
	defer unlock()
	if err := w.verify(stages); err != nil {
		return err
	}
	if err := interrupted(ctx); err != nil {
		return err
	}
	// From here on the write finishes whatever ctx says.
	for _, s := range stages {
		if err := w.replace(s); err != nil {
			return err
		}
	}
	return nil
}

// replace makes one staged change: it removes, creates or replaces the
// file, after a last cheap re-check that the folder is still at its path
// and the file it replaces still has its stat. Removing and replacing find
// the folder by its path again (atPath), so a folder moved away after that
// re-check fails them as concurrent_modification. Only a move between that
// finding and the system call still takes the write along (README,
// "Confined to --cwd").
func (w *Workspace) replace(s *staged) error {
	path := s.change.Path
	if !w.stillAt(s) || !w.statUnchanged(s) {
		return &Error{Code: ConcurrentModification, Phase: "write", Path: path,
			Message: path + " changed while the move was being written"}
	}
	var err error
	switch {
	case s.change.Remove:
		err = w.atPath(s, func(d *treeDir) error { return d.handle.Remove(s.name) })
	case s.change.Create:
		err = renameNoReplace(s.dir, s.temp, s.name)
		if errors.Is(err, fs.ErrExist) {
			// Created meanwhile: fine only if it holds the payload (WRITE-007).
			if !holdsExactly(s.dir, s.name, s.change.Bytes()) {
				return &Error{Code: ConcurrentModification, Phase: "write", Path: path,
					Message: path + " was created by someone else while the move was being written"}
			}
			err = nil
		} else if err == nil {
			s.temp = ""
		}
	default:
		err = w.atPath(s, func(d *treeDir) error { return d.handle.Rename(s.temp, s.name) })
		if err == nil {
			s.temp = ""
		}
	}
	// A folder swapped after the re-check fails the rename as missing or
	// as not a folder: whichever, the folder no longer being at its path
	// makes it concurrent_modification.
	if errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENOTDIR) || err != nil && !w.stillAt(s) {
		return &Error{Code: ConcurrentModification, Phase: "write", Path: path, Err: err,
			Message: path + "'s folder moved while the move was being written"}
	}
	if err != nil {
		return FileError(err, path, "io")
	}
	return nil
}

// atPath runs op on the folder that s's path leads to now, walked again
// from the root, if that is still the folder s is staged in; otherwise it
// fails with errDirSwapped.
func (w *Workspace) atPath(s *staged, op func(d *treeDir) error) error {
	segs := segments(s.change.Path)
	d, err := w.findDir(segs[:len(segs)-1])
	if err != nil {
		return err
	}
	defer w.closeDir(d)
	if !sameDir(d, s.dir) {
		return errDirSwapped
	}
	return op(d)
}

// dirError maps a failure to find or make the folder of change c.
func (w *Workspace) dirError(err error, c Change, full string) error {
	var nd *notDirError
	switch {
	case errors.Is(err, errDirSwapped):
	case errors.As(err, &nd) && c.Create:
		return &Error{Code: IOError, Phase: "io", Path: full, Err: err,
			Message: "cannot make the folder " + w.display(nd.rel) + ": a file is in the way"}
	case errors.As(err, &nd), !c.Create && errors.Is(err, fs.ErrNotExist):
	default:
		return FileError(err, full, "io")
	}
	return &Error{Code: ConcurrentModification, Phase: "write", Path: c.Path,
		Message: "a folder on the path " + c.Path + " changed after it was read; nothing was written"}
}

// interrupted is the error of a Commit stopped by ctx, nil while it runs.
func interrupted(ctx context.Context) error {
	if ctx.Err() == nil {
		return nil
	}
	cause := context.Cause(ctx)
	return &Error{Code: IOError, Phase: "io", Err: cause,
		Message: "interrupted (" + cause.Error() + ") before any file was replaced; nothing was written"}
}

// unopenedRootError is the error of staging c under a root that could not
// be opened. Only creations get this far, every other change having read
// its file through the root. A root that is a file fails as the releases
// fail making c's folders (WRITE-014): making the root itself, for a file
// right in it, finds it exists (io_error); making a folder inside it finds
// a file on the way (file_not_found). Either names c's file by its
// absolute path (OUT-020).
func (w *Workspace) unopenedRootError(c Change) error {
	if !errors.Is(w.openErr, syscall.ENOTDIR) {
		return FileError(w.openErr, w.root, "io")
	}
	code := IOError
	if len(segments(c.Path)) > 1 {
		code = FileNotFound
	}
	full := w.display(c.Path)
	return &Error{Code: code, Phase: "io", Path: full, Err: w.openErr,
		Message: "cannot make the folder of " + full + ": " + w.root + " is a file"}
}
