package gen

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// Scenario is a built Spec: the tree before the first command, and the
// patch or the request the commands run.
type Scenario struct {
	Spec Spec
	// Protocol is ProtoPatch or ProtoRequest: ProtoPlanned builds a
	// ProtoPatch scenario from the reference planner's patch.
	Protocol int
	Files    reference.MapFiles
	// Patch is the patch of a patch scenario; for a request scenario, the
	// patch the reference planner renders for the request, or nil.
	Patch []byte
	// Request is the move JSON of a request scenario, or the request a
	// planned patch came from.
	Request []byte
	// Strip is the -p count, and StripFlag whether to pass it at all.
	Strip     int
	StripFlag bool
	// Args are the extra arguments: -R for a reversed patch scenario.
	Args []string
	// Move is the move the patch describes before any mutation; nil for a
	// request scenario whose request the planner refuses.
	Move *reference.Move
	// Notes say how the scenario was made, for labels and case files.
	Notes []string
	// Extra holds the tree's entries other than Files: folders with a
	// mode, symlinks and hard links (Options.AllAreas).
	Extra cases.Tree
	// Unprivileged is set when a permission bit must bind the command
	// (a read-only folder): as root it runs without root's override, as
	// the certifier runs an unprivileged case.
	Unprivileged bool
	// Deliver is how the patch reaches the command (DeliverPath ...).
	Deliver int
}

// Build turns a Spec into a Scenario. It never fails: a Spec that makes no
// sense builds a scenario that implementations must reject.
func Build(s Spec) *Scenario {
	files, taken := s.tree()
	files = s.readOnlySource(files, taken)
	sc := &Scenario{Spec: s, Files: reference.MapFiles{}, Strip: 1}
	for _, f := range files {
		sc.Files[f.path] = f.data
	}
	shape := abs(s.Shape) % numShapes
	sc.Notes = append(sc.Notes, ShapeNames[shape])
	for _, f := range files {
		if f.padHi > 0 {
			sc.Notes = append(sc.Notes, fmt.Sprintf("%s padded with %d bytes of %s", f.path, f.padHi-f.padLo, PadKindNames[abs(s.PadKind)%numPadKinds]))
		}
	}
	l := s.layout(files, taken, shape)
	real := l
	if extra := s.trick(&l, shape); extra != nil {
		sc.Extra = extra
		sc.Notes = append(sc.Notes, TrickNames[abs(s.PathTrick)%numTricks])
	}
	sc.build(s, l, shape)
	sc.areas(s, real, shape)
	return sc
}

func (sc *Scenario) build(s Spec, l layout, shape int) {
	sc.Move = l.move(shape, s.Hash == 1)
	req := l.request(shape, s)
	sc.Request = req

	proto := abs(s.Protocol) % numProtocols
	switch proto {
	case ProtoRequest:
		sc.Protocol = ProtoRequest
		sc.Notes = append(sc.Notes, "request")
		if s.Done == 1 {
			if plan, err := planRequest(req, sc.Files); err == nil {
				sc.Files = sc.Files.Apply(plan)
				sc.Notes = append(sc.Notes, "already done")
			}
		}
		if plan, err := planRequest(req, sc.Files); err == nil {
			sc.Patch = []byte(*plan.Result.Patch)
		}
		for _, m := range s.Mutations {
			var name string
			sc.Request, name = MutateRequest(sc.Request, m)
			sc.Notes = append(sc.Notes, name)
		}
		return
	case ProtoPlanned:
		if plan, err := planRequest(req, sc.Files); err == nil {
			sc.Patch = []byte(*plan.Result.Patch)
			sc.Notes = append(sc.Notes, "planned patch")
			if p, err := reference.Parse(sc.Patch); err == nil {
				if m, err := p.Resolve(1); err == nil {
					sc.Move = m
				}
			}
		} else {
			sc.Notes = append(sc.Notes, "planner refused ("+string(reference.CodeOf(err))+"): direct patch")
		}
	}
	sc.Protocol = ProtoPatch
	if sc.Patch == nil {
		sc.Patch = reference.Format(sc.Move.Patch())
		sc.Notes = append(sc.Notes, "direct patch")
	}
	if s.Done == 1 {
		if plan, err := reference.Evaluate(sc.Move, sc.Files); err == nil {
			sc.Files = sc.Files.Apply(plan)
			sc.Notes = append(sc.Notes, "already done")
		}
	}
	if mode := abs(s.Strip) % 5; mode != 0 {
		extra := map[int][]string{1: {"k"}, 2: {"k", "l"}, 3: nil, 4: {"k"}}[mode]
		sc.Strip = map[int]int{1: 2, 2: 3, 3: 0, 4: 4}[mode]
		sc.StripFlag = true
		sc.Patch = WithPrefix(sc.Patch, extra)
		sc.Notes = append(sc.Notes, "-p"+strconv.Itoa(sc.Strip))
	}
	if s.Reverse == 1 {
		sc.Args = []string{"-R"}
		sc.Notes = append(sc.Notes, "-R")
	}
	for _, m := range s.Mutations {
		var name string
		sc.Patch, name = MutatePatch(sc.Patch, m)
		sc.Notes = append(sc.Notes, name)
	}
}

func planRequest(data []byte, files reference.MapFiles) (*reference.Plan, error) {
	req, err := reference.DecodeRequest(data)
	if err != nil {
		return nil, err
	}
	return reference.PlanRequest(req, files)
}

// PrefixPath inserts extra leading components after an a/ or b/ prefix,
// as WithPrefix does to every path of a patch; other paths are kept.
func PrefixPath(path string, extra []string) string {
	if len(extra) == 0 || len(path) < 2 || path[1] != '/' || (path[0] != 'a' && path[0] != 'b') {
		return path
	}
	return path[:2] + strings.Join(extra, "/") + "/" + path[2:]
}

// WithPrefix inserts extra leading components after the a/ and b/ of the
// paths on every section's diff, --- and +++ lines, so that
// -p(1+len(extra)) strips them. It edits the text and renders nothing, so
// the patch keeps its exact bytes elsewhere, mutations included.
func WithPrefix(patch []byte, extra []string) []byte {
	if len(extra) == 0 {
		return patch
	}
	add := func(path []byte) []byte { return []byte(PrefixPath(string(path), extra)) }
	ls := lines(patch)
	for i, l := range ls {
		if !bytes.HasPrefix(l, []byte("diff --blockpatch ")) {
			continue
		}
		body, nl := bytes.CutSuffix(l, []byte{'\n'})
		f := bytes.Split(body, []byte{' '})
		for j := 2; j < len(f); j++ {
			f[j] = add(f[j])
		}
		ls[i] = bytes.Join(f, []byte{' '})
		if nl {
			ls[i] = append(ls[i], '\n')
		}
		for k := i + 1; k < len(ls) && k <= i+4; k++ {
			for _, pre := range []string{"--- ", "+++ "} {
				if rest, ok := bytes.CutPrefix(ls[k], []byte(pre)); ok {
					p, nl := bytes.CutSuffix(rest, []byte{'\n'})
					ls[k] = append([]byte(pre), add(p)...)
					if nl {
						ls[k] = append(ls[k], '\n')
					}
				}
			}
		}
	}
	return join(ls)
}

// RoundTrip is how a parsed patch compares with Parse(Format(p)): exactly,
// except for the counts of a patch with StaleCounts.
func RoundTrip(p *reference.Patch) []cmp.Option {
	opts := []cmp.Option{cmpopts.EquateEmpty()}
	if StaleCounts(p) {
		opts = append(opts, cmpopts.IgnoreFields(reference.Hunk{}, "OldCount", "NewCount"))
	}
	return opts
}

// StaleCounts reports whether a parsed patch has a hunk whose stored
// counts differ from the number of lines its bytes render to: a
// no-newline marker between two lines of one part (payload or context)
// joins them, and Format writes the counts of the lines it renders.
func StaleCounts(p *reference.Patch) bool {
	for _, s := range p.Sections {
		for _, h := range s.Hunks {
			ctx := BodyLines(h.Before) + BodyLines(h.After)
			old, new := ctx, ctx
			if h.Role == reference.RoleSource {
				old += BodyLines(h.Payload)
			} else {
				new += BodyLines(h.Payload)
			}
			if old != h.OldCount || new != h.NewCount {
				return true
			}
		}
	}
	return false
}

// layout is where a Spec puts the move in its tree.
type layout struct {
	src, dst         string
	srcData, dstData []byte
	ps, pe, ip       int
	payload          []byte
	sb, sa, tb, ta   []byte
}

func (s Spec) layout(files []file, taken map[string]bool, shape int) layout {
	n := len(files)
	sf := files[abs(s.Src)%n]
	l := layout{src: sf.path, srcData: sf.data, dst: sf.path, dstData: sf.data}
	d := sf.data
	l.ps = min(abs(s.PS), len(d))
	l.pe = min(l.ps+1+abs(s.PL), len(d))
	l.payload = d[l.ps:l.pe]
	l.sb = d[l.ps-min(abs(s.CB), l.ps) : l.ps]
	l.sa = d[l.pe : l.pe+min(abs(s.CA), len(d)-l.pe)]

	other := func() (string, []byte) { // a file other than the source
		i := abs(s.Dst) % (n + 1)
		if i < n && files[i].path == sf.path {
			i = (i + 1) % (n + 1)
		}
		if i == n {
			for _, p := range NewPaths {
				if !taken[p] {
					return p, nil
				}
			}
		}
		return files[i%n].path, files[i%n].data
	}
	switch shape {
	case ShapeCross:
		l.dst, l.dstData = other()
	case ShapeInsert:
		f := files[abs(s.Dst)%n]
		l.dst, l.dstData = f.path, f.data
		l.src, l.srcData = l.dst, l.dstData
	case ShapeCreate:
		i := abs(s.Dst) % (n + 1)
		if i < n && i != abs(s.Src)%n {
			// by chance an existing file: destination_exists, or
			// already_applied when it holds the payload
			l.dst, l.dstData = files[i].path, files[i].data
		} else {
			l.dst, l.dstData = NewPaths[abs(s.Dst)%len(NewPaths)], nil
			if taken[l.dst] {
				l.dstData = sf.data
			}
		}
	}
	if shape == ShapeInsert || shape == ShapeCreate {
		l.payload = []byte(Join(s.Payload))
	}
	if shape == ShapeRemove {
		l.payload = d
	}
	t := l.dstData
	l.ip = min(abs(s.IP), len(t))
	l.tb = t[l.ip-min(abs(s.TB), l.ip) : l.ip]
	l.ta = t[l.ip : l.ip+min(abs(s.TA), len(t)-l.ip)]
	return l
}

// move is the layout as a move; wrongHash declares another payload hash.
func (l layout) move(shape int, wrongHash bool) *reference.Move {
	m := &reference.Move{ID: reference.MoveID, PayloadSHA256: Sum(l.payload)}
	if wrongHash {
		m.PayloadSHA256 = WrongHash(m.PayloadSHA256)
	}
	source := func() *reference.Hunk {
		return NewHunk(reference.RoleSource, l.srcData, l.ps-len(l.sb), l.sb, l.payload, l.sa)
	}
	target := func() *reference.Hunk {
		return NewHunk(reference.RoleTarget, l.dstData, l.ip-len(l.tb), l.tb, l.payload, l.ta)
	}
	switch shape {
	case ShapeRelocate, ShapeCross:
		m.Shape, m.Src, m.Dst, m.Source, m.Target = reference.ShapeRelocate, l.src, l.dst, source(), target()
	case ShapeInsert:
		m.Shape, m.Src, m.Dst, m.Target = reference.ShapeInsert, l.src, l.dst, target()
	case ShapeDelete:
		m.Shape, m.Src, m.Dst, m.Source = reference.ShapeDelete, l.src, l.dst, source()
	case ShapeCreate:
		m.Shape, m.Src, m.Dst = reference.ShapeCreate, reference.DevNull, l.dst
		m.Target = NewHunk(reference.RoleTarget, nil, 0, nil, l.payload, nil)
	case ShapeRemove:
		m.Shape, m.Src, m.Dst = reference.ShapeRemove, l.src, reference.DevNull
		m.Source = NewHunk(reference.RoleSource, l.srcData, 0, nil, l.payload, nil)
	}
	return m
}

// request is the layout as move JSON, members in a readable order.
func (l layout) request(shape int, s Spec) []byte {
	var kv [][2]string
	set := func(k, v string) { kv = append(kv, [2]string{k, v}) }
	anchors := func() {
		if len(l.tb) > 0 {
			set("target_before", string(l.tb))
		}
		if len(l.ta) > 0 {
			set("target_after", string(l.ta))
		}
	}
	switch shape {
	case ShapeRelocate, ShapeCross, ShapeDelete:
		set("src", l.src)
		p := l.payload
		k, k2 := len(p), len(p)
		if len(p) >= 2 {
			k = 1 + abs(s.SK)%(len(p)-1)
			k2 = 1 + abs(s.EK)%(len(p)-k)
		}
		set("src_start", string(p[:k]))
		set("src_end", string(p[len(p)-k2:]))
		switch shape {
		case ShapeCross:
			set("dst", l.dst)
			anchors()
		case ShapeRelocate:
			if l.dst != l.src {
				set("dst", l.dst)
			}
			anchors()
		case ShapeDelete:
			set("dst", reference.DevNull)
		default:
			anchors()
		}
	case ShapeInsert:
		set("src", reference.DevNull)
		set("dst", l.dst)
		set("payload", string(l.payload))
		anchors()
	case ShapeCreate:
		set("src", reference.DevNull)
		set("dst", l.dst)
		set("payload", string(l.payload))
		set("mode", reference.ModeCreateFile)
	case ShapeRemove:
		set("src", l.src)
		set("dst", reference.DevNull)
		set("mode", reference.ModeRemoveFile)
	}
	switch s.Hash {
	case 0:
		set("expected_payload_sha256", Sum(l.payload))
	case 1:
		set("expected_payload_sha256", WrongHash(Sum(l.payload)))
	}
	var b bytes.Buffer
	b.WriteByte('{')
	for i, e := range kv {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(e[0])
		v, _ := json.Marshal(e[1])
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	switch s.DryRun {
	case 1:
		b.WriteString(`,"dry_run":true`)
	case 2:
		b.WriteString(`,"dry_run":false`)
	}
	b.WriteByte('}')
	return b.Bytes()
}

// SplitsSourceAnchors reports whether a same-file move r of m put its
// payload strictly inside the span of its source's context, so that
// afterwards the source anchor no longer stands as one piece: -R then
// matches the anchors elsewhere and does not restore the tree, as 1.1.0
// and 1.1.1 do too (observed).
func SplitsSourceAnchors(m *reference.Move, r reference.MoveResult) bool {
	if !m.Same() || r.SourceRange == nil || r.InsertIndex == nil {
		return false
	}
	from := r.SourceRange.Start - len(m.Source.Before)
	to := r.SourceRange.End + len(m.Source.After)
	return *r.InsertIndex > from && *r.InsertIndex < to
}

// Sum is the lowercase hex SHA-256 of data.
func Sum(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:])
}

// WrongHash changes the first hex digit of a hash.
func WrongHash(h string) string {
	c := byte('0')
	if h[0] == '0' {
		c = '1'
	}
	return string(c) + h[1:]
}

// NewHunk builds a hunk whose first body line sits at offset x of data,
// with the counts its body has and the line numbers unified diff would
// give it (the reference's rendering rules).
func NewHunk(role reference.Role, data []byte, x int, before, payload, after []byte) *reference.Hunk {
	h := &reference.Hunk{Role: role, Before: before, Payload: payload, After: after}
	ctx := BodyLines(before) + BodyLines(after)
	h.OldCount, h.NewCount = ctx, ctx
	if role == reference.RoleSource {
		h.OldCount += BodyLines(payload)
	} else {
		h.NewCount += BodyLines(payload)
	}
	line := 1 + bytes.Count(data[:x], []byte{'\n'})
	h.OldStart, h.NewStart = line, line
	if h.OldCount == 0 {
		h.OldStart--
	}
	if h.NewCount == 0 {
		h.NewStart--
	}
	return h
}

// BodyLines is the number of hunk body lines that show data.
func BodyLines(data []byte) int {
	n := bytes.Count(data, []byte{'\n'})
	if len(data) > 0 && data[len(data)-1] != '\n' {
		n++
	}
	return n
}

// String shows the scenario for a failure message: what it is, the files,
// and the patch or the request, every byte visible.
func (sc *Scenario) String() string {
	var b strings.Builder
	proto := "patch"
	if sc.Protocol == ProtoRequest {
		proto = "request"
	}
	fmt.Fprintf(&b, "%s scenario (%s)", proto, strings.Join(sc.Notes, ", "))
	if sc.StripFlag {
		fmt.Fprintf(&b, ", -p%d", sc.Strip)
	}
	b.WriteString("\nfiles:\n")
	paths := make([]string, 0, len(sc.Files))
	for p := range sc.Files {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	for _, p := range paths {
		fmt.Fprintf(&b, "  %s: %q%s\n", p, clip(sc.Files[p]), clipped(sc.Files[p]))
	}
	if len(paths) == 0 {
		b.WriteString("  (none)\n")
	}
	if sc.Protocol == ProtoRequest {
		fmt.Fprintf(&b, "request: %s\n", sc.Request)
	}
	if sc.Patch != nil {
		b.WriteString("patch:" + clipped(sc.Patch) + "\n")
		b.WriteString(ShowText(clip(sc.Patch), "  | "))
	}
	return b.String()
}

// shown is how much of a file or a patch String shows: a padded file
// (Options.Large) is megabytes, which no reader wants in a message.
const shown = 4 << 10

// clip is data's first shown bytes.
func clip(data []byte) []byte { return data[:min(len(data), shown)] }

// clipped says how much clip left out, if anything.
func clipped(data []byte) string {
	if len(data) <= shown {
		return ""
	}
	return fmt.Sprintf(" (the first %d of %d bytes)", shown, len(data))
}

// ShowText writes data one line per row, each behind prefix, quoting
// the rows that hold bytes a terminal would hide.
func ShowText(data []byte, prefix string) string {
	var b strings.Builder
	for len(data) > 0 {
		i := bytes.IndexByte(data, '\n')
		line := data
		if i >= 0 {
			line, data = data[:i+1], data[i+1:]
		} else {
			data = nil
		}
		body := bytes.TrimSuffix(line, []byte{'\n'})
		if plain(body) && bytes.HasSuffix(line, []byte{'\n'}) {
			b.WriteString(prefix + string(body) + "\n")
		} else {
			b.WriteString(prefix + strconv.Quote(string(line)) + "\n")
		}
	}
	return b.String()
}

func plain(b []byte) bool {
	for _, r := range string(b) {
		if r == 0xFFFD || r < 0x20 && r != '\t' || r == 0x7f {
			return false
		}
	}
	return true
}

// Recount sets every hunk's counts to the lines its bytes render to, so a
// Patch whose bytes were edited formats into a document that parses.
func Recount(p *reference.Patch) {
	for _, s := range p.Sections {
		for _, h := range s.Hunks {
			ctx := BodyLines(h.Before) + BodyLines(h.After)
			h.OldCount, h.NewCount = ctx, ctx
			if h.Role == reference.RoleSource {
				h.OldCount += BodyLines(h.Payload)
			} else {
				h.NewCount += BodyLines(h.Payload)
			}
		}
	}
}
