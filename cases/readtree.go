package cases

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"
	"syscall"
	"time"
)

// ReadLimits bound what a tree read may cost, whatever is on disk: a tree
// left by a hostile implementation may hold a 6 GB sparse file, a FIFO or a
// million entries.
type ReadLimits struct {
	// Entries is the most entries (files, symlinks, folders) a tree holds.
	Entries int
	// FileSize is the largest file read; a larger one is left unread.
	FileSize int64
	// TotalSize is the most bytes read over the whole tree.
	TotalSize int64
	// Depth is the most folders deep an entry may lie. Each folder is
	// read relative to its open parent, so a read costs what the tree
	// holds; the bound keeps the open folders (one a level) few, and ends
	// at once the read of a hostile chain (3,000 deep once took 42 s, when
	// every entry was reached by its path from the root).
	Depth int
	// Deadline, when set, ends the read with ErrDeadline once passed: the
	// certifier reads a tree an implementation left within the time the
	// command had (its --timeout), so no tree holds a case longer.
	Deadline time.Time
}

// ErrDeadline is the error of a tree read past ReadLimits.Deadline.
var ErrDeadline = errors.New("the tree was not read before the deadline")

// DefaultReadLimits are the limits of ReadTree, and of the certifier's
// reads: far above any case's tree, and low enough that a run stays within
// a few hundred MiB.
var DefaultReadLimits = ReadLimits{Entries: 20000, FileSize: 16 << 20, TotalSize: 32 << 20, Depth: 64}

// Unread maps the paths a tree read saw but did not read to what they are:
// "fifo", "device", "socket", or a file too large to read ("a sparse file of
// 6442450944 bytes ..."). Such files are never opened for reading.
type Unread map[string]string

// ReadTreeIn reads the tree under the folder dir (a slash path) of r, as
// ReadTree does, within lim, leaving out what the folder skip (a path
// relative to dir, or "") holds. Files that are neither regular files,
// symlinks nor folders, and files above lim.FileSize, are reported in Unread
// and not in the Tree. More than lim.Entries entries or lim.TotalSize bytes
// is an error. Only folders are followed into, never symlinks.
func ReadTreeIn(r *os.Root, dir string, lim ReadLimits, skip string) (Tree, Unread, error) {
	rd := &treeReader{lim: lim, tree: Tree{}, unread: Unread{}, skip: skip}
	sub, err := r.OpenRoot(dir)
	if err != nil {
		return nil, nil, err
	}
	defer sub.Close()
	if err := rd.walk(sub, ""); err != nil {
		return nil, nil, err
	}
	return rd.tree, rd.unread, nil
}

type treeReader struct {
	lim    ReadLimits
	tree   Tree
	unread Unread
	skip   string
	total  int64
	count  int
}

// walk reads the folder dir, which is rel in the tree ("" for its root):
// every name is looked up in its own folder, never by a path from the root.
func (rd *treeReader) walk(dir *os.Root, rel string) error {
	if !rd.lim.Deadline.IsZero() && time.Now().After(rd.lim.Deadline) {
		return ErrDeadline
	}
	f, err := dir.Open(".")
	if err != nil {
		return err
	}
	defer f.Close()
	for {
		entries, err := f.ReadDir(256)
		for _, d := range entries {
			if err := rd.entry(dir, d.Name(), path.Join(rel, d.Name())); err != nil {
				return err
			}
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
	}
}

// entry reads name of the folder dir, which is p in the tree.
func (rd *treeReader) entry(dir *os.Root, name, p string) error {
	if rd.count++; rd.count > rd.lim.Entries {
		return fmt.Errorf("more than %d entries in the tree: not read", rd.lim.Entries)
	}
	info, err := dir.Lstat(name)
	if err != nil {
		return err
	}
	switch m := info.Mode(); {
	case m.IsDir():
		rd.tree[p] = Entry{Dir: true, Mode: m.Perm()}
		if p == rd.skip {
			return nil // the folder itself is read, not what it holds
		}
		if rd.lim.Depth > 0 && strings.Count(p, "/")+1 >= rd.lim.Depth {
			return fmt.Errorf("folders nest deeper than %d levels (%s…): not read", rd.lim.Depth, p[:min(len(p), 80)])
		}
		sub, err := dir.OpenRoot(name)
		if err != nil {
			return err
		}
		defer sub.Close()
		return rd.walk(sub, p)
	case m&fs.ModeSymlink != 0:
		target, err := dir.Readlink(name)
		if err != nil {
			return err
		}
		rd.tree[p] = Entry{Symlink: target}
	case m.IsRegular():
		if info.Size() > rd.lim.FileSize {
			rd.unread[p] = tooLarge(info, rd.lim.FileSize)
			return nil
		}
		data, what, err := rd.read(dir, name, info.Size())
		if err != nil {
			return err
		}
		if what != "" {
			rd.unread[p] = what
			return nil
		}
		rd.tree[p] = Entry{Data: data, Mode: m.Perm()}
	default:
		rd.unread[p] = fileKind(m)
	}
	return nil
}

// read reads one regular file of the size Lstat gave, or says why not.
// It opens without blocking, checks the opened file is still a regular
// file, and reads no more than the limits allow, however it grows.
func (rd *treeReader) read(dir *os.Root, name string, size int64) ([]byte, string, error) {
	if rd.total+size > rd.lim.TotalSize {
		return nil, "", fmt.Errorf("the tree holds more than %d bytes: not read", rd.lim.TotalSize)
	}
	f, err := dir.OpenFile(name, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, "", err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, "", err
	}
	if !info.Mode().IsRegular() {
		return nil, fileKind(info.Mode()), nil
	}
	room := min(rd.lim.FileSize, rd.lim.TotalSize-rd.total)
	data, err := io.ReadAll(io.LimitReader(f, room+1))
	if err != nil {
		return nil, "", err
	}
	if int64(len(data)) > room {
		return nil, fmt.Sprintf("a file that grew past %d bytes while read", room), nil
	}
	rd.total += int64(len(data))
	return data, "", nil
}

func tooLarge(info fs.FileInfo, limit int64) string {
	what := "a file"
	if alloc, ok := allocated(info); ok && alloc < info.Size() {
		what = fmt.Sprintf("a sparse file (%d bytes allocated)", alloc)
	}
	return fmt.Sprintf("%s of %d bytes, above the %d bytes a tree file may hold", what, info.Size(), limit)
}

func fileKind(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "fifo (named pipe)"
	case m&fs.ModeSocket != 0:
		return "socket"
	case m&fs.ModeCharDevice != 0:
		return "character device"
	case m&fs.ModeDevice != 0:
		return "device"
	case m.IsRegular():
		return "file"
	}
	return "file of type " + m.Type().String()
}

// describe lists unread entries for an error message.
func (u Unread) describe() string {
	var parts []string
	for _, p := range slices.Sorted(maps.Keys(u)) {
		parts = append(parts, fmt.Sprintf("%s: %s", p, u[p]))
	}
	return strings.Join(parts, "; ")
}
