package reference

import (
	"bytes"
	"errors"
	"runtime/debug"
	"sync"
)

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
	p, err := parse(&parser{data: patch, strip: opts.Strip})
	if err != nil {
		return nil, err
	}
	return checkPatch(p, files, opts, nil)
}

// CheckInput is Check of a patch read by ReadPatch, from the same files.
func CheckInput(in *Input, files Files, opts Options) (*Plan, error) {
	p, err := in.Parse(opts.Strip)
	if err != nil {
		return nil, err
	}
	return checkPatch(p, files, opts, in.early)
}

func checkPatch(p *Patch, files Files, opts Options, known *hashed) (*Plan, error) {
	m, err := p.Resolve(opts.Strip)
	if err != nil {
		return nil, err
	}
	if opts.Reverse {
		if m, err = m.Reverse(); err != nil {
			return nil, err
		}
	}
	plan, err := evaluate(m, files, known)
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
// the payload (payload_mismatch, hash_mismatch) first, whatever the files
// hold, then reads the source and the destination, in that order, and
// locates source and target exactly (source_not_found, source_ambiguous,
// payload_mismatch, target_not_found, target_ambiguous,
// target_overlaps_source, destination_exists, partial_applied_duplicate).
// Read errors of files are passed on. A payload under 1 MiB whose hash
// differs is refused before any file is read; a larger one is hashed
// while the files are read.
func Evaluate(m *Move, files Files) (*Plan, error) { return evaluate(m, files, nil) }

// hashed is a payload whose hash is known: the planner's, whose
// self-check evaluates a patch holding that very payload, so the hash of a
// payload as large as its file is computed once (issue 23).
type hashed struct {
	payload []byte
	// sum returns the payload's hex SHA-256. startHash's waits for the
	// hash taken on a goroutine, and panics with a fault it recovered.
	sum func() string
}

// startHash hashes payload on a goroutine of its own: the bytes of a run
// that ReadPatch found in a file, most likely the patch's payload, hashed
// while the rest of the patch is read (issue 23). A fault reading a file
// that shrank is recovered, and panics again in whoever wants the sum. The
// sum comes through a channel, so nothing reads it before it is set.
func startHash(payload []byte) *hashed {
	type result struct {
		sum   string
		fault any
	}
	done := make(chan result, 1)
	go func() {
		var r result
		defer func() {
			r.fault = recover()
			done <- r
		}()
		debug.SetPanicOnFault(true)
		r.sum = sha256Hex(payload)
	}()
	return &hashed{payload: payload, sum: sync.OnceValue(func() string {
		r := <-done
		if r.fault != nil {
			panic(r.fault)
		}
		return r.sum
	})}
}

// settle waits for a hash startHash took, if any, whatever came of it.
func (k *hashed) settle() {
	if k == nil {
		return
	}
	defer func() { recover() }()
	k.sum()
}

// sumOf returns payload's hex SHA-256, known without hashing when payload
// is k's bytes themselves.
func (k *hashed) sumOf(payload []byte) string {
	if k != nil && len(payload) == len(k.payload) && (len(payload) == 0 || &payload[0] == &k.payload[0]) {
		return k.sum()
	}
	return sha256Hex(payload)
}

// evaluate is Evaluate, told the hash of a payload it may meet.
func evaluate(m *Move, files Files, known *hashed) (*Plan, error) {
	if m.Source != nil && m.Target != nil && !bytes.Equal(m.Source.Payload, m.Target.Payload) {
		return nil, &Error{Code: PayloadMismatch, Phase: "payload", Anchor: anchorTarget,
			Message: "the target + payload differs from the source - payload"}
	}
	payload := m.Payload()
	e := &evaluation{m: m, files: files, payload: payload}
	e.plan.Result = Result{OK: true, Changed: []string{}, Affected: affected(m), Moves: []MoveResult{{
		ID: m.ID, Src: m.Src, Dst: m.Dst, PayloadSHA256: m.PayloadSHA256, PayloadBytes: len(payload),
	}}}
	var sum string
	var err error
	if len(payload) < splitMin {
		if sum = known.sumOf(payload); sum == m.PayloadSHA256 {
			err = e.locate()
		}
	} else {
		// A large payload is hashed on the other core while its files are
		// read and searched, the hash still judged first (MATCH-018;
		// issue 23: a tenth of check's time on a patch moving a quarter
		// of its file).
		parallel(func() { err = e.locate() }, func() { sum = known.sumOf(payload) })
	}
	if sum != m.PayloadSHA256 {
		return nil, &Error{Code: HashMismatch, Phase: "payload", Anchor: anchorHash,
			Message: "payload-sha256 " + m.PayloadSHA256 + " does not match the payload, whose hash is " + sum}
	}
	if err != nil {
		return nil, err
	}
	r := &e.plan.Result
	for _, path := range r.Affected { // changed follows affected order
		for _, c := range e.plan.Changes {
			// A file whose patch spells it two ways is listed under
			// both, as 1.1's releases list it (PATH-014, PATH-016).
			if sameFile(c.Path, path) {
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

// locate reads the move's files and finds where it applies.
func (e *evaluation) locate() error {
	switch e.m.Shape {
	case ShapeRelocate:
		return e.relocate()
	case ShapeInsert:
		return e.insert()
	case ShapeDelete:
		return e.delete()
	case ShapeCreate:
		return e.create()
	case ShapeRemove:
		return e.remove()
	}
	return nil
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
	fm := findText(data, t.Before, e.payload, t.After)
	if fm.Count > 1 {
		return fm, withAnchor(ambiguous(TargetAmbiguous, "target", e.m.Dst, data, fm), anchorTarget)
	}
	return fm, nil
}

// findText finds the text made of parts in data; an empty text (a hunk
// whose only payload line holds no bytes, and no context) is never found,
// as upstream reads it.
func findText(data []byte, parts ...[]byte) Matches {
	for _, part := range parts {
		if len(part) > 0 {
			return findJoined(data, parts...)
		}
	}
	return Matches{}
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
	if e.m.Src != e.m.Dst {
		// Another file, or the same one spelled another way, whose
		// spelling is checked as the target's path (PATH-014).
		if dt, err = e.files.ReadFile(e.m.Dst); err != nil {
			return err
		}
	}
	one, linked := oneFile(e.files, e.m.Src, e.m.Dst)
	var sm, am Matches
	if one { // one read of the file for both searches
		dt = ds
		sm, am = findBoth(ds, [][]byte{src.Before, e.payload, src.After}, [][]byte{tgt.Before, tgt.After})
	} else {
		sm = findText(ds, src.Before, e.payload, src.After)
	}
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

	if !one {
		fm, err := e.final(dt)
		switch {
		case err != nil:
			return err
		case fm.Unique():
			return withAnchor(partialDuplicate(e.m.Src, e.m.Dst, Range{ps, pe}, fm.Ranges[0], e.m.PayloadSHA256), anchorTarget)
		}
	}
	if !one {
		am = findJoined(dt, tgt.Before, tgt.After)
	}
	ip, err := e.anchor(dt, am)
	if err != nil {
		return err
	}
	if !one {
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
		if linked { // each name gets the file's new bytes, the destination first
			e.plan.Changes = []Change{{Path: e.m.Dst, Data: out}, {Path: e.m.Src, Data: out}}
		}
	}
	return nil
}

// setInsert records the insertion offset in the destination before the
// move, and the anchor around it.
func (e *evaluation) setInsert(ip int) {
	t := e.m.Target
	e.move().InsertIndex = &ip
	e.move().TargetRange = &Range{ip - len(t.Before), ip + len(t.After)}
}

// anchor locates the unique target anchor in data, whose occurrences are
// am, and returns the insertion offset. An empty anchor (a reversed
// payload-only deletion) is never found.
func (e *evaluation) anchor(data []byte, am Matches) (int, error) {
	t := e.m.Target
	switch {
	case am.Count == 0 || len(t.Before)+len(t.After) == 0:
		return 0, &Error{Code: TargetNotFound, Phase: "target", Path: e.m.Dst, Anchor: anchorTarget, Matches: counted(0),
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
	ip, err := e.anchor(data, findJoined(data, t.Before, t.After))
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
	sm := findText(data, s.Before, e.payload, s.After)
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
	e.plan.Changes = deletion(e.m.Src, data, ps, pe)
	return nil
}

// deletedAlready reports whether an in-file deletion's final state is
// provable from the remaining anchors. Adjacent anchors found several times
// are source_ambiguous.
func deletedAlready(data []byte, s *Hunk, payload []byte, path string) (bool, error) {
	switch {
	case len(s.Before) > 0 && len(s.After) > 0:
		am := findJoined(data, s.Before, s.After)
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
	case missing(err, e.m.Dst):
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

// missing reports whether err says path itself is absent, which a creation
// needs, and not that the work tree's root is (PATH-015): a missing --cwd
// fails every read with file_not_found under its own absolute path.
func missing(err error, path string) bool {
	var fe *Error
	return errors.As(err, &fe) && fe.Code == FileNotFound && fe.Path == path
}

// deletion is the change that cuts data[ps:pe] out of path, and none for
// an empty payload: the file keeps its bytes, so the move is a noop that
// changes and writes nothing, as the releases report it (OUT-009).
func deletion(path string, data []byte, ps, pe int) []Change {
	if ps == pe {
		return nil
	}
	return []Change{{Path: path, Data: [][]byte{data[:ps], data[pe:]}}}
}
