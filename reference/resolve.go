package reference

import (
	"strconv"
)

// Move is a patch resolved for one run: operation paths after -p stripping,
// direction applied. Plan evaluates a Move.
type Move struct {
	ID            string
	PayloadSHA256 string
	Shape         Shape
	// Src and Dst are operation paths. Whole-file shapes use DevNull for the
	// absent side; in-file insertion and deletion name the file on both.
	Src, Dst string
	// Source and Target are the hunks; either is nil when the shape lacks it.
	Source, Target *Hunk
}

// Same reports whether the move stays within one file, however its two
// paths are spelled: "a//f.txt", "a/f.txt" and "a/f.txt/" name one file,
// which the releases move as a same-file relocation (PATH-016).
func (m *Move) Same() bool { return sameFile(m.Src, m.Dst) }

// Payload returns the bytes the move carries.
func (m *Move) Payload() []byte {
	if m.Source != nil {
		return m.Source.Payload
	}
	return m.Target.Payload
}

// Resolve strips n leading components from the patch's paths (-pN) and
// returns the move to plan. Stripping a whole path, --- and +++ paths of a
// file -> file section that name different files after cleaning, and the
// two sections of a cross-file move naming the same file are parse_error.
// A section's --- path names its file; the one section of an in-file move
// gives its --- path as the move's src and its +++ path as its dst, each
// checked and read where a hunk needs it: src for the source hunk, dst for
// the target hunk (PATH-014). The paths themselves are checked when the
// tree is read.
func (p *Patch) Resolve(strip int) (*Move, error) {
	m := &Move{ID: p.ID, PayloadSHA256: p.PayloadSHA256, Shape: p.Shape(),
		Source: p.SourceHunk(), Target: p.TargetHunk()}
	paths := make([]string, len(p.Sections))
	for i, s := range p.Sections {
		old, err := stripHeaderPath(s.OldPath, strip)
		if err != nil {
			return nil, err
		}
		new, err := stripHeaderPath(s.NewPath, strip)
		if err != nil {
			return nil, err
		}
		if old != DevNull && new != DevNull && !samePath(old, new) {
			return nil, &Error{Code: ParseError,
				Message: "--- and +++ name different files after -p" + strconv.Itoa(strip) + ": " + old + " and " + new}
		}
		paths[i] = old
		if old == DevNull {
			paths[i] = new
		}
		switch {
		case old == DevNull:
			m.Src, m.Dst = DevNull, new
		case new == DevNull:
			m.Src, m.Dst = old, DevNull
		case s.Role == RoleSource:
			m.Src = old
		case s.Role == RoleTarget:
			m.Dst = old
		default: // one file, possibly spelled two ways
			m.Src, m.Dst = old, new
		}
	}
	if len(paths) == 2 && samePath(paths[0], paths[1]) {
		return nil, &Error{Code: ParseError,
			Message: "the two sections of a cross-file move name the same file " + paths[0] + "; use one section"}
	}
	return m, nil
}

func stripHeaderPath(raw string, n int) (string, error) {
	if raw == DevNull {
		return DevNull, nil
	}
	return StripPath(raw, n)
}

// Reverse returns the move that undoes m (-R): source and target swap
// roles, so insertion becomes deletion, creation becomes removal and a
// relocation runs back. A payload-only source hunk reverses to a target
// with an empty anchor, which Evaluate never finds: the reversed move is
// already_applied when the payload is present once, target_not_found
// otherwise.
func (m *Move) Reverse() (*Move, error) {
	r := &Move{ID: m.ID, PayloadSHA256: m.PayloadSHA256, Src: m.Dst, Dst: m.Src}
	if m.Source != nil {
		t := *m.Source
		t.Role = RoleTarget
		r.Target = &t
	}
	if m.Target != nil {
		s := *m.Target
		s.Role = RoleSource
		r.Source = &s
	}
	switch m.Shape {
	case ShapeRelocate:
		r.Shape = ShapeRelocate
	case ShapeInsert:
		r.Shape = ShapeDelete
	case ShapeDelete:
		r.Shape = ShapeInsert
	case ShapeCreate:
		r.Shape = ShapeRemove
	case ShapeRemove:
		r.Shape = ShapeCreate
	}
	return r, nil
}
