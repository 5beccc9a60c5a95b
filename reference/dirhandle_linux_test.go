package reference

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"
)

// TestDirHandleEntriesOnly: every operation of a dirHandle takes one entry
// of its folder; a name that would reach past it (a separator, "..") or is
// the folder itself fails with EINVAL and touches nothing.
func TestDirHandleEntriesOnly(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"sub/f.txt": "x\n", "g.txt": "y\n"})
	h, err := openDirHandle(filepath.Join(root, "sub"))
	must(t, err)
	defer h.Close()
	ops := map[string]func(name string) error{
		"Lstat":    func(n string) error { _, err := h.Lstat(n); return err },
		"OpenFile": func(n string) error { f, err := h.OpenFile(n, os.O_RDONLY, 0); closeIf(f); return err },
		"OpenDir": func(n string) error {
			d, err := h.OpenDir(n)
			if err == nil {
				d.Close()
			}
			return err
		},
		"Mkdir":           func(n string) error { return h.Mkdir(n, 0o755) },
		"Remove":          func(n string) error { return h.Remove(n) },
		"Link from":       func(n string) error { return h.Link(n, "l") },
		"Link to":         func(n string) error { return h.Link("f.txt", n) },
		"Rename from":     func(n string) error { return h.Rename(n, "r") },
		"Rename to":       func(n string) error { return h.Rename("f.txt", n) },
		"NoReplace from":  func(n string) error { return h.RenameNoReplace(n, "r") },
		"NoReplace to":    func(n string) error { return h.RenameNoReplace("f.txt", n) },
		"renameNoReplace": func(n string) error { return renameNoReplace(&treeDir{handle: h}, "f.txt", n) },
	}
	for op, call := range ops {
		for _, name := range []string{"", ".", "..", "../g.txt", "f.txt/", "/g.txt"} {
			if err := call(name); !errors.Is(err, syscall.EINVAL) {
				t.Errorf("%s(%q): %v, want EINVAL", op, name, err)
			}
		}
	}
	wantTree(t, root, map[string]string{"sub/": "", "sub/f.txt": "x\n", "g.txt": "y\n"})
}

func closeIf(f *os.File) {
	if f != nil {
		f.Close()
	}
}

// TestDirHandleOperations: what each operation does to one entry.
func TestDirHandleOperations(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"f.txt": "x\n", "g.txt": "y\n"})
	must(t, os.Symlink("f.txt", filepath.Join(root, "link")))
	h, err := openDirHandle(root)
	must(t, err)
	defer h.Close()

	if info, err := h.Lstat("link"); err != nil || info.Mode()&fs.ModeSymlink == 0 {
		t.Errorf("Lstat of a symlink: %v, %v; want the symlink itself", info, err)
	}
	if f, err := h.OpenFile("link", os.O_RDONLY, 0); !errors.Is(err, syscall.ELOOP) {
		closeIf(f)
		t.Errorf("OpenFile of a symlink: %v, want ELOOP", err)
	}
	if d, err := h.OpenDir("f.txt"); !errors.Is(err, syscall.ENOTDIR) {
		if d != nil {
			d.Close()
		}
		t.Errorf("OpenDir of a file: %v, want ENOTDIR", err)
	}
	if err := h.RenameNoReplace("f.txt", "g.txt"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("RenameNoReplace over a file: %v, want it to exist", err)
	}
	if err := renameNoReplace(&treeDir{handle: h}, "f.txt", "g.txt"); !errors.Is(err, fs.ErrExist) {
		t.Errorf("renameNoReplace over a file: %v, want it to exist", err)
	}
	must(t, h.Mkdir("d", 0o700))
	must(t, h.Link("g.txt", "d2"))
	must(t, h.Remove("d2"))
	must(t, h.Rename("g.txt", "f.txt"))
	must(t, renameNoReplace(&treeDir{handle: h}, "f.txt", "h.txt"))
	if info, err := h.Lstat("d"); err != nil || !info.IsDir() || info.Mode().Perm() != 0o700 {
		t.Errorf("Mkdir: %v, %v", info, err)
	}
	must(t, h.Remove("d"))
	if err := h.Remove("d"); !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("Remove of a missing entry: %v, want it not to exist", err)
	}
	wantTree(t, root, map[string]string{"h.txt": "y\n", "link": "->f.txt"})
}
