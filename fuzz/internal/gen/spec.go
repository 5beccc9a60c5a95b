// Package gen generates the inputs of blockpatch's fuzz targets, properties
// and differential campaigns: small work trees, move requests and patches,
// biased toward the hard parts of the format (repeated and overlapping
// lines, CRLF, bare CR, missing final newlines, empty files, multibyte and
// invalid UTF-8, nested paths, one-sided and whole-file shapes, payloads at
// the start and the end of files), plus mutators that damage patches and
// requests the way hand edits and buggy tools do.
//
// Everything is deterministic. A Spec is a handful of small integers and
// token lists; Build turns it into a Scenario (tree, patch, request). Random
// draws a Spec from a seeded math/rand/v2 PCG, and Shrink lists smaller
// Specs, so a failure found from a seed shrinks to a readable minimal input
// whatever found it: a gopter property, a native fuzz target or a campaign.
package gen

import (
	"bytes"
	"math/rand/v2"
	"strings"
)

// Tokens are the pieces file contents are made of. Index 0 is the simplest,
// so shrinking toward 0 gives readable files. The vocabulary is tiny on
// purpose: lines repeat and overlap ("a", "aa", "aba"), and every line
// ending appears: "\n", "\r\n", bare "\r" and none at all. Tokens from
// FirstInvalidToken on are not valid UTF-8.
var Tokens = []string{
	"a\n", "b\n", "a", "\n", "aa\n", "ab\n", "aba\n", "a\r\n", "\r\n", "\r",
	"x = 1\n", "{\n", "}\n", "  return\n", " \n", "\t\n", "b",
	"é\n", "日本\n", "😀", "é",
	"\xff", "\xc3", "\xe2\x82\n", "\x00\n",
}

// FirstInvalidToken is the index of the first token that is not valid UTF-8.
const FirstInvalidToken = 21

// Paths are the operation paths files get. "dev/null" is an ordinary file
// (a/dev/null in a patch), not the null endpoint.
var Paths = []string{
	"a.txt", "b.txt", "src/main.go", "dir/sub/deep.txt", "dev/null", "é/ü.txt", "x", "README",
}

// NewPaths are the destinations of whole-file creations that do not exist
// in any tree.
var NewPaths = []string{"new.txt", "new/dir/file.txt", "dir/sub/new.txt"}

// Protocols a scenario is run with.
const (
	// ProtoPatch runs a patch built straight from the tree (check, apply,
	// retry, reverse).
	ProtoPatch = iota
	// ProtoRequest runs a move request (plan, apply of the planned patch,
	// move).
	ProtoRequest
	// ProtoPlanned runs the patch the reference planner renders for the
	// request, as ProtoPatch does. It falls back to ProtoPatch when the
	// reference cannot plan the request.
	ProtoPlanned
	numProtocols
)

// Shapes of a move.
const (
	ShapeRelocate = iota // same-file relocation
	ShapeCross           // cross-file relocation
	ShapeInsert          // in-file insertion
	ShapeDelete          // in-file deletion
	ShapeCreate          // whole-file creation
	ShapeRemove          // whole-file removal
	numShapes
)

// ShapeNames names the shapes for labels and summaries.
var ShapeNames = []string{"relocate", "cross-file", "insert", "delete", "create", "remove"}

// Spec is a scenario as a few small numbers. Offsets and lengths are taken
// modulo what fits, so every Spec builds; zero is always the simplest
// choice, which is what shrinking aims for.
type Spec struct {
	Protocol int
	Shape    int
	// Files holds each file's tokens; Paths picks each file's path.
	Files [][]int
	Paths []int
	// Src and Dst pick the source and destination files.
	Src, Dst int
	// PS is the payload's start in the source file, PL its length minus one.
	PS, PL int
	// CB and CA are the source hunk's context bytes before and after.
	CB, CA int
	// IP is the insertion point in the destination; TB and TA the target
	// context bytes before and after it.
	IP, TB, TA int
	// SK and EK are the lengths of src_start and src_end in a request.
	SK, EK int
	// Payload holds the tokens of an inserted or created payload.
	Payload []int
	// Hash: 0 right, 1 wrong, 2 absent (requests only).
	Hash int
	// Strip picks the -p count: 0 default (-p1, no flag), 1 -p2, 2 -p3,
	// 3 -p0, 4 -p4 with one extra component (strips too much).
	Strip int
	// Reverse 1 runs the patch with -R.
	Reverse int
	// Done 1 starts from the tree the move produces.
	Done int
	// DryRun 1 adds "dry_run": true to a request, 2 "dry_run": false.
	DryRun int
	// Mutations damage the patch (patch protocols) or the request JSON.
	Mutations []Mutation

	// The knobs below are drawn only with Options.AllAreas (ondisk.go).

	// Deliver is how the patch reaches the command (DeliverPath ...).
	Deliver int
	// PathTrick rewrites the moved file's operation path (TrickAbsolute ...).
	PathTrick int
	// Env changes the tree around the move: 1 the source in a read-only
	// folder, 2 a hard link to the written file.
	Env int
	// Version 1 to 4 writes another version than 1 in the patch.
	Version int
	// Blank 1 puts a blank line inside the first hunk, counts raised.
	Blank int
	// Trap changes the tree so that the move meets a state it must
	// refuse or recognise (TrapTwice ...).
	Trap int

	// The knobs below are drawn only with Options.Large (large.go).

	// Pad, when not zero, puts PadSizes[Pad-1] bytes of filler of kind
	// PadKind (PadLines ...) before token PadAt of file PadFile.
	Pad, PadKind, PadFile, PadAt int
}

// Mutation is one mutator applied at a position.
type Mutation struct{ Op, At int }

// NewRand returns the generator's random source for a seed and a stream.
func NewRand(seed, stream uint64) *rand.Rand {
	return rand.New(rand.NewPCG(seed, stream))
}

// Options bias Random.
type Options struct {
	// Protocols restricts the protocols drawn; empty means all.
	Protocols []int
	// Shapes restricts the shapes drawn; empty means all.
	Shapes []int
	// NoInvalidUTF8 keeps file contents and payloads valid UTF-8.
	NoInvalidUTF8 bool
	// MutationRate is the chance that a scenario is mutated at all; a
	// negative value means never. Zero means the default, 0.3.
	MutationRate float64
	// NoHashErrors, NoStrip, NoReverse, NoDone and NoDryRun keep those
	// knobs at zero.
	NoHashErrors, NoStrip, NoReverse, NoDone, NoDryRun bool
	// AllAreas also draws the knobs that reach the spec areas only a
	// command line on disk shows (delivery on stdin and -i, absolute,
	// dot-dot and symlinked paths, a read-only folder, hard links) and the
	// refusals the plain draws reach rarely (other versions, blank lines
	// in hunks, ambiguous anchors, creation onto and removal of files with
	// other bytes). The campaigns set it; the properties, whose invariants
	// are about the plain scenarios, do not.
	AllAreas bool
	// NoInputFlag never hands the patch over with -i or --input, which
	// an implementation without the cli level does not take.
	NoInputFlag bool
	// Large pads a file of every scenario to a size at which readers and
	// searches change their ways (large.go).
	Large bool
}

func pick(r *rand.Rand, from []int, n int) int {
	if len(from) > 0 {
		return from[r.IntN(len(from))]
	}
	return r.IntN(n)
}

// Random draws a Spec. The draws favour what breaks implementations:
// few distinct tokens per file (repeats), payloads and anchors on line
// boundaries and at the start and end of files, empty contexts.
func Random(r *rand.Rand, o Options) Spec {
	s := Spec{Protocol: pick(r, o.Protocols, numProtocols), Shape: pick(r, o.Shapes, numShapes)}
	maxTok := len(Tokens)
	if o.NoInvalidUTF8 || r.IntN(4) != 0 {
		maxTok = FirstInvalidToken
	}
	tokens := func(n int) []int {
		// A small alphabet per file makes repeats likely.
		alphabet := []int{r.IntN(7), r.IntN(7), r.IntN(maxTok), r.IntN(maxTok)}
		out := make([]int, n)
		for i := range out {
			if r.IntN(3) == 0 {
				out[i] = r.IntN(maxTok)
			} else {
				out[i] = alphabet[r.IntN(len(alphabet))]
			}
		}
		return out
	}
	nFiles := 1 + r.IntN(3)
	for range nFiles {
		n := r.IntN(10)
		if r.IntN(10) == 0 {
			n = 0 // an empty file
		}
		s.Files = append(s.Files, tokens(n))
		s.Paths = append(s.Paths, r.IntN(len(Paths)))
	}
	s.Src, s.Dst = r.IntN(nFiles), r.IntN(nFiles+1)
	if s.Shape == ShapeCross && nFiles > 1 && s.Dst%nFiles == s.Src {
		s.Dst = s.Src + 1
	}
	s.Payload = tokens(1 + r.IntN(4))
	if r.IntN(25) == 0 {
		s.Payload = nil
	}

	if o.Large {
		drawPad(r, &s)
	}

	// Positions are chosen on the real content, so the biases land.
	files, _ := s.tree()
	sf := files[s.Src%len(files)]
	src := sf.data
	s.PS = sf.position(r, 0, max(len(src)-1, 0))
	end := sf.position(r, s.PS+1, len(src))
	s.PL = max(end-s.PS-1, 0)
	pe := min(s.PS+1+s.PL, len(src))
	s.CB = context(r, src, s.PS, -1)
	s.CA = context(r, src, pe, +1)
	df := sf
	if s.Shape != ShapeRelocate {
		df = files[s.Dst%len(files)]
	}
	dst := df.data
	s.IP = df.position(r, 0, len(dst))
	if s.Shape == ShapeRelocate && s.IP > s.PS && s.IP < pe && r.IntN(4) != 0 {
		s.IP = pe // keep the target out of the payload, mostly
		if r.IntN(2) == 0 {
			s.IP = s.PS
		}
	}
	s.TB = context(r, dst, s.IP, -1)
	s.TA = context(r, dst, s.IP, +1)
	if s.TB == 0 && s.TA == 0 && r.IntN(8) != 0 {
		if s.IP < len(dst) {
			s.TA = max(1, context(r, dst, s.IP, +1))
		} else {
			s.TB = max(1, context(r, dst, s.IP, -1))
		}
	}
	s.SK, s.EK = r.IntN(6), r.IntN(6)
	if s.Pad != 0 && r.IntN(2) == 0 {
		// Delimiters as long as a pad's lines, which a few bytes of
		// filler never tell apart.
		s.SK, s.EK = r.IntN(64), r.IntN(64)
	}

	if !o.NoHashErrors && r.IntN(15) == 0 {
		s.Hash = 1
	} else if s.Protocol == ProtoRequest && r.IntN(3) == 0 {
		s.Hash = 2
	}
	if !o.NoStrip && r.IntN(8) == 0 {
		s.Strip = 1 + r.IntN(4)
	}
	if !o.NoReverse && r.IntN(8) == 0 {
		s.Reverse = 1
	}
	if !o.NoDone && r.IntN(6) == 0 {
		s.Done = 1
	}
	if !o.NoDryRun && s.Protocol == ProtoRequest && r.IntN(10) == 0 {
		s.DryRun = 1 + r.IntN(2)
	}
	if o.AllAreas {
		drawAreas(r, &s, o)
	}
	rate := o.MutationRate
	if rate == 0 {
		rate = 0.3
	}
	if r.Float64() < rate {
		for n := 1 + r.IntN(2); n > 0; n-- {
			ops := NumPatchMutators
			if s.Protocol == ProtoRequest {
				ops = NumRequestMutators
			}
			s.Mutations = append(s.Mutations, Mutation{Op: r.IntN(ops), At: r.IntN(1 << 20)})
		}
	}
	for _, m := range s.Mutations {
		if s.Protocol != ProtoRequest && PatchMutators[m.Op] == "structure-then-control" && m.At%4 == cutFirstSection && s.Strip == 0 && !o.NoStrip {
			s.Strip = 1 // -p2, a first section of a/NAME strips whole (PATH-017)
		}
	}
	return s
}

// position picks an offset in [lo, hi] of data: a line start, the ends,
// or anywhere.
func position(r *rand.Rand, data []byte, lo, hi int) int {
	if hi <= lo {
		return lo
	}
	switch r.IntN(6) {
	case 0:
		return lo
	case 1:
		return hi
	case 2, 3, 4:
		var starts []int
		for i := lo; i <= hi; i++ {
			if i == 0 || data[i-1] == '\n' {
				starts = append(starts, i)
			}
		}
		if len(starts) > 0 {
			return starts[r.IntN(len(starts))]
		}
	}
	return lo + r.IntN(hi-lo+1)
}

// context picks a context length from at, backwards (dir < 0) or forwards:
// none, whole lines, or any number of bytes.
func context(r *rand.Rand, data []byte, at, dir int) int {
	room := at
	if dir > 0 {
		room = len(data) - at
	}
	if room <= 0 {
		return 0
	}
	switch r.IntN(5) {
	case 0:
		return 0
	case 1:
		return 1 + r.IntN(room)
	}
	lines := 1 + r.IntN(2)
	if dir < 0 {
		x := at
		for ; lines > 0 && x > 0; lines-- {
			x--
			for x > 0 && data[x-1] != '\n' {
				x--
			}
		}
		return at - x
	}
	y := at
	for ; lines > 0 && y < len(data); lines-- {
		i := bytes.IndexByte(data[y:], '\n')
		if i < 0 {
			y = len(data)
		} else {
			y += i + 1
		}
	}
	return y - at
}

// file is one built file; data[padLo:padHi] is its pad, if any.
type file struct {
	path         string
	data         []byte
	padLo, padHi int
}

// tree builds the Spec's files in order, skipping a path already taken.
// It always returns at least one file, empty when the Spec has none.
func (s Spec) tree() ([]file, map[string]bool) {
	var out []file
	taken := map[string]bool{}
	for i, toks := range s.Files {
		p := Paths[0]
		if i < len(s.Paths) {
			p = Paths[abs(s.Paths[i])%len(Paths)]
		}
		if taken[p] {
			continue
		}
		taken[p] = true
		f := file{path: p, data: []byte(Join(toks))}
		if i == abs(s.PadFile)%len(s.Files) {
			f.data, f.padLo, f.padHi = s.padded(toks)
		}
		out = append(out, f)
	}
	if len(out) == 0 {
		out = append(out, file{path: Paths[0], data: []byte{}})
		taken[Paths[0]] = true
	}
	return out, taken
}

// Join concatenates tokens.
func Join(toks []int) string {
	var b strings.Builder
	for _, t := range toks {
		b.WriteString(Tokens[abs(t)%len(Tokens)])
	}
	return b.String()
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}
