package cases

import (
	"bytes"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
)

// Entry is one path of a Tree: a regular file (Data), a symlink (Symlink
// set), a folder (Dir set) or, in a starting tree only, a second name for a
// file of the same tree (Hardlink set).
type Entry struct {
	Data []byte
	// Mode holds permission bits only. Zero means unstated: written as 0644
	// for files and 0755 for folders, and not compared in expectations.
	Mode     fs.FileMode
	Symlink  string
	Dir      bool
	Hardlink string
}

// Kind names the entry's kind: "file", "symlink", "dir" or "hardlink".
func (e Entry) Kind() string {
	switch {
	case e.Dir:
		return "dir"
	case e.Symlink != "":
		return "symlink"
	case e.Hardlink != "":
		return "hardlink"
	}
	return "file"
}

// Default modes of entries whose mode is unstated.
const (
	DefaultFileMode fs.FileMode = 0o644
	DefaultDirMode  fs.FileMode = 0o755
)

// Tree maps slash paths, relative to the work folder, to entries. Folders
// that hold an entry exist implicitly; a Dir entry states a folder that must
// exist, typically an empty one.
type Tree map[string]Entry

// Paths returns the tree's paths in sorted order.
func (t Tree) Paths() []string {
	ps := make([]string, 0, len(t))
	for p := range t {
		ps = append(ps, p)
	}
	slices.Sort(ps)
	return ps
}

// Clone returns a copy of t that shares no bytes with it.
func (t Tree) Clone() Tree {
	if t == nil {
		return nil
	}
	out := make(Tree, len(t))
	for p, e := range t {
		e.Data = bytes.Clone(e.Data)
		out[p] = e
	}
	return out
}

// Write creates the tree's entries under dir, creating folders as needed and
// replacing entries of the same name. Modes are set explicitly, so the
// process umask does not matter. Folder modes are set last, deepest first,
// so a read-only folder can still be filled. Write never writes through a
// symlink: see WriteIn.
func (t Tree) Write(dir string) error {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer r.Close()
	return t.WriteIn(r, ".")
}

// WriteIn is Write into the folder dir (a slash path) of the root r. It
// refuses a tree with an entry below one of its own symlinks (CheckWritable),
// and never writes through a symlink already on disk: a symlink where an
// entry goes is replaced, and one where a folder must be is an error.
func (t Tree) WriteIn(r *os.Root, dir string) error {
	if err := t.CheckWritable(); err != nil {
		return err
	}
	if err := nofollow.MkdirAll(r, dir, DefaultDirMode); err != nil {
		return err
	}
	var dirs []string
	for _, p := range t.Paths() {
		e := t[p]
		name := path.Join(dir, p)
		switch e.Kind() {
		case "dir":
			if err := nofollow.MkdirAll(r, name, DefaultDirMode); err != nil {
				return err
			}
			dirs = append(dirs, p)
		case "symlink":
			if err := nofollow.Symlink(r, e.Symlink, name); err != nil {
				return err
			}
		case "hardlink": // made below, once every file exists
		default:
			if err := nofollow.WriteFile(r, name, e.Data, cmp0(e.Mode, DefaultFileMode)); err != nil {
				return err
			}
		}
	}
	for _, p := range t.Paths() {
		if target := t[p].Hardlink; target != "" {
			if err := nofollow.Link(r, path.Join(dir, target), path.Join(dir, p)); err != nil {
				return err
			}
		}
	}
	for _, p := range slices.Backward(dirs) {
		if err := nofollow.ChmodDir(r, path.Join(dir, p), cmp0(t[p].Mode, DefaultDirMode)); err != nil {
			return err
		}
	}
	return nil
}

// CheckWritable reports an entry that lies below a symlink of the same
// tree: writing it would write through the symlink, wherever it points.
func (t Tree) CheckWritable() error {
	for _, p := range t.Paths() {
		for _, d := range parents(p) {
			if t[d].Kind() == "symlink" {
				return fmt.Errorf("%q lies below the symlink %q: writing it would write through the symlink", p, d)
			}
		}
	}
	return nil
}

func cmp0(m, def fs.FileMode) fs.FileMode {
	if m == 0 {
		return def
	}
	return m
}

// ReadTree reads the tree under dir: every regular file with its bytes and
// permission bits, every symlink with its target (not followed), and every
// folder as a Dir entry, within DefaultReadLimits. Any other kind of file,
// or a file too large to read, is an error.
func ReadTree(dir string) (Tree, error) {
	r, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	t, unread, err := ReadTreeIn(r, ".", DefaultReadLimits, "")
	if err != nil {
		return nil, err
	}
	if len(unread) > 0 {
		return nil, fmt.Errorf("not a regular file, symlink or folder, or too large to read: %s", unread.describe())
	}
	return t, nil
}

// DiffTree compares a tree read from disk with an expected tree and returns
// one line per difference, or "" when they agree. Every entry of want must be
// in got with the same kind, bytes, symlink target, and mode when want states
// one. Every file and symlink of got must be in want; folders of got that
// want does not state are not compared, since implementations may or may not
// remove a folder a patch has emptied.
func DiffTree(want, got Tree) string {
	var lines []string
	add := func(format string, args ...any) { lines = append(lines, fmt.Sprintf(format, args...)) }
	for _, p := range want.Paths() {
		w := want[p]
		g, ok := got[p]
		switch {
		case !ok:
			add("%q: missing, want %s", p, w.Kind())
		case g.Kind() != w.Kind():
			add("%q: got %s, want %s", p, g.Kind(), w.Kind())
		case w.Kind() == "file" && !bytes.Equal(g.Data, w.Data):
			add("%q: content differs:\n\tgot  %s\n\twant %s", p, quote(g.Data), quote(w.Data))
		case w.Kind() == "symlink" && g.Symlink != w.Symlink:
			add("%q: symlink to %q, want %q", p, g.Symlink, w.Symlink)
		}
		if ok && g.Kind() == w.Kind() && w.Mode != 0 && g.Mode != w.Mode {
			add("%q: mode %04o, want %04o", p, g.Mode, w.Mode)
		}
	}
	for _, p := range got.Paths() {
		if _, ok := want[p]; !ok && !got[p].Dir {
			add("%q: unexpected %s", p, got[p].Kind())
		}
	}
	return strings.Join(lines, "\n")
}

// quote prints bytes for a diff line, cut to a readable length.
func quote(b []byte) string {
	const max = 200
	if len(b) > max {
		return fmt.Sprintf("%q... (%d bytes)", b[:max], len(b))
	}
	return fmt.Sprintf("%q", b)
}

// checkPath reports why p is not a clean relative slash path, the only kind
// a tree, expected_absent or inputs may name.
func checkPath(p string) error {
	switch {
	case p == "":
		return fmt.Errorf("empty path")
	case strings.HasPrefix(p, "/"):
		return fmt.Errorf("absolute path %q", p)
	case strings.Contains(p, `\`):
		return fmt.Errorf("backslash in path %q; paths use /", p)
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f {
			return fmt.Errorf("control character %q in path", r)
		}
	}
	for seg := range strings.SplitSeq(p, "/") {
		switch seg {
		case "":
			return fmt.Errorf("empty segment in path %q", p)
		case ".", "..":
			return fmt.Errorf("%q segment in path %q", seg, p)
		}
	}
	return nil
}

// parents returns the proper parent folders of a clean path, nearest last.
func parents(p string) []string {
	var out []string
	for d := path.Dir(p); d != "."; d = path.Dir(d) {
		out = append(out, d)
	}
	slices.Reverse(out)
	return out
}
