package gen

import (
	"bytes"
	"math/rand/v2"
	"path"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

// How the patch reaches the command (Spec.Deliver, CLI-001 to CLI-004):
// its absolute path as the positional argument, "-" with the patch on
// stdin, no path at all with the patch on stdin, -i PATH, --input PATH,
// or a path relative to the shell's folder.
const (
	DeliverPath = iota
	DeliverDash
	DeliverStdin
	DeliverI
	DeliverInput
	DeliverRelative
	numDeliveries
)

// DeliverNames name the deliveries for notes and the coverage table.
var DeliverNames = []string{"path", "- and stdin", "stdin, no path", "-i", "--input", "relative path"}

// Path tricks (Spec.PathTrick): the moved file's operation path made
// absolute (under /dev/null, where nothing can be read or made), with a
// .. segment that stays inside, with one that leaves and comes back,
// through a symlinked folder inside the tree, as a symlink to the file,
// through a symlinked folder that leads outside the tree, with
// backslashes for separators, as a Windows tool writes it (PATH-003); the
// source or the destination alone spelled another way, so that one file
// has two spellings (PATH-014, PATH-016): "./" before it, its last "/"
// doubled (a "/" after it when it has none), or a "/" after it, picked by
// PathTrick / numTricks; and a same-file relocation whose destination is
// another name of the file, a hard link (PATH-016).
const (
	TrickNone = iota
	TrickAbsolute
	TrickDotDotInside
	TrickDotDotEscape
	TrickSymlinkDir
	TrickSymlinkFile
	TrickSymlinkOutside
	TrickBackslash
	TrickSpellSrc
	TrickSpellDst
	TrickLinkedDst
	numTricks
)

// TrickNames name the path tricks.
var TrickNames = []string{"", "absolute path", ".. inside", ".. leaving and coming back", "symlinked folder", "symlink to the file", "symlink leading outside", "backslash separators", "src spelled another way", "dst spelled another way", "dst a hard link to src"}

// Surroundings (Spec.Env).
const (
	EnvNone     = iota
	EnvReadOnly // the source file in a read-only folder: a cross-file write fails midway
	EnvHardLink // a hard link to the written file: a replaced file leaves it alone
	numEnvs
)

// EnvNames name the surroundings.
var EnvNames = []string{"", "source in a read-only folder", "hard link to the written file"}

// Traps (Spec.Trap): the tree holds what the move does not expect.
// TrapTwice adds a second copy of the target anchor (of the source with
// its context for a deletion), makes a creation's destination a file with
// other bytes and gives a removed file other bytes; TrapMany adds 12 more
// copies of the anchor, past the count where 1.1.0 stops
// (matches_truncated). TrapHalfDone leaves the tree as a move cut short
// after its first write: a relocation's payload already at the target
// while the source still holds it (partial_applied_duplicate), a removed
// file already gone. TrapFinalTwice puts the final text, target anchor
// around the payload, twice into the destination (IDEM-002, IDEM-003,
// PLAN-045).
const (
	TrapNone = iota
	TrapTwice
	TrapMany
	TrapHalfDone
	TrapFinalTwice
	numTraps
)

// OtherVersions are the versions Spec.Version 1 to 4 write instead of 1:
// the ones an integer parser accepts come first.
var OtherVersions = []string{"2", "01", "0", "1.1"}

// Names of the extra entries the knobs add; none is a path of Paths or
// NewPaths.
const (
	readOnlyDir = "ro"
	linkName    = "ln"
	fileLink    = "ln.txt"
	hardLink    = "hl"
	linkedDst   = "twin"
)

// drawAreas draws the AllAreas knobs. Each is on often enough that a
// campaign of a hundred iterations meets every one several times
// (fuzz/COVERAGE.md counts them).
func drawAreas(r *rand.Rand, s *Spec, o Options) {
	if r.IntN(3) == 0 {
		s.Deliver = 1 + r.IntN(numDeliveries-1)
		if o.NoInputFlag && (s.Deliver == DeliverI || s.Deliver == DeliverInput) {
			s.Deliver = DeliverPath
		}
	}
	if r.IntN(5) == 0 {
		s.PathTrick = 1 + r.IntN(numTricks-1)
		if r.IntN(3) == 0 { // one file named twice: the fewest scenarios show it
			s.PathTrick = TrickSpellSrc + r.IntN(numTricks-TrickSpellSrc)
		}
		// A path spelled two ways, or a hard link, needs a move that
		// names one file twice: an in-file shape that reads the side
		// spelled, or a same-file relocation.
		shape := ShapeRelocate
		switch s.PathTrick {
		case TrickSpellSrc, TrickSpellDst:
			s.PathTrick += numTricks * r.IntN(len(spellings))
			if r.IntN(2) == 0 {
				shape = map[int]int{TrickSpellSrc: ShapeDelete, TrickSpellDst: ShapeInsert}[s.PathTrick%numTricks]
			}
			fallthrough
		case TrickLinkedDst:
			if len(o.Shapes) == 0 || containsInt(o.Shapes, shape) {
				s.Shape = shape
			}
		}
	}
	switch r.IntN(10) {
	case 0, 1:
		s.Env = EnvReadOnly
		// The failure is midway only for a cross-file move, destination
		// written first.
		if len(o.Shapes) == 0 || containsInt(o.Shapes, ShapeCross) {
			s.Shape = ShapeCross
			if len(s.Files) < 2 {
				s.Files = append(s.Files, []int{1})
				s.Paths = append(s.Paths, 1)
			}
		}
	case 2:
		s.Env = EnvHardLink
	}
	if s.Protocol != ProtoRequest && r.IntN(12) == 0 {
		s.Version = 1 + r.IntN(len(OtherVersions))
	}
	if s.Protocol != ProtoRequest && r.IntN(12) == 0 {
		s.Blank = 1
	}
	if r.IntN(3) == 0 {
		s.Trap = 1 + r.IntN(numTraps-1)
	}
}

func containsInt(xs []int, x int) bool {
	for _, v := range xs {
		if v == x {
			return true
		}
	}
	return false
}

// spellings write a path another way that names the same file.
var spellings = []func(string) string{
	func(p string) string { return "./" + p },
	func(p string) string {
		if i := strings.LastIndexByte(p, '/'); i >= 0 {
			return p[:i] + "//" + p[i+1:]
		}
		return p + "/"
	},
	func(p string) string { return p + "/" },
}

// readOnlySource moves the source file into the read-only folder.
func (s Spec) readOnlySource(files []file, taken map[string]bool) []file {
	if abs(s.Env)%numEnvs != EnvReadOnly {
		return files
	}
	i := abs(s.Src) % len(files)
	p := readOnlyDir + "/" + path.Base(files[i].path)
	if taken[p] {
		return files
	}
	delete(taken, files[i].path)
	taken[p] = true
	files[i].path = p
	return files
}

// trick rewrites the layout's source path (or, for a creation, its
// destination) by s.PathTrick and returns the entries the trick needs.
func (s Spec) trick(l *layout, shape int) cases.Tree {
	t := abs(s.PathTrick) % numTricks
	if t == TrickNone {
		return nil
	}
	p := l.src
	if p == "" || p == "/dev/null" || l.srcData == nil && l.dst != "" {
		p = l.dst
	}
	var q string
	extra := cases.Tree{}
	switch t {
	case TrickAbsolute:
		q = "/dev/null/" + p
	case TrickDotDotInside:
		q = "k/../" + p
	case TrickDotDotEscape:
		q = "../work/" + p
	case TrickSymlinkDir:
		q = linkName + "/" + p
		extra[linkName] = cases.Entry{Symlink: "."}
	case TrickSymlinkFile:
		q = fileLink
		extra[fileLink] = cases.Entry{Symlink: p}
	case TrickSymlinkOutside:
		q = linkName + "/" + p
		extra[linkName] = cases.Entry{Symlink: "../inputs"}
	case TrickBackslash:
		q = `.\` + p
		if strings.Contains(p, "/") {
			q = strings.ReplaceAll(p, "/", `\`)
		}
	case TrickSpellSrc, TrickSpellDst:
		spell := spellings[abs(s.PathTrick)/numTricks%len(spellings)]
		if t == TrickSpellSrc && l.src != "" && l.src != "/dev/null" {
			l.src = spell(l.src)
		}
		if t == TrickSpellDst && l.dst != "" && l.dst != "/dev/null" {
			l.dst = spell(l.dst)
		}
		return extra
	case TrickLinkedDst:
		if shape == ShapeRelocate && l.src == l.dst {
			extra[linkedDst] = cases.Entry{Hardlink: l.src}
			l.dst = linkedDst
		}
		return extra
	}
	if l.src == p {
		l.src = q
	}
	if l.dst == p {
		l.dst = q
	}
	return extra
}

// areas applies the AllAreas knobs that act on the built scenario: the
// traps on the tree, the read-only folder and the hard link, the version,
// the blank line and the delivery.
func (sc *Scenario) areas(s Spec, l layout, shape int) {
	switch abs(s.Trap) % numTraps {
	case TrapTwice:
		sc.trap(l, shape, false)
	case TrapMany:
		sc.trap(l, shape, true)
	case TrapHalfDone:
		sc.halfDone(l, shape)
	case TrapFinalTwice:
		sc.finalTwice(l, shape)
	}
	switch abs(s.Env) % numEnvs {
	case EnvReadOnly:
		if _, ok := sc.Files[readOnlyDir+"/"+path.Base(l.src)]; ok {
			sc.Extra = withEntry(sc.Extra, readOnlyDir, cases.Entry{Dir: true, Mode: 0o555})
			sc.Unprivileged = true
			sc.Notes = append(sc.Notes, EnvNames[EnvReadOnly])
		}
	case EnvHardLink:
		for _, p := range []string{l.dst, l.src} {
			if _, ok := sc.Files[p]; ok {
				sc.Extra = withEntry(sc.Extra, hardLink, cases.Entry{Hardlink: p})
				sc.Notes = append(sc.Notes, EnvNames[EnvHardLink])
				break
			}
		}
	}
	if sc.Protocol == ProtoPatch {
		if v := abs(s.Version) % (len(OtherVersions) + 1); v != 0 {
			sc.Patch = bytes.ReplaceAll(sc.Patch, []byte("\nblockpatch version 1\n"), []byte("\nblockpatch version "+OtherVersions[v-1]+"\n"))
			sc.Notes = append(sc.Notes, "version "+OtherVersions[v-1])
		}
		if s.Blank != 0 {
			if p, ok := blankLine(sc.Patch); ok {
				sc.Patch = p
				sc.Notes = append(sc.Notes, "blank line in a hunk, counted")
			}
		}
	}
	if d := abs(s.Deliver) % numDeliveries; d != DeliverPath && sc.Protocol == ProtoPatch {
		sc.Deliver = d
		sc.Notes = append(sc.Notes, "patch via "+DeliverNames[d])
	}
}

func withEntry(t cases.Tree, p string, e cases.Entry) cases.Tree {
	if t == nil {
		t = cases.Tree{}
	}
	t[p] = e
	return t
}

// trap makes the move's refusal certain, with bytes the move does not
// expect: a second copy of the target anchor (or, for a deletion, of the
// source with its context), a file where a creation goes, other bytes
// after a removed file's.
func (sc *Scenario) trap(l layout, shape int, many bool) {
	copies, times := 1, "twice"
	if many {
		// Past the count of 11 that 1.1.0 stops at (MATCH-010).
		copies, times = 12, "13 times"
	}
	switch shape {
	case ShapeCreate:
		if _, ok := sc.Files[l.dst]; !ok {
			sc.Files[l.dst] = append(append([]byte{}, l.payload...), 'x', '\n')
			sc.Notes = append(sc.Notes, "trap: the created file exists with other bytes")
		}
	case ShapeRemove:
		if d, ok := sc.Files[l.src]; ok {
			sc.Files[l.src] = append(append([]byte{}, d...), 'x', '\n')
			sc.Notes = append(sc.Notes, "trap: the removed file holds other bytes")
		}
	case ShapeDelete:
		if d, ok := sc.Files[l.src]; ok {
			for range copies {
				d = concat3(d, l.sb, l.payload, l.sa)
			}
			sc.Files[l.src] = d
			sc.Notes = append(sc.Notes, "trap: the source occurs "+times)
		}
	default:
		if d, ok := sc.Files[l.dst]; ok && len(l.tb)+len(l.ta) > 0 {
			for range copies {
				d = concat3(d, l.tb, l.ta, nil)
			}
			sc.Files[l.dst] = d
			sc.Notes = append(sc.Notes, "trap: the target anchor occurs "+times)
		}
	}
}

// halfDone leaves the tree as a move stopped after its first write: the
// payload inserted at the target while the source still holds it, or a
// removed file already gone. It acts only on an untouched tree, where the
// layout's offsets still hold.
func (sc *Scenario) halfDone(l layout, shape int) {
	switch shape {
	case ShapeRelocate, ShapeCross:
		d, ok := sc.Files[l.dst]
		if !ok || !bytes.Equal(d, l.dstData) || shape == ShapeRelocate && l.ip > l.ps && l.ip < l.pe {
			return
		}
		sc.Files[l.dst] = slices.Concat(d[:l.ip], l.payload, d[l.ip:])
		sc.Notes = append(sc.Notes, "trap: the payload is at the target and still at the source")
	case ShapeRemove:
		if _, ok := sc.Files[l.src]; ok {
			delete(sc.Files, l.src)
			sc.Notes = append(sc.Notes, "trap: the removed file is already gone")
		}
	}
}

// finalTwice appends the final text (target anchor around the payload) to
// the destination twice.
func (sc *Scenario) finalTwice(l layout, shape int) {
	if shape != ShapeRelocate && shape != ShapeCross && shape != ShapeInsert {
		return
	}
	d, ok := sc.Files[l.dst]
	if !ok {
		return
	}
	for range 2 {
		d = concat3(d, l.tb, l.payload, l.ta)
	}
	sc.Files[l.dst] = d
	sc.Notes = append(sc.Notes, "trap: the final text occurs twice")
}

func concat3(a, b, c, d []byte) []byte {
	out := append([]byte{}, a...)
	if len(out) > 0 && out[len(out)-1] != '\n' {
		out = append(out, '\n')
	}
	out = append(out, b...)
	out = append(out, c...)
	return append(out, d...)
}

var hunkHeader = regexp.MustCompile(`(?m)^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// blankLine inserts an empty line after the first hunk's first body line
// (or its header) and raises both counts, as a hand edit that lost a
// context line's leading space does (FMT-014).
func blankLine(patch []byte) ([]byte, bool) {
	m := hunkHeader.FindSubmatchIndex(patch)
	if m == nil {
		return patch, false
	}
	count := func(i int) int {
		if m[2*i] < 0 {
			return 1
		}
		n, _ := strconv.Atoi(string(patch[m[2*i]:m[2*i+1]]))
		return n
	}
	header := "@@ -" + string(patch[m[2]:m[3]]) + "," + strconv.Itoa(count(2)+1) +
		" +" + string(patch[m[6]:m[7]]) + "," + strconv.Itoa(count(4)+1) + " @@"
	rest := patch[m[1]:]
	eol := bytes.IndexByte(rest, '\n')
	if eol < 0 {
		return patch, false
	}
	at := eol + 1
	if next := bytes.IndexByte(rest[at:], '\n'); next >= 0 && at < len(rest) && (rest[at] == ' ' || rest[at] == '+' || rest[at] == '-') {
		at += next + 1
	}
	var out []byte
	out = append(out, patch[:m[0]]...)
	out = append(out, header...)
	out = append(out, rest[:at]...)
	out = append(out, '\n')
	out = append(out, rest[at:]...)
	return out, true
}
