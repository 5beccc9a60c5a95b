package reference

// checkStructure enforces the section shapes of the spec's table.
func checkStructure(patch *Patch) error {
	bad := func(format string, args ...any) error {
		return errorf(ParseError, format, args...)
	}
	if len(patch.Sections) == 2 {
		roles := patch.Sections[0].Role + "," + patch.Sections[1].Role
		if roles != "source,target" && roles != "target,source" {
			return bad("a cross-file move needs one role=source and one role=target section")
		}
		for _, s := range patch.Sections {
			if s.OldPath == DevNull || s.NewPath == DevNull {
				return bad("cross-file sections cannot use /dev/null")
			}
			if len(s.Hunks) != 1 || s.Hunks[0].Role != s.Role {
				return bad("a role=%s section holds exactly one blockpatch-%s hunk", s.Role, s.Role)
			}
			if err := checkInFileHunk(s.Hunks[0], bad); err != nil {
				return err
			}
		}
		return nil
	}
	s := patch.Sections[0]
	// A lone role is accepted where it names the side that exists: source
	// on a removal, target on a creation (FMT-030).
	switch {
	case s.Role == "":
	case s.Role == RoleSource && s.NewPath == DevNull && s.OldPath != DevNull:
	case s.Role == RoleTarget && s.OldPath == DevNull && s.NewPath != DevNull:
	default:
		return bad("role= is only for the two sections of a cross-file move, or the side a /dev/null section keeps")
	}
	switch {
	case s.OldPath == DevNull:
		if len(s.Hunks) != 1 || s.Hunks[0].Role != RoleTarget {
			return bad("a /dev/null -> file section holds exactly one blockpatch-target hunk")
		}
		if s.Hunks[0].OldCount != 0 {
			return bad("a file creation hunk holds only + payload lines, no context")
		}
	case s.NewPath == DevNull:
		if len(s.Hunks) != 1 || s.Hunks[0].Role != RoleSource {
			return bad("a file -> /dev/null section holds exactly one blockpatch-source hunk")
		}
		if s.Hunks[0].NewCount != 0 {
			return bad("a file removal hunk holds only - payload lines, no context")
		}
	default:
		for _, h := range s.Hunks {
			if err := checkInFileHunk(h, bad); err != nil {
				return err
			}
		}
	}
	return nil
}

// checkInFileHunk checks a hunk against an existing file: it has payload
// lines (one may hold no bytes, as upstream reads "-" and a no-newline
// marker), and a target hunk has context to anchor the insertion.
func checkInFileHunk(h *Hunk, bad func(string, ...any) error) error {
	if h.payloadLines() <= 0 {
		return bad("blockpatch-%s hunk has no payload lines", h.Role)
	}
	if h.Role == RoleTarget && len(h.Before)+len(h.After) == 0 {
		return bad("a blockpatch-target hunk for an existing file needs context before or after the payload")
	}
	return nil
}
