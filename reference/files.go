package reference

// Files gives the planner the current bytes of operation paths.
type Files interface {
	// ReadFile returns the bytes at an operation path. An absent path is an
	// *Error with code file_not_found; other failures carry their own code.
	ReadFile(path string) ([]byte, error)
}

// placed is a Files with a place on disk: operation paths resolve against
// its folder, which decides whether a ".." path leads outside (PATH-002).
type placed interface {
	folder() string
}

// folderOf returns the folder f's paths resolve against, "" when f has no
// place on disk.
func folderOf(f Files) string {
	if p, ok := f.(placed); ok {
		return p.folder()
	}
	return ""
}

// linker is a Files that can tell two names of one file (hard links) from
// two files that hold equal bytes.
type linker interface {
	// linked reports whether the paths a and b, both read, name one file.
	linked(a, b string) bool
}

// linkedFiles reports whether f knows a and b, both read, as names of one
// file, which a relocation between them moves as one (PATH-016).
func linkedFiles(f Files, a, b string) bool {
	l, ok := f.(linker)
	return ok && l.linked(a, b)
}

// oneFile reports whether a relocation's src and dst, both read from f,
// name one file, which it then moves as one (PATH-016): spelled two ways,
// or linked, two names of it (hard links) that both get the result.
func oneFile(f Files, src, dst string) (one, linked bool) {
	if sameFile(src, dst) {
		return true, false
	}
	linked = linkedFiles(f, src, dst)
	return linked, linked
}

// linkedPair is the tree of a plan that found its src and dst linked, for
// the self-check, which evaluates a move between them.
type linkedPair struct {
	MapFiles
	src, dst string
}

func (l linkedPair) linked(src, dst string) bool { return src == l.src && dst == l.dst }

// MapFiles is an in-memory tree for the pure core: a missing key is a
// missing file.
type MapFiles map[string][]byte

// ReadFile implements Files. Paths are checked as on disk.
func (m MapFiles) ReadFile(path string) ([]byte, error) {
	if err := checkTreePath("", path); err != nil {
		return nil, err
	}
	if b, ok := m[path]; ok {
		return b, nil
	}
	return nil, &Error{Code: FileNotFound, Phase: "path", Path: path, Message: "file not found: " + path}
}

// peek gives ReadPatch a file's bytes, nil for a missing one.
func (m MapFiles) peek(path string) []byte { return m[path] }

// Apply returns a copy of the tree with the plan's changes made.
func (m MapFiles) Apply(p *Plan) MapFiles {
	out := make(MapFiles, len(m))
	for k, v := range m {
		out[k] = v
	}
	for _, c := range p.Changes {
		if c.Remove {
			delete(out, c.Path)
		} else {
			out[c.Path] = c.Bytes()
		}
	}
	return out
}

// segments returns the tree with each file as one slice.
func (m MapFiles) segments() map[string][][]byte {
	out := make(map[string][][]byte, len(m))
	for k, v := range m {
		out[k] = [][]byte{v}
	}
	return out
}

// sameOutcome reports whether two plans leave the tree with the same files
// holding the same bytes, without building either tree.
func (m MapFiles) sameOutcome(a, b *Plan) bool {
	paths := map[string]bool{}
	for _, p := range []*Plan{a, b} {
		for _, c := range p.Changes {
			paths[c.Path] = true
		}
	}
	for path := range paths {
		da, oka := m.after(a, path)
		db, okb := m.after(b, path)
		if oka != okb || !sameBytes(da, db) {
			return false
		}
	}
	return true
}

// after returns the bytes at path once p is applied, and whether it exists.
func (m MapFiles) after(p *Plan, path string) ([][]byte, bool) {
	data, ok := m[path]
	out := [][]byte{data}
	for _, c := range p.Changes {
		if c.Path == path {
			out, ok = c.Data, !c.Remove
		}
	}
	return out, ok
}
