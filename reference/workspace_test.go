package reference

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree creates files under dir; a value starting with "->" makes a
// symlink to the rest of it.
func writeTree(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		full := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		var err error
		if target, ok := strings.CutPrefix(content, "->"); ok {
			err = os.Symlink(target, full)
		} else {
			err = os.WriteFile(full, []byte(content), 0o644)
		}
		if err != nil {
			t.Fatal(err)
		}
	}
}

// readTree returns every regular file and directory under dir.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			out[rel] = "->" + target
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// wantTree fails t with the difference when the tree under root is not
// want, as readTree reads it (a temp file left behind shows too).
func wantTree(t *testing.T, root string, want map[string]string) {
	t.Helper()
	if diff := cmp.Diff(want, readTree(t, root)); diff != "" {
		t.Errorf("tree (-want +got):\n%s", diff)
	}
}

// TestWorkspaceReadErrors checks the codes upstream 1.1.0 gives for
// operation paths: any symlink component is symlink_path, a file used as a
// folder is file_not_found, escaping paths are path_outside_cwd.
func TestWorkspaceReadErrors(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	writeTree(t, outside, map[string]string{"secret": "s\n"})
	root := t.TempDir()
	writeTree(t, root, map[string]string{
		"file":            "x\n",
		"dir/inner":       "y\n",
		"link-in":         "->file",
		"link-out":        "->" + filepath.Join(outside, "secret"),
		"linkdir":         "->dir",
		"linkdir-out":     "->" + outside,
		"dangling":        "->nowhere",
		"dangling-out":    "->../../nowhere",
		"dir/nested-link": "->../file",
	})
	if err := syscall.Mkfifo(filepath.Join(root, "fifo"), 0o644); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		path string
		code Code
	}{
		{"file", ""},
		{"dir/inner", ""},
		{"missing", FileNotFound},
		{"nodir/missing", FileNotFound},
		{"link-in", SymlinkPath},
		{"link-out", SymlinkPath},
		{"linkdir/inner", SymlinkPath},
		{"linkdir-out/secret", SymlinkPath},
		{"dangling", SymlinkPath},
		{"dangling-out", SymlinkPath},
		{"dir/nested-link", SymlinkPath},
		{"dir", NotRegularFile},
		{"fifo", NotRegularFile},
		{"file/below", FileNotFound},
		{"../escape", PathOutsideCwd},
		{"dir/../../escape", PathOutsideCwd},
		{"dir/../file", InvalidPath},
		{"./file", InvalidPath},
		{"..", PathOutsideCwd},
		{".", InvalidPath},
		{`..\file`, InvalidPath},
		{"/etc/passwd", PathOutsideCwd},
		{`/x\f`, PathOutsideCwd},
		{"dir//inner", ""},
		{"dir/inner/", ""},
		{strings.Repeat("n", 300), IOError},
	}
	for _, tt := range tests {
		t.Run(tt.path, func(t *testing.T) {
			t.Parallel()
			ws, err := NewWorkspace(root)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ws.ReadFile(tt.path)
			wantCode(t, err, tt.code)
		})
	}
}

// TestDotDotResolvesAgainstTheRoot checks PATH-002's two answers for a ".."
// path that climbs out of the root and back in: a Workspace resolves it
// against the root as given, symlinks not followed, and finds it inside
// (invalid_path); MapFiles has no place on disk and finds it outside.
func TestDotDotResolvesAgainstTheRoot(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"file": "x\n"})
	link := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	name := filepath.Base(root)
	tests := []struct {
		root, path string
		code       Code
	}{
		{root, "../" + name + "/file", InvalidPath},
		{root, "../" + name, InvalidPath},
		{root, "../../" + filepath.Base(filepath.Dir(root)) + "/" + name + "/file", InvalidPath},
		{root, "../" + name + "x/file", PathOutsideCwd},
		{root + "/.", "../" + name + "/file", InvalidPath},
		{link, "../alias/file", InvalidPath},
		{link, "../" + name + "/file", PathOutsideCwd},
	}
	for _, tt := range tests {
		t.Run(tt.root+" "+tt.path, func(t *testing.T) {
			t.Parallel()
			ws, err := NewWorkspace(tt.root)
			if err != nil {
				t.Fatal(err)
			}
			_, err = ws.ReadFile(tt.path)
			wantCode(t, err, tt.code)
			_, err = MapFiles{"file": nil}.ReadFile(tt.path)
			wantCode(t, err, PathOutsideCwd)
		})
	}
}

func TestWorkspacePermissionDenied(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root reads any file; the CLI test covers this code by dropping privileges")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f": "x\n"})
	os.Chmod(filepath.Join(root, "f"), 0)
	ws, _ := NewWorkspace(root)
	_, err := ws.ReadFile("f")
	wantCode(t, err, PermissionDenied)
}

// checkedTree writes files into a fresh folder and checks patch there,
// returning the folder, its Workspace (closed when the test ends) and the
// plan.
func checkedTree(t *testing.T, files map[string]string, patch string) (string, *Workspace, *Plan) {
	t.Helper()
	root := t.TempDir()
	writeTree(t, root, files)
	ws, err := NewWorkspace(root)
	must(t, err)
	t.Cleanup(func() { ws.Close() })
	plan, err := Check([]byte(patch), ws, Options{Strip: 1})
	must(t, err)
	return root, ws, plan
}

// applyOnDisk runs a patch through a Workspace and commits it.
func applyOnDisk(t *testing.T, root, patch string, hook func()) error {
	t.Helper()
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	ws.BeforeVerify = hook
	plan, err := Check([]byte(patch), ws, Options{Strip: 1})
	if err != nil {
		return err
	}
	return Apply(context.Background(), ws, plan)
}

func TestCommitWritesAndModes(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"})
	os.Chmod(filepath.Join(root, "b"), 0o750)
	if err := applyOnDisk(t, root, crossFile, nil); err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a": "s\n", "b": "t\none\ntwo\nthree\n"}
	wantTree(t, root, want) // also proves no temp file is left
	if info, _ := os.Stat(filepath.Join(root, "b")); info.Mode().Perm() != 0o750 {
		t.Errorf("replaced file mode %v, want 0750", info.Mode().Perm())
	}

	create := section("/dev/null", "b/new/deep/file", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
	old := syscall.Umask(0o077) // the created file's mode must not depend on the umask
	err := applyOnDisk(t, root, create, nil)
	syscall.Umask(old)
	if err != nil {
		t.Fatal(err)
	}
	info, err := os.Stat(filepath.Join(root, "new/deep/file"))
	if err != nil || info.Mode().Perm() != 0o644 {
		t.Errorf("created file: %v, mode %v; want 0644", err, info.Mode().Perm())
	}
}

func TestCommitConcurrentModification(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		files  map[string]string
		patch  string
		change func(root string) // the concurrent writer
		want   map[string]string
	}{
		{"source rewritten", map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}, crossFile,
			func(root string) { os.WriteFile(filepath.Join(root, "a"), []byte("s\none\ntwo\nthree\nmore\n"), 0o644) },
			map[string]string{"a": "s\none\ntwo\nthree\nmore\n", "b": "t\n"}},
		{"same size rewrite", map[string]string{"a": "s\none\ntwo\nthree\n", "b": "t\n"}, crossFile,
			func(root string) { os.WriteFile(filepath.Join(root, "b"), []byte("T\n"), 0o644) },
			map[string]string{"a": "s\none\ntwo\nthree\n", "b": "T\n"}},
		{"destination created", map[string]string{},
			section("/dev/null", "b/new/file", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n",
			func(root string) { os.WriteFile(filepath.Join(root, "new/file"), []byte("other\n"), 0o644) },
			map[string]string{"new/": "", "new/file": "other\n"}},
		{"removed file replaced", map[string]string{"f": "x\n"},
			section("a/f", "/dev/null", sha("x\n"), "") + "@@ -1,1 +0,0 @@ blockpatch-source id=move-1\n-x\n",
			func(root string) {
				os.Remove(filepath.Join(root, "f"))
				os.WriteFile(filepath.Join(root, "f"), []byte("x\n"), 0o644)
			},
			map[string]string{"f": "x\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeTree(t, root, tt.files)
			err := applyOnDisk(t, root, tt.patch, func() { tt.change(root) })
			wantCode(t, err, ConcurrentModification)
			wantTree(t, root, tt.want)
		})
	}
}

func TestCommitStagingFailureLeavesNothing(t *testing.T) {
	t.Parallel()
	if os.Geteuid() == 0 {
		t.Skip("root can write into read-only directories")
	}
	root := t.TempDir()
	writeTree(t, root, map[string]string{"a": "s\none\ntwo\nthree\n", "ro/b": "t\n"})
	os.Chmod(filepath.Join(root, "ro"), 0o555)
	defer os.Chmod(filepath.Join(root, "ro"), 0o755)
	patch := strings.ReplaceAll(strings.ReplaceAll(crossFile, "a/b", "a/ro/b"), "b/b", "b/ro/b")
	err := applyOnDisk(t, root, patch, nil)
	wantCode(t, err, PermissionDenied)
	want := map[string]string{"a": "s\none\ntwo\nthree\n", "ro/": "", "ro/b": "t\n"}
	wantTree(t, root, want)
}

// TestNewWorkspace: as in upstream 1.1.0, --cwd is judged when the first
// path is read. A missing root is file_not_found naming the absolute root
// (phase path), before the path's own checks; under a root that is a file
// every path is file_not_found.
func TestNewWorkspace(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f": "x"})
	missing := filepath.Join(root, "missing")
	ws, err := NewWorkspace(missing)
	wantCode(t, err, "")
	_, err = ws.ReadFile("../x")
	wantCode(t, err, FileNotFound)
	if e := err.(*Error); e.Path != missing || e.Phase != "path" {
		t.Errorf("path %q phase %q, want %q path", e.Path, e.Phase, missing)
	}
	ws, err = NewWorkspace(filepath.Join(root, "f"))
	wantCode(t, err, "")
	_, err = ws.ReadFile("g")
	wantCode(t, err, FileNotFound)
	if !errors.Is(err, &Error{Code: FileNotFound}) {
		t.Error("errors.Is must compare codes")
	}
}

// TestFsErrorCodes: operating-system errors, wrapped or bare, map to the
// spec's codes (ERR-003), and none of them makes the mapping fail.
func TestFsErrorCodes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		err  error
		code Code
	}{
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOENT}, FileNotFound},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.EACCES}, PermissionDenied},
		{&fs.PathError{Op: "open", Path: "x", Err: syscall.ENOTDIR}, FileNotFound},
		{&os.LinkError{Op: "rename", Old: "a", New: "b", Err: syscall.EXDEV}, IOError},
		{syscall.EIO, IOError},
		{errors.New("unexpected EOF"), IOError},
	} {
		err := FileError(tt.err, "f.txt", "io")
		e, ok := err.(*Error)
		if !ok || e.Code != tt.code || e.Path != "f.txt" || e.Phase != "io" || e.Message == "" {
			t.Errorf("FileError(%v) = %#v, want %s for f.txt in phase io, with a message", tt.err, err, tt.code)
		}
	}
}

// TestWorkspacePeek: a file peeked into is not among those read until
// ReadFile reads it, which hands over the bytes peek read; a path ReadFile
// refuses is never peeked into.
func TestWorkspacePeek(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f": strings.Repeat("x", 2*mapThreshold), "d/g": "g", "big": strings.Repeat("y", 2*mapThreshold)})
	if err := os.Symlink("f", filepath.Join(root, "link")); err != nil {
		t.Fatal(err)
	}
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	peeked := ws.peek("f")
	if len(peeked) != 2*mapThreshold || len(ws.seen) != 0 {
		t.Fatalf("peek read %d bytes and made %d files seen", len(peeked), len(ws.seen))
	}
	for _, path := range []string{"link", "d", "missing", "../f"} {
		if b := ws.peek(path); b != nil {
			t.Errorf("peek(%q) read %d bytes", path, len(b))
		}
	}
	if len(ws.seen) != 0 {
		t.Errorf("peeking made %d files seen", len(ws.seen))
	}
	read, err := ws.ReadFile("f")
	if err != nil {
		t.Fatal(err)
	}
	if &read[0] != &peeked[0] || len(ws.maps) != 1 {
		t.Errorf("ReadFile read the file again")
	}
	if _, ok := ws.seen["f"]; !ok {
		t.Errorf("ReadFile did not count the file peeked into as read")
	}
	ws.InputLimit = mapThreshold
	if b := ws.peek("big"); b != nil {
		t.Errorf("peek read %d bytes of a file above the input limit", len(b))
	}
}
