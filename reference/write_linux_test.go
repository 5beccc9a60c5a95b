package reference

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
	"golang.org/x/sys/unix"
)

// TestReadFileInputLimitSmallest: a limit of one byte is a limit, and a
// zero limit means DefaultInputLimit.
func TestReadFileInputLimitSmallest(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f": "12345"})
	for _, tt := range []struct {
		limit int64
		code  Code
	}{
		{0, ""},
		{1, IOError},
		{5, ""},
	} {
		ws, err := NewWorkspace(root)
		must(t, err)
		ws.InputLimit = tt.limit
		data, err := ws.ReadFile("f")
		var code Code
		if err != nil {
			code = CodeOf(err)
		}
		if code != tt.code || (tt.code == "" && string(data) != "12345") {
			t.Errorf("limit %d: %q, %v; want %q", tt.limit, data, err, tt.code)
		}
		ws.Close()
	}
}

// fsImmutable is FS_IMMUTABLE_FL of linux/fs.h.
const fsImmutable = 0x10

// setImmutable sets or clears the immutable attribute of path (chattr +i),
// skipping the test where that cannot be done (no root, a filesystem
// without the attribute).
func setImmutable(t *testing.T, path string, on bool) {
	t.Helper()
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	flags, err := unix.IoctlGetInt(int(f.Fd()), unix.FS_IOC_GETFLAGS)
	if err != nil {
		t.Skipf("no file attributes here: %v", err)
	}
	if on {
		flags |= fsImmutable
	} else {
		flags &^= fsImmutable
	}
	if err := unix.IoctlSetPointerInt(int(f.Fd()), unix.FS_IOC_SETFLAGS, flags); err != nil {
		t.Skipf("cannot set the immutable attribute (root on ext4, xfs or btrfs needed): %v", err)
	}
}

// TestCommitRenameFails: a destination made immutable after staging (which
// the re-check, reading only, does not notice) cannot be replaced: the
// rename's failure is reported, the source (renamed after the destination)
// is not written, and no temp file is left. Needs root.
func TestCommitRenameFails(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	files := map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}
	writeTree(t, root, files)
	// a probe, so a machine without the attribute skips before the Commit
	setImmutable(t, filepath.Join(root, "b"), true)
	setImmutable(t, filepath.Join(root, "b"), false)
	defer setImmutable(t, filepath.Join(root, "b"), false)
	err := applyOnDisk(t, root, crossFile, func() { setImmutable(t, filepath.Join(root, "b"), true) })
	wantCode(t, err, PermissionDenied)
	wantTree(t, root, files) // also proves no temp file is left
}

// TestCommitInterruptedAndChanged: a Commit stopped before its re-check
// says so (io_error) even when a file it read changed meanwhile too.
func TestCommitInterruptedAndChanged(t *testing.T) {
	t.Parallel()
	root, ws, plan := checkedTree(t, map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}, crossFile)
	ctx, cancel := context.WithCancelCause(context.Background())
	ws.BeforeVerify = func() {
		cancel(errors.New("signal terminated"))
		must(t, os.WriteFile(filepath.Join(root, "b"), []byte("T\n"), 0o644))
	}
	wantCode(t, ws.CommitContext(ctx, plan.Changes), IOError)
	want := map[string]string{"a": "s\none\ntwo\nthree\n", "b": "T\n"}
	wantTree(t, root, want)
}

// stopAtSecondLook is a context that is done from the second time Commit
// looks at it after armed is set: the look right after staging passes, the
// next one (waiting for a lock) finds it done.
type stopAtSecondLook struct {
	context.Context
	armed atomic.Bool
	looks atomic.Int32
}

func (c *stopAtSecondLook) Err() error {
	if c.armed.Load() && c.looks.Add(1) > 1 {
		return context.Canceled
	}
	return nil
}

// TestCommitInterruptedWaitingForLock: a Commit waiting for a folder
// another blockpatch process holds locked stops when its context ends,
// with io_error, writing nothing.
func TestCommitInterruptedWaitingForLock(t *testing.T) {
	t.Parallel()
	files := map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}
	root, ws, plan := checkedTree(t, files, crossFile)
	holder, err := os.Open(root)
	must(t, err)
	defer holder.Close()
	ctx := &stopAtSecondLook{Context: context.Background()}
	ws.BeforeVerify = func() {
		must(t, unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB))
		ctx.armed.Store(true)
	}
	err = noPanic(func() error {
		return ws.CommitContext(ctx, plan.Changes)
	})
	wantCode(t, err, IOError)
	wantTree(t, root, files)
}

// TestLockDirs: lockDirs holds an exclusive lock on each distinct folder it
// is given until unlock, where another open file of the folder cannot take
// one; a folder given twice is locked once; and waiting for a folder locked
// elsewhere ends with io_error when the context is done.
func TestLockDirs(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	must(t, os.Mkdir(filepath.Join(root, "x"), 0o755))
	must(t, os.Mkdir(filepath.Join(root, "y"), 0o755))
	ws, err := NewWorkspace(root)
	must(t, err)
	defer ws.Close()
	var dirs []*treeDir
	for _, name := range []string{"x", "y", "x"} {
		d, err := ws.findDir([]string{name})
		must(t, err)
		defer ws.closeDir(d)
		dirs = append(dirs, d)
	}
	dirs = append(dirs, ws.top)
	// try reports, for each folder, whether another open file of it can
	// take the lock now; it lets the lock go again.
	try := func() map[string]bool {
		got := map[string]bool{}
		for _, name := range []string{".", "x", "y"} {
			f, err := os.Open(filepath.Join(root, name))
			must(t, err)
			got[name] = unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB) == nil
			f.Close()
		}
		return got
	}
	unlock, err := lockDirs(context.Background(), dirs)
	must(t, err)
	if diff := cmp.Diff(map[string]bool{".": false, "x": false, "y": false}, try()); diff != "" {
		t.Errorf("while locked, lockable elsewhere (-want +got):\n%s", diff)
	}
	unlock()
	if diff := cmp.Diff(map[string]bool{".": true, "x": true, "y": true}, try()); diff != "" {
		t.Errorf("after unlock, lockable elsewhere (-want +got):\n%s", diff)
	}

	// Hold the folder locked last (the highest inode), so the failed
	// lockDirs has taken the others first and must let them go.
	last, lastIno := "", uint64(0)
	for _, name := range []string{".", "x", "y"} {
		info, err := os.Stat(filepath.Join(root, name))
		must(t, err)
		if ino := info.Sys().(*syscall.Stat_t).Ino; ino >= lastIno {
			last, lastIno = name, ino
		}
	}
	holder, err := os.Open(filepath.Join(root, last))
	must(t, err)
	defer holder.Close()
	must(t, unix.Flock(int(holder.Fd()), unix.LOCK_EX|unix.LOCK_NB))
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("signal terminated"))
	unlock, err = lockDirs(ctx, dirs)
	wantCode(t, err, IOError)
	if unlock != nil {
		t.Error("a failed lockDirs returned an unlock function")
	}
	holder.Close()
	if diff := cmp.Diff(map[string]bool{".": true, "x": true, "y": true}, try()); diff != "" {
		t.Errorf("after a failed lockDirs, lockable elsewhere (-want +got):\n%s", diff)
	}
}

// TestCommitFolderChanged: a folder on the path of a file the plan reads,
// moved away, replaced by a file, or replaced by another folder holding a
// hard link of the same file (so stat and bytes all match), between the
// read and the Commit or before the re-check, is concurrent_modification,
// and nothing is written: in a cross-file move the destination, renamed
// first, keeps its bytes when the source's folder changed.
func TestCommitFolderChanged(t *testing.T) {
	t.Parallel()
	inSub := section("a/sub/a", "b/sub/a", sha(payload3), "role=source") +
		"@@ -1,4 +1,1 @@ blockpatch-source id=move-1\n s\n-one\n-two\n-three\n\n" +
		section("a/b", "b/b", sha(payload3), "role=target") +
		"@@ -1,1 +1,4 @@ blockpatch-target id=move-1\n t\n+one\n+two\n+three\n"
	moveAway := func(root string) {
		must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "moved")))
	}
	tests := []struct {
		name         string
		before, hook func(root string) // before the Commit, and before its re-check
		want         map[string]string
	}{
		{"moved away before commit", moveAway, nil,
			map[string]string{"moved/": "", "moved/a": "s\none\ntwo\nthree\n", "b": "t\n"}},
		{"moved away before verify", nil, moveAway,
			map[string]string{"moved/": "", "moved/a": "s\none\ntwo\nthree\n", "b": "t\n"}},
		{"replaced by a file before commit", func(root string) {
			moveAway(root)
			must(t, os.WriteFile(filepath.Join(root, "sub"), []byte("f\n"), 0o644))
		}, nil, map[string]string{"moved/": "", "moved/a": "s\none\ntwo\nthree\n", "sub": "f\n", "b": "t\n"}},
		{"replaced by another folder before verify", nil, func(root string) {
			moveAway(root)
			must(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
			must(t, os.Link(filepath.Join(root, "moved/a"), filepath.Join(root, "sub/a")))
		}, map[string]string{"moved/": "", "moved/a": "s\none\ntwo\nthree\n", "sub/": "", "sub/a": "s\none\ntwo\nthree\n", "b": "t\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, ws, plan := checkedTree(t, map[string]string{"sub/a": "s\none\ntwo\nthree\n", "b": "t\n"}, inSub)
			if tt.before != nil {
				tt.before(root)
			}
			if tt.hook != nil {
				ws.BeforeVerify = func() { tt.hook(root) }
			}
			err := noPanic(func() error {
				return ws.Commit(plan.Changes)
			})
			wantCode(t, err, ConcurrentModification)
			wantTree(t, root, tt.want)
		})
	}
}

// TestCommitDestinationSymlinkedMeanwhile: a symlink put where a file is
// to be created, before the re-check, is concurrent_modification even when
// it leads to a file holding exactly the payload; it is left alone.
func TestCommitDestinationSymlinkedMeanwhile(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"holder.txt": "x\n"})
	create := section("/dev/null", "b/new.txt", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	err := applyOnDisk(t, root, create, func() { must(t, os.Symlink("holder.txt", filepath.Join(root, "new.txt"))) })
	wantCode(t, err, ConcurrentModification)
	want := map[string]string{"holder.txt": "x\n", "new.txt": "->holder.txt"}
	wantTree(t, root, want)
}

// TestEnterSwappedFolder: a folder swapped between its Lstat and its
// opening, for another folder, a symlink to it (not followed) or a file,
// is errDirSwapped, which a path lookup reports as concurrent_modification
// in phase path.
func TestEnterSwappedFolder(t *testing.T) {
	t.Parallel()
	for _, swap := range []string{"folder", "symlink", "file"} {
		t.Run(swap, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			must(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
			ws, err := NewWorkspace(root)
			must(t, err)
			defer ws.Close()
			seen, err := ws.top.handle.Lstat("sub")
			must(t, err)
			must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "old")))
			switch swap {
			case "folder":
				must(t, os.Mkdir(filepath.Join(root, "sub"), 0o755))
			case "symlink":
				must(t, os.Symlink("old", filepath.Join(root, "sub")))
			case "file":
				must(t, os.WriteFile(filepath.Join(root, "sub"), nil, 0o644))
			}
			d, err := ws.top.enter("sub", seen)
			if d != nil || !errors.Is(err, errDirSwapped) {
				ws.closeDir(d)
				t.Fatalf("enter of a swapped folder: %v, %v; want errDirSwapped", d, err)
			}
			err = ws.pathChanged(err, "sub/f.txt")
			wantCode(t, err, ConcurrentModification)
			if e := err.(*Error); e.Phase != "path" || e.Path != "sub/f.txt" {
				t.Errorf("phase %q path %q, want path sub/f.txt", e.Phase, e.Path)
			}
		})
	}
}

// TestReadRegularSwapped: a file swapped, between its Lstat and its
// opening, for another file, a FIFO or a symlink (which is not followed)
// is concurrent_modification, and FileError keeps that code, filling in
// the path when it has none.
func TestReadRegularSwapped(t *testing.T) {
	t.Parallel()
	for _, swap := range []string{"file", "fifo", "symlink"} {
		t.Run(swap, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeTree(t, root, map[string]string{"f": "old\n"})
			ws, err := NewWorkspace(root)
			must(t, err)
			defer ws.Close()
			seen, err := ws.top.handle.Lstat("f")
			must(t, err)
			must(t, os.Rename(filepath.Join(root, "f"), filepath.Join(root, "old")))
			switch swap {
			case "file":
				must(t, os.WriteFile(filepath.Join(root, "f"), []byte("new\n"), 0o644))
			case "fifo":
				must(t, unix.Mkfifo(filepath.Join(root, "f"), 0o644))
			case "symlink":
				must(t, os.Symlink("old", filepath.Join(root, "f")))
			}
			_, err = readRegular(ws.top, "f", seen, false)
			wantCode(t, err, ConcurrentModification)
			err = FileError(err, "f", "io")
			wantCode(t, err, ConcurrentModification)
			if e := err.(*Error); e.Path != "f" {
				t.Errorf("path %q, want f", e.Path)
			}
		})
	}
	err := FileError(&Error{Code: ConcurrentModification, Phase: "io", Path: "g"}, "f", "io")
	if e, ok := err.(*Error); !ok || e.Code != ConcurrentModification || e.Path != "g" {
		t.Errorf("FileError of an error naming g: %#v, want concurrent_modification naming g", err)
	}
}

// TestReplaceAfterReCheck: the last checks right before a rename, for a
// change made after the re-check: a replaced file rewritten, a created
// file created by someone else with other bytes, the folder moved away,
// the temp file gone. Each is concurrent_modification, and the other
// writer's file is kept.
func TestReplaceAfterReCheck(t *testing.T) {
	t.Parallel()
	create := func(path string) string {
		return section("/dev/null", "b/"+path, sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	}
	inSub := strings.ReplaceAll(relocation, "/file.txt", "/sub/file.txt")
	tests := []struct {
		name   string
		patch  string
		change func(root string, s *staged)
		want   map[string]string
	}{
		{"replaced file rewritten", inSub, func(root string, s *staged) {
			must(t, os.WriteFile(filepath.Join(root, "sub/file.txt"), []byte("other\n"), 0o644))
		}, map[string]string{"sub/": "", "sub/file.txt": "other\n"}},
		{"created file made by someone else", create("sub/new.txt"), func(root string, s *staged) {
			must(t, os.WriteFile(filepath.Join(root, "sub/new.txt"), []byte("y\n"), 0o644))
		}, map[string]string{"sub/": "", "sub/file.txt": "alpha\nmove me\nomega\ntarget\n", "sub/new.txt": "y\n"}},
		{"folder of a created file moved away", create("sub/new.txt"), func(root string, s *staged) {
			must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "moved")))
		}, map[string]string{"moved/": "", "moved/file.txt": "alpha\nmove me\nomega\ntarget\n"}},
		{"temp file of a replaced file gone", inSub, func(root string, s *staged) {
			must(t, os.Remove(filepath.Join(root, "sub", s.temp)))
		}, map[string]string{"sub/": "", "sub/file.txt": "alpha\nmove me\nomega\ntarget\n"}},
		{"temp file of a created file gone", create("sub/new.txt"), func(root string, s *staged) {
			must(t, os.Remove(filepath.Join(root, "sub", s.temp)))
		}, map[string]string{"sub/": "", "sub/file.txt": "alpha\nmove me\nomega\ntarget\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root, ws, plan := checkedTree(t, map[string]string{"sub/file.txt": "alpha\nmove me\nomega\ntarget\n"}, tt.patch)
			if len(plan.Changes) != 1 {
				t.Fatalf("%d changes, want 1", len(plan.Changes))
			}
			c := plan.Changes[0]
			s := &staged{change: c, name: path.Base(c.Path)}
			var err error
			s.dir, err = ws.findDir([]string{"sub"})
			must(t, err)
			defer ws.closeDir(s.dir)
			must(t, s.stage(context.Background(), ws.seen[c.Path], ws.writeSegment))
			tt.change(root, s)
			err = noPanic(func() error {
				return ws.replace(s)
			})
			if s.temp != "" {
				s.dir.handle.Remove(s.temp)
			}
			wantCode(t, err, ConcurrentModification)
			wantTree(t, root, tt.want)
		})
	}
}

// TestNewWorkspaceRelative: a relative root is taken from the process's
// working directory (the CLI run in-process joins it to its Dir first).
func TestNewWorkspaceRelative(t *testing.T) {
	t.Parallel()
	want, err := filepath.Abs("testdata")
	must(t, err)
	want, err = filepath.EvalSymlinks(want)
	must(t, err)
	ws, err := NewWorkspace("testdata")
	must(t, err)
	defer ws.Close()
	if ws.Root() != want || ws.rootErr != nil || ws.top == nil {
		t.Errorf("root %q (%v), want %q", ws.Root(), ws.rootErr, want)
	}
}

// TestNewWorkspaceWithoutWorkingDirectory: a relative root cannot be made
// absolute when the working directory has been removed; that is an error
// of NewWorkspace, not a root of its own. (Not parallel: it changes the
// process's working directory.)
func TestNewWorkspaceWithoutWorkingDirectory(t *testing.T) {
	gone := filepath.Join(t.TempDir(), "gone")
	must(t, os.Mkdir(gone, 0o755))
	t.Chdir(gone)
	must(t, os.Remove(gone))
	if _, err := syscall.Getwd(); err == nil {
		t.Skip("the system still reports a removed working directory")
	}
	ws, err := NewWorkspace("tree")
	if err == nil {
		ws.Close()
		t.Fatalf("NewWorkspace in a removed working directory: root %q, no error", ws.Root())
	}
	if e, ok := err.(*Error); !ok || e.Phase != "path" || e.Path != "tree" {
		t.Errorf("error %#v, want one in phase path naming tree", err)
	}
}

// TestHoldsExactlyReadError: a regular file whose read fails (here
// /proc/self/mem, which reads EIO at offset 0 and reports size 0) does
// not hold even the empty content.
func TestHoldsExactlyReadError(t *testing.T) {
	t.Parallel()
	h, err := openDirHandle("/proc/self")
	if err != nil {
		t.Skipf("no /proc: %v", err)
	}
	defer h.Close()
	if info, err := os.Stat("/proc/self/mem"); err != nil || !info.Mode().IsRegular() || info.Size() != 0 {
		t.Skipf("/proc/self/mem is not an empty regular file here: %v", err)
	}
	if holdsExactly(&treeDir{handle: h}, "mem", nil) {
		t.Error("a file that cannot be read holds the empty content")
	}
}

// TestHeldFolderStatFails: when the stat of a held folder fails (here
// because its handle is closed, standing for an I/O error), sameDir says
// the folders differ and lockDirs fails with io_error.
func TestHeldFolderStatFails(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	ws, err := NewWorkspace(root)
	must(t, err)
	defer ws.Close()
	h, err := openDirHandle(root)
	must(t, err)
	h.Close()
	broken := &treeDir{handle: h}
	if sameDir(broken, ws.top) || sameDir(ws.top, broken) {
		t.Error("sameDir with a folder that cannot be stat'ed: true, want false")
	}
	err = noPanic(func() error {
		unlock, err := lockDirs(context.Background(), []*treeDir{ws.top, broken})
		if err == nil {
			unlock()
		}
		return err
	})
	wantCode(t, err, IOError)
}

// TestMappedFileEmptiedBeforeStaging: a mapped file emptied before staging
// makes the first write of its bytes fault (EFAULT, the bytes are no longer
// there): concurrent_modification while staging (phase io), not an
// io_error, nor a short temp file going on to the re-check.
func TestMappedFileEmptiedBeforeStaging(t *testing.T) {
	t.Parallel()
	ws, plan, _ := mappedWorkspace(t, false)
	full := filepath.Join(ws.Root(), "big")
	must(t, os.Truncate(full, 0))
	err := ws.Commit(plan.Changes)
	wantCode(t, err, ConcurrentModification)
	if e := err.(*Error); e.Phase != "io" {
		t.Errorf("phase %q, want io (while staging)", e.Phase)
	}
	if got := readTree(t, ws.Root()); len(got) != 1 || got["big"] != "" {
		t.Errorf("after the refused commit: %d files, big %d bytes; want big alone and empty", len(got), len(got["big"]))
	}
}

// TestReplaceCreationRenameFails: when the no-replace rename of a created
// file fails (its temp file made immutable here), replace reports it and
// keeps the temp file's name, so Commit's cleanup still removes it. Needs
// root.
func TestReplaceCreationRenameFails(t *testing.T) {
	t.Parallel()
	create := section("/dev/null", "b/new.txt", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	root, ws, plan := checkedTree(t, map[string]string{"keep.txt": "k\n"}, create)
	c := plan.Changes[0]
	s := &staged{change: c, dir: ws.top, name: c.Path}
	must(t, s.stage(context.Background(), ws.seen[c.Path], ws.writeSegment))
	temp := s.temp
	defer os.Remove(filepath.Join(root, temp))
	defer setImmutable(t, filepath.Join(root, temp), false)
	setImmutable(t, filepath.Join(root, temp), true)
	wantCode(t, ws.replace(s), PermissionDenied)
	if s.temp != temp {
		t.Errorf("after the failed rename the temp file is %q, want %q still to be removed", s.temp, temp)
	}
	if _, err := os.Stat(filepath.Join(root, "new.txt")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("new.txt: %v, want it absent", err)
	}
}

// noPanic runs f and turns a panic into an error, so a mutant that
// crashes fails the test's check of the code instead of the test binary.
func noPanic(f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return f()
}
