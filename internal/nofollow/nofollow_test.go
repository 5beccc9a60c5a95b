package nofollow

import (
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// setup returns a root folder and a victim file outside it, with a
// symlink to the victim and one to the victim's folder inside the root.
func setup(t *testing.T) (*os.Root, string, string) {
	t.Helper()
	dir, outside := t.TempDir(), t.TempDir()
	victim := filepath.Join(outside, "victim")
	if err := os.WriteFile(victim, []byte("victim\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(victim, filepath.Join(dir, "file-link")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, filepath.Join(dir, "dir-link")); err != nil {
		t.Fatal(err)
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r, dir, victim
}

func unchanged(t *testing.T, victim string) {
	t.Helper()
	if b, err := os.ReadFile(victim); err != nil || string(b) != "victim\n" {
		t.Errorf("the file outside changed: %q, %v", b, err)
	}
}

func TestWritesNeverFollowSymlinks(t *testing.T) {
	t.Parallel()
	r, dir, victim := setup(t)
	if err := WriteFile(r, "file-link", []byte("new\n"), 0o600); err != nil {
		t.Fatalf("WriteFile over a symlink: %v", err)
	}
	if info, err := os.Lstat(filepath.Join(dir, "file-link")); err != nil || !info.Mode().IsRegular() || info.Mode().Perm() != 0o600 {
		t.Errorf("the symlink was not replaced by a 0600 file: %v, %v", info, err)
	}
	if err := WriteFile(r, "dir-link/x", nil, 0o644); !errors.Is(err, ErrSymlink) {
		t.Errorf("WriteFile below a symlink: %v, want ErrSymlink", err)
	}
	if err := MkdirAll(r, "dir-link/a/b", 0o755); !errors.Is(err, ErrSymlink) {
		t.Errorf("MkdirAll through a symlink: %v, want ErrSymlink", err)
	}
	if err := Symlink(r, "t", "dir-link/s"); !errors.Is(err, ErrSymlink) {
		t.Errorf("Symlink below a symlink: %v, want ErrSymlink", err)
	}
	unchanged(t, victim)
	if _, err := os.Lstat(filepath.Join(filepath.Dir(victim), "x")); err == nil {
		t.Error("a file appeared next to the victim")
	}
}

func TestOverwrite(t *testing.T) {
	t.Parallel()
	r, dir, victim := setup(t)
	os.Symlink(victim, filepath.Join(dir, "again"))
	if err := Overwrite(r, "again", []byte("x"), 0o644); err == nil {
		t.Error("Overwrite of a symlink succeeded")
	}
	unchanged(t, victim)
	if err := syscall.Mkfifo(filepath.Join(dir, "fifo"), 0o644); err == nil {
		if err := Overwrite(r, "fifo", []byte("x"), 0o644); err == nil {
			t.Error("Overwrite of a FIFO succeeded")
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "f"), []byte("old contents\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	before, _ := os.Stat(filepath.Join(dir, "f"))
	if err := Overwrite(r, "f", []byte("new\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	after, _ := os.Stat(filepath.Join(dir, "f"))
	if b, _ := os.ReadFile(filepath.Join(dir, "f")); string(b) != "new\n" || !os.SameFile(before, after) {
		t.Errorf("Overwrite: %q, same inode %v", b, os.SameFile(before, after))
	}
	if err := Overwrite(r, "absent/new", []byte("n"), 0o640); err != nil {
		t.Errorf("Overwrite creating a file: %v", err)
	}
}
