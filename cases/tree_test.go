package cases

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

func TestTreeRoundTrip(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	in := Tree{
		"a.txt":         {Data: []byte("a\r\n")},
		"bin/tool":      {Data: []byte{0xff}, Mode: 0o755},
		"link":          {Symlink: "../outside"},
		"empty":         {Dir: true},
		"ro":            {Dir: true, Mode: 0o555},
		"ro/inside.txt": {Data: []byte("x"), Mode: 0o600},
	}
	if err := in.Write(dir); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.Chmod(filepath.Join(dir, "ro"), 0o755) })
	got, err := ReadTree(dir)
	if err != nil {
		t.Fatal(err)
	}
	want := Tree{
		"a.txt":         {Data: []byte("a\r\n"), Mode: 0o644},
		"bin":           {Dir: true, Mode: 0o755},
		"bin/tool":      {Data: []byte{0xff}, Mode: 0o755},
		"link":          {Symlink: "../outside"},
		"empty":         {Dir: true, Mode: 0o755},
		"ro":            {Dir: true, Mode: 0o555},
		"ro/inside.txt": {Data: []byte("x"), Mode: 0o600},
	}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("ReadTree (-want +got):\n%s", d)
	}
	if d := DiffTree(in, got); d != "" {
		t.Errorf("DiffTree(written, read) = %s", d)
	}
	if got := in.Clone(); cmp.Diff(in, got) != "" || &got["a.txt"].Data[0] == &in["a.txt"].Data[0] {
		t.Error("Clone must copy deeply")
	}
}

func TestReadTreeRefusesOtherFiles(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err != nil {
		t.Skip("no FIFOs here:", err)
	}
	if _, err := ReadTree(dir); err == nil || !strings.Contains(err.Error(), "fifo") {
		t.Errorf("ReadTree with a FIFO: %v", err)
	}
}

func TestDiffTree(t *testing.T) {
	t.Parallel()
	got := Tree{
		"f":     {Data: []byte("x"), Mode: 0o644},
		"d":     {Dir: true, Mode: 0o755},
		"d/f":   {Data: []byte("y"), Mode: 0o644},
		"l":     {Symlink: "f"},
		"stale": {Dir: true, Mode: 0o755},
	}
	tests := []struct {
		name string
		want Tree
		diff string // "" or a piece of the diff
	}{
		{"equal without modes", Tree{"f": {Data: []byte("x")}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}}, ""},
		{"stated folder", Tree{"f": {Data: []byte("x")}, "d": {Dir: true}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}}, ""},
		{"content", Tree{"f": {Data: []byte("z")}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}}, `"f": content differs`},
		{"mode", Tree{"f": {Data: []byte("x"), Mode: 0o755}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}}, `"f": mode 0644, want 0755`},
		{"missing", Tree{"f": {Data: []byte("x")}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}, "new": {}}, `"new": missing`},
		{"unexpected", Tree{"f": {Data: []byte("x")}, "l": {Symlink: "f"}}, `"d/f": unexpected file`},
		{"kind", Tree{"f": {Symlink: "x"}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}}, `"f": got file, want symlink`},
		{"target", Tree{"f": {Data: []byte("x")}, "d/f": {Data: []byte("y")}, "l": {Symlink: "g"}}, `"l": symlink to "f", want "g"`},
		{"stated folder missing", Tree{"f": {Data: []byte("x")}, "d/f": {Data: []byte("y")}, "l": {Symlink: "f"}, "gone": {Dir: true}}, `"gone": missing, want dir`},
	}
	for _, tt := range tests {
		d := DiffTree(tt.want, got)
		if (tt.diff == "") != (d == "") || !strings.Contains(d, tt.diff) {
			t.Errorf("%s: DiffTree = %q, want %q", tt.name, d, tt.diff)
		}
	}
}

func TestCheckPath(t *testing.T) {
	t.Parallel()
	for _, p := range []string{"a", "a/b.c", "dev/null", "ü/ñ", ".hidden", "a..b"} {
		if err := checkPath(p); err != nil {
			t.Errorf("checkPath(%q) = %v", p, err)
		}
	}
	for _, p := range []string{"", "/a", "a/", "a//b", ".", "..", "a/./b", `a\b`, "a\x7f", "a\nb"} {
		if checkPath(p) == nil {
			t.Errorf("checkPath(%q) accepted it", p)
		}
	}
}

func TestTreeWriteHardlink(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	tree := Tree{"a": {Data: []byte("x")}, "sub/b": {Hardlink: "a"}}
	if err := tree.Write(dir); err != nil {
		t.Fatal(err)
	}
	a, _ := os.Stat(filepath.Join(dir, "a"))
	b, err := os.Stat(filepath.Join(dir, "sub", "b"))
	if err != nil || !os.SameFile(a, b) {
		t.Fatalf("sub/b is not a hard link of a: %v", err)
	}
}

// TestReadTreeInBounds: a huge sparse file, a FIFO and too many entries
// are reported, never read or opened (issue 12, finding 9).
func TestReadTreeInBounds(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	f, err := os.Create(filepath.Join(dir, "big"))
	if err != nil {
		t.Fatal(err)
	}
	if err := f.Truncate(6 << 30); err != nil {
		t.Skip("no sparse files here:", err)
	}
	f.Close()
	os.WriteFile(filepath.Join(dir, "small"), []byte("s"), 0o644)
	fifo := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644) == nil
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	tree, unread, err := ReadTreeIn(r, ".", DefaultReadLimits, "")
	if err != nil {
		t.Fatal(err)
	}
	if string(tree["small"].Data) != "s" || len(tree) != 1 {
		t.Errorf("tree %v", tree.Paths())
	}
	if !strings.Contains(unread["big"], "sparse file") || !strings.Contains(unread["big"], "6442450944 bytes") {
		t.Errorf("big: %q", unread["big"])
	}
	if fifo && unread["fifo"] != "fifo (named pipe)" {
		t.Errorf("fifo: %q", unread["fifo"])
	}
	if _, _, err := ReadTreeIn(r, ".", ReadLimits{Entries: 2, FileSize: 10, TotalSize: 10}, ""); err == nil {
		t.Error("more entries than the limit: no error")
	}
}

func TestWriteRefusesWritingThroughItsOwnSymlink(t *testing.T) {
	t.Parallel()
	outside := t.TempDir()
	tree := Tree{"link": {Symlink: outside}, "link/x": {Data: []byte("x")}}
	if err := tree.Write(t.TempDir()); err == nil || !strings.Contains(err.Error(), "below the symlink") {
		t.Errorf("Write: %v", err)
	}
	if _, err := os.Lstat(filepath.Join(outside, "x")); err == nil {
		t.Error("written through the symlink")
	}
}

// TestReadTreeBoundsDepth: a chain of folders deeper than the limit is an
// error, found without walking the whole chain.
func TestReadTreeBoundsDepth(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	p := dir
	for range 200 {
		p = filepath.Join(p, "d")
	}
	if err := os.MkdirAll(p, 0o755); err != nil {
		t.Fatal(err)
	}
	_, err := ReadTree(dir)
	if err == nil || !strings.Contains(err.Error(), "deeper than 64") {
		t.Errorf("ReadTree of a chain 200 deep: %v, want the depth limit", err)
	}
	shallow := t.TempDir()
	if err := os.MkdirAll(filepath.Join(shallow, "a", "b", "c"), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := ReadTree(shallow); err != nil {
		t.Errorf("ReadTree of a chain 3 deep: %v", err)
	}
}

// TestReadTreeDeadline: a read past its deadline ends with ErrDeadline, so
// the certifier can count a tree's read against the command's time.
func TestReadTreeDeadline(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "a", "b"), 0o755); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	lim := DefaultReadLimits
	lim.Deadline = time.Now().Add(-time.Second)
	if _, _, err := ReadTreeIn(r, ".", lim, ""); !errors.Is(err, ErrDeadline) {
		t.Errorf("a read past its deadline: %v, want ErrDeadline", err)
	}
	lim.Deadline = time.Now().Add(time.Hour)
	if tree, _, err := ReadTreeIn(r, ".", lim, ""); err != nil || !tree["a/b"].Dir {
		t.Errorf("a read within its deadline: %v, %v", tree, err)
	}
}
