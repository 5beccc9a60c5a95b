package reference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strconv"
)

// Files gives the planner the current bytes of operation paths.
type Files interface {
	// ReadFile returns the bytes at an operation path. An absent path is an
	// *Error with code file_not_found; other failures carry their own code.
	ReadFile(path string) ([]byte, error)
}

// MapFiles is an in-memory tree for the pure core: a missing key is a
// missing file.
type MapFiles map[string][]byte

// ReadFile implements Files. Paths are checked as on disk.
func (m MapFiles) ReadFile(path string) ([]byte, error) {
	if err := checkTreePath(path); err != nil {
		return nil, err
	}
	if b, ok := m[path]; ok {
		return b, nil
	}
	return nil, &Error{Code: FileNotFound, Phase: "path", Path: path, Message: "file not found: " + path}
}

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

// Options are the knobs of check and apply.
type Options struct {
	Strip   int  // -pN; the CLI default is 1
	Reverse bool // -R
}

// Plan is the evaluation of one move against the current tree.
type Plan struct {
	Result Result
	// Changes lists the file transitions in commit order: the destination
	// before the source. Empty unless Result.Status is applied.
	Changes []Change
}

// Check parses a patch and evaluates it against files with the given
// options, without writing anything. It returns every error code of Parse,
// Resolve, Reverse and Evaluate.
func Check(patch []byte, files Files, opts Options) (*Plan, error) {
	p, err := Parse(patch)
	if err != nil {
		return nil, err
	}
	m, err := p.Resolve(opts.Strip)
	if err != nil {
		return nil, err
	}
	if opts.Reverse {
		if m, err = m.Reverse(); err != nil {
			return nil, err
		}
	}
	plan, err := Evaluate(m, files)
	if err != nil {
		return nil, err
	}
	strip := opts.Strip
	plan.Result.StripComponents = &strip
	return plan, nil
}

// The anchor detail of check's errors: which part of the patch failed.
const (
	anchorSource = "blockpatch-source"
	anchorTarget = "blockpatch-target"
	anchorHash   = "payload-sha256"
)

// Evaluate plans a move against the current bytes of its files. It checks
// the payload (payload_mismatch, hash_mismatch) before reading any file,
// then reads the source and the destination, in that order, and locates
// source and target exactly (source_not_found, source_ambiguous,
// payload_mismatch, target_not_found, target_ambiguous,
// target_overlaps_source, destination_exists, partial_applied_duplicate).
// Read errors of files are passed on.
func Evaluate(m *Move, files Files) (*Plan, error) {
	if m.Source != nil && m.Target != nil && !bytes.Equal(m.Source.Payload, m.Target.Payload) {
		return nil, &Error{Code: PayloadMismatch, Phase: "payload", Anchor: anchorTarget,
			Message: "the target + payload differs from the source - payload"}
	}
	payload := m.Payload()
	if sum := sha256.Sum256(payload); hex.EncodeToString(sum[:]) != m.PayloadSHA256 {
		return nil, &Error{Code: HashMismatch, Phase: "payload", Anchor: anchorHash,
			Message: "payload-sha256 " + m.PayloadSHA256 + " does not match the payload, whose hash is " + hex.EncodeToString(sum[:])}
	}
	e := &evaluation{m: m, files: files, payload: payload}
	e.plan.Result = Result{OK: true, Changed: []string{}, Affected: affected(m), Moves: []MoveResult{{
		ID: m.ID, Src: m.Src, Dst: m.Dst, PayloadSHA256: m.PayloadSHA256, PayloadBytes: len(payload),
	}}}
	var err error
	switch m.Shape {
	case ShapeRelocate:
		err = e.relocate()
	case ShapeInsert:
		err = e.insert()
	case ShapeDelete:
		err = e.delete()
	case ShapeCreate:
		err = e.create()
	case ShapeRemove:
		err = e.remove()
	}
	if err != nil {
		return nil, err
	}
	r := &e.plan.Result
	for _, path := range r.Affected { // changed follows affected order
		for _, c := range e.plan.Changes {
			if c.Path == path {
				r.Changed = append(r.Changed, path)
			}
		}
	}
	r.Noop = len(r.Changed) == 0
	if r.Status == "" {
		r.Status = StatusApplied
		if r.Noop {
			r.Status = StatusNoop
		}
	}
	return &e.plan, nil
}

func affected(m *Move) []string {
	switch {
	case m.Src == DevNull:
		return []string{m.Dst}
	case m.Dst == DevNull || m.Src == m.Dst:
		return []string{m.Src}
	}
	return []string{m.Src, m.Dst}
}

// evaluation carries one Evaluate call.
type evaluation struct {
	m       *Move
	files   Files
	payload []byte
	plan    Plan
}

func (e *evaluation) move() *MoveResult { return &e.plan.Result.Moves[0] }

// alreadyApplied records a proven final state. final is the match of
// context + payload + context in the destination, nil when the shape has no
// destination; before is the length of the context before the payload.
func (e *evaluation) alreadyApplied(final *Range, before int) {
	e.plan.Result.Status = StatusAlreadyApplied
	if final != nil {
		start := final.Start + before
		e.move().TargetRange = final
		e.move().InsertIndex = &start
	}
}

// final searches data for the target's context + payload + context: a
// unique match proves the move done, several are target_ambiguous.
func (e *evaluation) final(data []byte) (Matches, error) {
	t := e.m.Target
	fm := findText(data, concat(t.Before, e.payload, t.After))
	if fm.Count > 1 {
		return fm, withAnchor(ambiguous(TargetAmbiguous, "target", e.m.Dst, data, fm), anchorTarget)
	}
	return fm, nil
}

// findText finds text in data; an empty text (a hunk whose only payload
// line holds no bytes, and no context) is never found, as upstream reads it.
func findText(data, text []byte) Matches {
	if len(text) == 0 {
		return Matches{}
	}
	return Find(data, text)
}

// withAnchor sets an error's anchor detail.
func withAnchor(e *Error, anchor string) *Error {
	e.Anchor = anchor
	return e
}

func (e *evaluation) relocate() error {
	src, tgt := e.m.Source, e.m.Target
	ds, err := e.files.ReadFile(e.m.Src)
	if err != nil {
		return err
	}
	dt := ds
	if !e.m.Same() {
		if dt, err = e.files.ReadFile(e.m.Dst); err != nil {
			return err
		}
	}
	full := concat(src.Before, e.payload, src.After)
	sm := findText(ds, full)
	if sm.Count == 0 {
		fm, err := e.final(dt)
		switch {
		case err != nil:
			return err
		case fm.Unique():
			e.alreadyApplied(&fm.Ranges[0], len(tgt.Before))
			return nil
		}
		return sourceAbsent(ds, src, e.m.Src)
	}
	if !sm.Unique() {
		return withAnchor(ambiguous(SourceAmbiguous, "source", e.m.Src, ds, sm), anchorSource)
	}
	ps := sm.Ranges[0].Start + len(src.Before)
	pe := ps + len(e.payload)
	e.move().SourceRange = &Range{ps, pe}

	if !e.m.Same() {
		fm, err := e.final(dt)
		switch {
		case err != nil:
			return err
		case fm.Unique():
			return withAnchor(partialDuplicate(e.m.Src, e.m.Dst, Range{ps, pe}, fm.Ranges[0], e.m.PayloadSHA256), anchorTarget)
		}
	}
	ip, err := e.anchor(dt)
	if err != nil {
		return err
	}
	if !e.m.Same() {
		e.setInsert(ip)
		e.plan.Changes = []Change{
			{Path: e.m.Dst, Data: [][]byte{dt[:ip], e.payload, dt[ip:]}},
			{Path: e.m.Src, Data: [][]byte{ds[:ps], ds[pe:]}},
		}
		return nil
	}
	anchor := Range{ip - len(tgt.Before), ip + len(tgt.After)}
	if anchor.Start < pe && ps < anchor.End {
		return &Error{Code: TargetOverlapsSource, Phase: "target", Path: e.m.Dst, Anchor: anchorTarget,
			Message: "the target anchor overlaps the source payload in " + e.m.Dst}
	}
	e.setInsert(ip)
	var out [][]byte
	if ip <= ps {
		out = [][]byte{ds[:ip], e.payload, ds[ip:ps], ds[pe:]}
	} else {
		out = [][]byte{ds[:ps], ds[pe:ip], e.payload, ds[ip:]}
	}
	lo, hi := min(ps, ip), max(pe, ip)
	if !equalSegments(out[1:3], ds[lo:hi]) {
		e.plan.Changes = []Change{{Path: e.m.Src, Data: out}}
	}
	return nil
}

// partialDuplicate is the error of a cross-file move found half done: the
// payload at source in src and, already, at target in dst.
func partialDuplicate(src, dst string, source, target Range, sum string) *Error {
	return &Error{Code: PartialAppliedDuplicate, Phase: "target", Path: dst,
		Message:     "the payload is still in " + src + " and " + dst + " already holds it at the target; review, then remove the source",
		SourceRange: &source, TargetRange: &target,
		PayloadSHA256: sum, SuggestedAction: "review_then_remove_source"}
}

// targetOverlaps is the error of a same-file target anchor that overlaps
// the payload it would receive.
func targetOverlaps(path string, source, anchor Range) *Error {
	return &Error{Code: TargetOverlapsSource, Phase: "target", Path: path,
		SourceRange: &source, TargetRange: &anchor,
		Message: "the target anchor overlaps the source payload in " + path}
}

// setInsert records the insertion offset in the destination before the
// move, and the anchor around it.
func (e *evaluation) setInsert(ip int) {
	t := e.m.Target
	e.move().InsertIndex = &ip
	e.move().TargetRange = &Range{ip - len(t.Before), ip + len(t.After)}
}

// anchor locates the unique target anchor in data and returns the
// insertion offset. An empty anchor (a reversed payload-only deletion)
// is never found.
func (e *evaluation) anchor(data []byte) (int, error) {
	t := e.m.Target
	anchor := concat(t.Before, t.After)
	am := Find(data, anchor)
	switch {
	case am.Count == 0 || len(anchor) == 0:
		return 0, &Error{Code: TargetNotFound, Phase: "target", Path: e.m.Dst, Anchor: anchorTarget, NoMatches: true,
			Message: "target anchor not found in " + e.m.Dst}
	case !am.Unique():
		return 0, withAnchor(ambiguous(TargetAmbiguous, "target", e.m.Dst, data, am), anchorTarget)
	}
	return am.Ranges[0].Start + len(t.Before), nil
}

func (e *evaluation) insert() error {
	t := e.m.Target
	data, err := e.files.ReadFile(e.m.Dst)
	if err != nil {
		return err
	}
	fm, err := e.final(data)
	switch {
	case err != nil:
		return err
	case fm.Unique():
		e.alreadyApplied(&fm.Ranges[0], len(t.Before))
		return nil
	}
	ip, err := e.anchor(data)
	if err != nil {
		return err
	}
	e.setInsert(ip)
	e.plan.Changes = []Change{{Path: e.m.Dst, Data: [][]byte{data[:ip], e.payload, data[ip:]}}}
	return nil
}

func (e *evaluation) delete() error {
	s := e.m.Source
	data, err := e.files.ReadFile(e.m.Src)
	if err != nil {
		return err
	}
	sm := findText(data, concat(s.Before, e.payload, s.After))
	switch {
	case sm.Count == 0:
		done, err := deletedAlready(data, s, e.payload, e.m.Src)
		switch {
		case err != nil:
			return err
		case done:
			e.alreadyApplied(nil, 0)
			return nil
		}
		return sourceAbsent(data, s, e.m.Src)
	case !sm.Unique():
		return withAnchor(ambiguous(SourceAmbiguous, "source", e.m.Src, data, sm), anchorSource)
	}
	ps := sm.Ranges[0].Start + len(s.Before)
	pe := ps + len(e.payload)
	e.move().SourceRange = &Range{ps, pe}
	e.plan.Changes = []Change{{Path: e.m.Src, Data: [][]byte{data[:ps], data[pe:]}}}
	return nil
}

// deletedAlready reports whether an in-file deletion's final state is
// provable from the remaining anchors. Adjacent anchors found several times
// are source_ambiguous.
func deletedAlready(data []byte, s *Hunk, payload []byte, path string) (bool, error) {
	switch {
	case len(s.Before) > 0 && len(s.After) > 0:
		am := Find(data, concat(s.Before, s.After))
		if am.Count > 1 {
			return false, withAnchor(ambiguous(SourceAmbiguous, "source", path, data, am), anchorSource)
		}
		return am.Unique(), nil
	case len(s.After) > 0:
		return bytes.HasPrefix(data, s.After), nil
	case len(s.Before) > 0:
		return bytes.HasSuffix(data, s.Before), nil
	}
	return findText(data, payload).Count == 0, nil
}

func (e *evaluation) create() error {
	data, err := e.files.ReadFile(e.m.Dst)
	switch {
	case errors.Is(err, &Error{Code: FileNotFound}):
		e.setInsert(0)
		e.plan.Changes = []Change{{Path: e.m.Dst, Data: [][]byte{e.payload}, Create: true}}
		return nil
	case err != nil:
		return err
	case bytes.Equal(data, e.payload):
		e.alreadyApplied(&Range{0, len(data)}, 0)
		return nil
	}
	return &Error{Code: DestinationExists, Phase: "target", Path: e.m.Dst, Anchor: anchorTarget,
		Message: e.m.Dst + " already exists with different content"}
}

func (e *evaluation) remove() error {
	data, err := e.files.ReadFile(e.m.Src)
	switch {
	case errors.Is(err, &Error{Code: FileNotFound}):
		e.alreadyApplied(nil, 0)
		return nil
	case err != nil:
		return err
	case !bytes.Equal(data, e.payload):
		nf := sourceNotFound(e.m.Src)
		nf.Message = e.m.Src + " does not hold exactly the payload of the removal hunk"
		return nf
	}
	e.move().SourceRange = &Range{0, len(data)}
	e.plan.Changes = []Change{{Path: e.m.Src, Remove: true}}
	return nil
}

// sourceNotFound is the error of a source that is not in path.
func sourceNotFound(path string) *Error {
	return &Error{Code: SourceNotFound, Phase: "source", Path: path, Anchor: anchorSource, NoMatches: true,
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
	env := envelopes(data, s.Before, s.After)
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

// envelopes pairs each occurrence of before with the first occurrence of
// after that starts at or after its end.
func envelopes(data, before, after []byte) Matches {
	var m Matches
	last := bytes.LastIndex(data, after)
	scan(data, before, func(b int) bool {
		end := b + len(before)
		if end > last {
			return false
		}
		if m.Count == MatchCountLimit {
			m.Truncated = true
			return false
		}
		m.Count++
		if len(m.Ranges) < MaxReportedRanges {
			a := end + bytes.Index(data[end:], after)
			m.Ranges = append(m.Ranges, Range{b, a + len(after)})
		}
		return true
	})
	return m
}

func ambiguous(code Code, phase, path string, data []byte, m Matches) *Error {
	what := "source block"
	if code == TargetAmbiguous {
		what = "target anchor"
	}
	count := strconvCount(m)
	return &Error{Code: code, Phase: phase, Path: path, Matches: m.Count, MatchesTruncated: m.Truncated,
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

// equalSegments reports whether the concatenation of segs equals b.
func equalSegments(segs [][]byte, b []byte) bool {
	for _, s := range segs {
		if len(s) > len(b) || !bytes.Equal(s, b[:len(s)]) {
			return false
		}
		b = b[len(s):]
	}
	return len(b) == 0
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := make([]byte, 0, n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
