package reference

// DevNull is the reserved path that denotes absence of a file.
const DevNull = "/dev/null"

// Role says which side of a move a hunk or section carries.
type Role string

// Roles of hunks and of cross-file sections.
const (
	RoleSource Role = "source"
	RoleTarget Role = "target"
)

// Patch is one parsed .blockpatch document: a single move.
type Patch struct {
	ID            string
	PayloadSHA256 string
	// Sections holds one same-file section, or a role=source section and a
	// role=target section, in document order.
	Sections []*Section
}

// Section is one `diff --blockpatch` file section.
type Section struct {
	// OldPath and NewPath are the raw header paths, prefixes included
	// ("a/x", "b/x") or DevNull.
	OldPath, NewPath string
	// Role is empty for a same-file section.
	Role Role
	// Extensions holds x- metadata keys in document order, as key=value.
	Extensions []string
	// Hunks holds at most one source and one target hunk, in document order.
	Hunks []*Hunk
}

// Hunk is one `@@` hunk. Its bytes are the concatenation of its body lines
// after the prefix, newlines included unless a no-newline marker followed.
type Hunk struct {
	Role               Role
	OldStart, OldCount int
	NewStart, NewCount int
	Label              string
	Before             []byte // context lines before the payload
	Payload            []byte // the contiguous '-' or '+' lines
	After              []byte // context lines after the payload
}

// Hunk returns the section's hunk with the given role, or nil.
func (s *Section) Hunk(r Role) *Hunk {
	for _, h := range s.Hunks {
		if h.Role == r {
			return h
		}
	}
	return nil
}

// Shape is the kind of move a patch describes; see the spec's shape table.
type Shape int

// The valid shapes.
const (
	ShapeRelocate Shape = iota + 1 // file -> file, source + target (same file or cross-file)
	ShapeInsert                    // file -> file, target hunk only
	ShapeDelete                    // file -> file, source hunk only
	ShapeCreate                    // /dev/null -> file
	ShapeRemove                    // file -> /dev/null
)

func (s Shape) String() string {
	switch s {
	case ShapeRelocate:
		return "relocate"
	case ShapeInsert:
		return "insert"
	case ShapeDelete:
		return "delete"
	case ShapeCreate:
		return "create"
	case ShapeRemove:
		return "remove"
	}
	return "invalid"
}

// Shape reports the patch's shape. Parse only returns patches with a valid one.
func (p *Patch) Shape() Shape {
	if len(p.Sections) == 2 {
		return ShapeRelocate
	}
	s := p.Sections[0]
	switch {
	case s.OldPath == DevNull:
		return ShapeCreate
	case s.NewPath == DevNull:
		return ShapeRemove
	case s.Hunk(RoleSource) != nil && s.Hunk(RoleTarget) != nil:
		return ShapeRelocate
	case s.Hunk(RoleTarget) != nil:
		return ShapeInsert
	default:
		return ShapeDelete
	}
}

// SourceHunk returns the patch's source hunk, or nil.
func (p *Patch) SourceHunk() *Hunk { return p.hunk(RoleSource) }

// TargetHunk returns the patch's target hunk, or nil.
func (p *Patch) TargetHunk() *Hunk { return p.hunk(RoleTarget) }

func (p *Patch) hunk(r Role) *Hunk {
	for _, s := range p.Sections {
		if h := s.Hunk(r); h != nil {
			return h
		}
	}
	return nil
}
