package runner

import (
	"io/fs"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
)

// RemoveAll removes a folder the runner made, making folders writable
// when read-only folders stop it.
func RemoveAll(dir string) error {
	if os.RemoveAll(dir) == nil {
		return nil
	}
	r, err := os.OpenRoot(dir)
	if err != nil {
		return os.RemoveAll(dir)
	}
	defer r.Close()
	RemoveAllIn(r, ".")
	return os.RemoveAll(dir)
}

// RemoveAllIn removes the tree name inside r, making its folders writable
// when read-only folders stop it. It follows no symlink.
func RemoveAllIn(r *os.Root, name string) error {
	if r.RemoveAll(name) == nil {
		return nil
	}
	fs.WalkDir(r.FS(), name, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.IsDir() {
			nofollow.ChmodDir(r, p, 0o755)
		}
		return nil
	})
	return r.RemoveAll(name)
}
