package reference

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestCommitSwappedParent: a folder on the path swapped, after planning,
// for a symlink to a folder outside the root that holds a hard link of the
// same file (so stat and bytes all match) must not lead the write out.
func TestCommitSwappedParent(t *testing.T) {
	t.Parallel()
	for _, when := range []string{"before commit", "before verify"} {
		t.Run(when, func(t *testing.T) {
			t.Parallel()
			outside, root := t.TempDir(), t.TempDir()
			writeTree(t, root, map[string]string{"sub/file.txt": "alpha\nmove me\nomega\ntarget\n"})
			patch := strings.ReplaceAll(relocation, "/file.txt", "/sub/file.txt")
			ws, err := NewWorkspace(root)
			if err != nil {
				t.Fatal(err)
			}
			defer ws.Close()
			plan, err := Check([]byte(patch), ws, Options{Strip: 1})
			if err != nil {
				t.Fatal(err)
			}
			swap := func() {
				must(t, os.Rename(filepath.Join(root, "sub"), filepath.Join(root, "moved")))
				must(t, os.Mkdir(filepath.Join(outside, "sub"), 0o755))
				must(t, os.Link(filepath.Join(root, "moved/file.txt"), filepath.Join(outside, "sub/file.txt")))
				must(t, os.Symlink(filepath.Join(outside, "sub"), filepath.Join(root, "sub")))
			}
			if when == "before commit" {
				swap()
			} else {
				ws.BeforeVerify = swap
			}
			wantCode(t, ws.Commit(plan.Changes), ConcurrentModification)
			want := map[string]string{"sub/": "", "sub/file.txt": "alpha\nmove me\nomega\ntarget\n"}
			if diff := cmp.Diff(want, readTree(t, outside)); diff != "" {
				t.Errorf("outside the root (-want +got):\n%s", diff)
			}
			if info, _ := os.Lstat(filepath.Join(outside, "sub/file.txt")); info.Sys().(*syscall.Stat_t).Nlink != 2 {
				t.Error("the file outside was replaced")
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestCommitLongName: a file whose name has the longest length a name may
// have is patched; the temp file's name does not grow with it.
func TestCommitLongName(t *testing.T) {
	t.Parallel()
	name := strings.Repeat("n", 251) + ".txt"
	root := t.TempDir()
	writeTree(t, root, map[string]string{name: "alpha\nmove me\nomega\ntarget\n"})
	patch := strings.ReplaceAll(relocation, "/file.txt", "/"+name)
	if err := applyOnDisk(t, root, patch, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{name: "alpha\nomega\ntarget\nmove me\n"}
	wantTree(t, root, want)
	create := section("/dev/null", "b/d/"+name, sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	if err := applyOnDisk(t, root, create, nil); err != nil {
		t.Fatal(err)
	}
}

// TestCommitKeepsModeBitsAndOwner: a replaced file keeps its setuid,
// setgid and sticky bits, and, where the process may set them, its owner
// and group, whether both differ from the process's or only one does.
func TestCommitKeepsModeBitsAndOwner(t *testing.T) {
	t.Parallel()
	owners := [][2]int{{os.Geteuid(), os.Getegid()}}
	if os.Geteuid() == 0 {
		owners = [][2]int{{4321, 4322}, {0, 4322}, {4321, 0}}
	}
	for _, owner := range owners {
		t.Run(fmt.Sprintf("%d:%d", owner[0], owner[1]), func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeTree(t, root, map[string]string{"file.txt": "alpha\nmove me\nomega\ntarget\n"})
			full := filepath.Join(root, "file.txt")
			uid, gid := owner[0], owner[1]
			must(t, os.Chown(full, uid, gid))
			mode := fs.FileMode(0o750) | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky
			must(t, os.Chmod(full, mode))
			if err := applyOnDisk(t, root, relocation, nil); err != nil {
				t.Fatal(err)
			}
			info, err := os.Stat(full)
			must(t, err)
			if got := info.Mode() & keptModeBits; got != mode {
				t.Errorf("mode %v, want %v", got, mode)
			}
			st := info.Sys().(*syscall.Stat_t)
			if int(st.Uid) != uid || int(st.Gid) != gid {
				t.Errorf("owner %d:%d, want %d:%d", st.Uid, st.Gid, uid, gid)
			}
		})
	}
}

// TestCommitInterrupted: a Commit whose context ends before its first
// rename removes its temp files and the folders it made, changes nothing
// and fails with io_error.
func TestCommitInterrupted(t *testing.T) {
	t.Parallel()
	create := section("/dev/null", "b/new/deep/file", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	for name, patch := range map[string]string{"cross-file": crossFile, "creation": create} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			files := map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}
			root, ws, plan := checkedTree(t, files, patch)
			ctx, cancel := context.WithCancelCause(context.Background())
			ws.BeforeVerify = func() { cancel(errors.New("signal terminated")) }
			err := ws.CommitContext(ctx, plan.Changes)
			wantCode(t, err, IOError)
			if !strings.Contains(err.Error(), "signal terminated") {
				t.Errorf("message %q does not name the cause", err)
			}
			wantTree(t, root, files)
		})
	}
}

// childRootEnv names the folder a test started again as an unprivileged
// process (unprivileged) works in; set, the test plays its child's part.
const childRootEnv = "BLOCKPATCH_TEST_CHILD_ROOT"

// unprivileged prepares, as root, a folder anyone may write to, and returns
// it with a function that runs the test named test of this binary again
// as user 65534 in the supplementary groups given (setpriv), with
// childRootEnv naming the folder; it fails the test when the child fails.
// It skips unless the test runs as root and setpriv is there.
func unprivileged(t *testing.T) (string, func(test, groups string)) {
	t.Helper()
	if os.Geteuid() != 0 {
		t.Skip("needs root to set up files of another user")
	}
	setpriv, err := exec.LookPath("setpriv")
	if err != nil {
		t.Skip("no setpriv")
	}
	dir, err := os.MkdirTemp("", "unprivileged")
	must(t, err)
	t.Cleanup(func() { os.RemoveAll(dir) })
	must(t, os.Chmod(dir, 0o755))
	bin, err := os.ReadFile(os.Args[0])
	must(t, err)
	must(t, os.WriteFile(filepath.Join(dir, "test"), bin, 0o755))
	root := filepath.Join(dir, "root")
	must(t, os.Mkdir(root, 0o777))
	must(t, os.Chmod(root, 0o777))
	return root, func(test, groups string) {
		cmd := exec.Command(setpriv, "--reuid=65534", "--regid=65534", "--groups="+groups,
			filepath.Join(dir, "test"), "-test.run=^"+test+"$", "-test.count=1")
		cmd.Env = append(os.Environ(), childRootEnv+"="+root)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("the unprivileged child: %v\n%s", err, out)
		}
	}
}

// TestCommitKeepsGroupUnprivileged: a process that may not give a replaced
// file its owner back still gives it its group, when the process belongs
// to that group. Run as root, it sets up a file of root's in group 4322
// and applies in a process of its own, as an unprivileged user in that
// group.
func TestCommitKeepsGroupUnprivileged(t *testing.T) {
	if root := os.Getenv(childRootEnv); root != "" {
		if err := applyOnDisk(t, root, relocation, nil); err != nil {
			t.Fatal(err)
		}
		return
	}
	t.Parallel()
	root, run := unprivileged(t)
	writeTree(t, root, map[string]string{"file.txt": "alpha\nmove me\nomega\ntarget\n"})
	full := filepath.Join(root, "file.txt")
	must(t, os.Chown(full, 0, 4322))
	must(t, os.Chmod(full, 0o644))
	run("TestCommitKeepsGroupUnprivileged", "4322")
	info, err := os.Stat(full)
	must(t, err)
	if st := info.Sys().(*syscall.Stat_t); st.Uid != 65534 || st.Gid != 4322 {
		t.Errorf("owner %d:%d after the unprivileged apply, want 65534:4322 (its own user, the file's group)", st.Uid, st.Gid)
	}
}

// TestCommitRootErrors: a root that is a file fails a creation as the
// releases fail making its folders (WRITE-014), naming the new file; any
// other root that cannot be opened, as a closed Workspace's, is reported
// for the root itself.
func TestCommitRootErrors(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	file := filepath.Join(dir, "f")
	if err := os.WriteFile(file, []byte("x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		name, root, path string
		closed           bool
		code             Code
		want             string
	}{
		{"file root, file in it", file, "new.txt", false, IOError, filepath.Join(file, "new.txt")},
		{"file root, file below it", file, "d/new.txt", false, FileNotFound, filepath.Join(file, "d", "new.txt")},
		{"closed root", dir, "new.txt", true, IOError, dir},
	} {
		ws, err := NewWorkspace(tt.root)
		if err != nil {
			t.Fatal(err)
		}
		if tt.closed {
			ws.Close()
		}
		err = ws.Commit([]Change{{Path: tt.path, Data: [][]byte{[]byte("x\n")}, Create: true}})
		ws.Close()
		var e *Error
		if !errors.As(err, &e) || e.Code != tt.code || e.Path != tt.want || e.Phase != "io" {
			t.Errorf("%s: got %v, want %s in phase io naming %s", tt.name, err, tt.code, tt.want)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "new.txt")); err == nil {
		t.Error("a closed Workspace's Commit wrote new.txt")
	}
}
