package reference

import "strconv"

// partialDuplicate is the error of a cross-file move found half done: the
// payload at source in src and, already, at target in dst.
func partialDuplicate(src, dst string, source, target Range, sum string) *Error {
	return &Error{Code: PartialAppliedDuplicate, Phase: "target", Path: dst,
		Message:     "the payload is still in " + src + " and " + dst + " already holds it at the target; review, then remove the source",
		SourceRange: &source, TargetRange: &target,
		PayloadSHA256: sum, SuggestedAction: "review_then_remove_source"}
}

// sourceNotFound is the error of a source that is not in path.
func sourceNotFound(path string) *Error {
	return &Error{Code: SourceNotFound, Phase: "source", Path: path, Anchor: anchorSource, Matches: counted(0),
		Message: "source block not found in " + path}
}

// sourceAbsent explains why the exact source text is missing: a unique
// envelope between the two context anchors holding other bytes is
// payload_mismatch, several are source_ambiguous (ranges give the bytes
// between the anchors), none source_not_found.
func sourceAbsent(data []byte, s *Hunk, path string) error {
	if len(s.Before) == 0 || len(s.After) == 0 {
		return sourceNotFound(path)
	}
	env := envelopes(data, s.Before, s.After, nil)
	switch {
	case env.Count == 0:
		return sourceNotFound(path)
	case env.Unique():
		return &Error{Code: PayloadMismatch, Phase: "payload", Path: path, Anchor: anchorSource,
			Message: "the bytes between the source anchors in " + path + " differ from the payload"}
	}
	for i, r := range env.Ranges {
		env.Ranges[i] = Range{r.Start + len(s.Before), r.End - len(s.After)}
	}
	e := withAnchor(ambiguous(SourceAmbiguous, "source", path, data, env), anchorSource)
	e.Message = "the source anchors are ambiguous in " + path + ": " + strconvCount(env) + " matches"
	return e
}

func ambiguous(code Code, phase, path string, data []byte, m Matches) *Error {
	what := "source block"
	if code == TargetAmbiguous {
		what = "target anchor"
	}
	count := strconvCount(m)
	return &Error{Code: code, Phase: phase, Path: path, Matches: counted(m.Count), MatchesTruncated: m.Truncated,
		Ranges: m.Ranges, LineRanges: LineRanges(data, m.Ranges),
		Message: what + " is ambiguous in " + path + ": " + count + " matches"}
}

func strconvCount(m Matches) string {
	s := strconv.Itoa(m.Count)
	if m.Truncated {
		s = "at least " + s
	}
	return s
}
