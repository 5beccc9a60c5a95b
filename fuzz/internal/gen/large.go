package gen

import (
	"bytes"
	"math/rand/v2"
	"strconv"
)

// Large files (Options.Large). A tree of a few tokens never reaches what an
// implementation does only with large inputs: the reference maps a file
// from 256 KiB on, splits a search between two cores from 1 MiB, reads a
// file through buffers and streams a patch from 4 MiB, and treats body
// lines of 64 KiB or more apart; another implementation has thresholds of
// its own, most likely at such round sizes. A pad is a filler put among a
// file's tokens that takes the file to one of those sizes or just under
// it, so the move's bytes meet the switch: an anchor across a file's
// middle, a payload or a context of megabytes, a patch of as many.

// PadSizes are the filler sizes a pad takes (Spec.Pad - 1 picks one):
// each size, and the same less a few bytes, so that with the tokens
// around it the file lands on either side of the size.
var PadSizes = []int{
	64<<10 - 24, 64 << 10, 256<<10 - 24, 256 << 10,
	1<<20 - 24, 1 << 20, 4<<20 - 24, 4 << 20,
}

// Pad kinds: the filler's lines.
const (
	// PadLines are numbered lines, each unique, so an anchor in them
	// matches once.
	PadLines = iota
	// PadOneLine is the numbered records of PadLines with no newline: one
	// line as long as the pad, so a hunk's context line holds all of it.
	PadOneLine
	// PadSameLines repeats one line: anchors inside it are ambiguous, with
	// occurrences on both sides of the file's middle.
	PadSameLines
	// PadCRLF are the numbered lines of PadLines ending in CRLF.
	PadCRLF
	numPadKinds
)

// PadKindNames name the pad kinds for notes.
var PadKindNames = []string{"numbered lines", "one line", "one line repeated", "CRLF lines"}

// padFill returns size bytes of filler of a kind. Its bytes are "~",
// digits and line ends, which no token holds but "x = 1\n"'s digit and the
// line ends, so the tokens' anchors rarely match inside it.
func padFill(kind, size int) []byte {
	const tildes = "~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~~"
	b := make([]byte, 0, size+64)
	for i := 0; len(b) < size; i++ {
		if kind == PadSameLines {
			b = append(append(b, tildes...), '\n')
			continue
		}
		b = strconv.AppendInt(append(b, '~'), int64(i), 10)
		b = append(b, tildes[:2+i%37]...)
		switch kind {
		case PadLines:
			b = append(b, '\n')
		case PadCRLF:
			b = append(b, '\r', '\n')
		}
	}
	return b[:size]
}

// drawPad puts a pad into the Spec, in the source file two times in three.
func drawPad(r *rand.Rand, s *Spec) {
	if len(s.Files) == 0 {
		return
	}
	s.Pad = 1 + r.IntN(len(PadSizes))
	s.PadKind = r.IntN(numPadKinds)
	s.PadFile = r.IntN(len(s.Files))
	if r.IntN(3) != 0 {
		s.PadFile = s.Src
	}
	s.PadAt = r.IntN(len(s.Files[s.PadFile%len(s.Files)]) + 1)
}

// padded returns toks as bytes with the Spec's pad before token PadAt, and
// where the pad lies; toks unpadded when the Spec has no pad.
func (s Spec) padded(toks []int) (data []byte, lo, hi int) {
	if s.Pad == 0 {
		return []byte(Join(toks)), 0, 0
	}
	at := abs(s.PadAt) % (len(toks) + 1)
	fill := padFill(abs(s.PadKind)%numPadKinds, PadSizes[(abs(s.Pad)-1)%len(PadSizes)])
	head := Join(toks[:at])
	data = append(append([]byte(head), fill...), Join(toks[at:])...)
	return data, len(head), len(head) + len(fill)
}

// position picks an offset in [lo, hi] of f as position does, but in a
// padded file half the time within 64 bytes of an edge of the pad, or at
// the start of the line there: where the tokens meet the filler.
func (f file) position(r *rand.Rand, lo, hi int) int {
	if f.padHi == 0 || hi <= lo || r.IntN(2) == 0 {
		return position(r, f.data, lo, hi)
	}
	at := f.padLo
	if r.IntN(2) == 0 {
		at = f.padHi
	}
	at = min(max(at+r.IntN(129)-64, lo), hi)
	if r.IntN(2) == 0 {
		if i := bytes.LastIndexByte(f.data[lo:at], '\n'); i >= 0 {
			at = lo + i + 1
		}
	}
	return at
}
