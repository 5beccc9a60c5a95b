package gen

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestPadFill(t *testing.T) {
	t.Parallel()
	for kind := range numPadKinds {
		for _, size := range []int{0, 1, 100, 64 << 10} {
			fill := padFill(kind, size)
			if len(fill) != size {
				t.Fatalf("%s: %d bytes, want %d", PadKindNames[kind], len(fill), size)
			}
		}
		fill := padFill(kind, 64<<10)
		lines := bytes.SplitAfter(fill, []byte("\n"))
		lines = lines[:len(lines)-1] // the last is cut short
		switch kind {
		case PadOneLine:
			if len(lines) != 0 {
				t.Errorf("%s holds a newline", PadKindNames[kind])
			}
		case PadSameLines:
			for _, l := range lines {
				if !bytes.Equal(l, lines[0]) {
					t.Fatalf("%s: %q differs from %q", PadKindNames[kind], l, lines[0])
				}
			}
		default:
			seen := map[string]bool{}
			for _, l := range lines {
				if seen[string(l)] {
					t.Fatalf("%s: %q twice", PadKindNames[kind], l)
				}
				seen[string(l)] = true
				if crlf := bytes.HasSuffix(l, []byte("\r\n")); crlf != (kind == PadCRLF) {
					t.Fatalf("%s: line %q", PadKindNames[kind], l)
				}
			}
		}
		if len(lines) == 1 {
			t.Errorf("%s: one line in 64 KiB", PadKindNames[kind])
		}
	}
}

// TestLargeReachesTheSizes checks that --large draws reach what it is for:
// files past each size, payloads crossing an edge of the pad, and patches
// of 4 MiB or more, which implementations may stream.
func TestLargeReachesTheSizes(t *testing.T) {
	t.Parallel()
	sizes := map[int]int{}
	var crossing, streamed, kinds [numPadKinds]int
	const n = 120
	for k := range uint64(n) {
		s := Random(NewRand(3, k), Options{AllAreas: true, Large: true})
		if s.Pad == 0 {
			t.Fatalf("stream %d: no pad", k)
		}
		files, _ := s.tree()
		for _, f := range files {
			if f.padHi == 0 {
				continue
			}
			kinds[abs(s.PadKind)%numPadKinds]++
			for _, size := range PadSizes {
				if len(f.data) >= size {
					sizes[size]++
				}
			}
		}
		sc := Build(s)
		if len(sc.Patch) >= 4<<20 {
			streamed[abs(s.PadKind)%numPadKinds]++
		}
		if m := sc.Move; m != nil && bytes.Contains(m.Payload(), []byte("~")) && bytes.ContainsFunc(m.Payload(), notFiller) {
			crossing[abs(s.PadKind)%numPadKinds]++
		}
	}
	for _, size := range PadSizes {
		if sizes[size] == 0 {
			t.Errorf("no file of %d bytes or more", size)
		}
	}
	t.Logf("pads by kind %v; payloads with filler and tokens %v; patches of 4 MiB or more %v", kinds, crossing, streamed)
	for kind := range numPadKinds {
		if kinds[kind] == 0 || crossing[kind] == 0 {
			t.Errorf("%s: %d pads, %d payloads with filler and tokens", PadKindNames[kind], kinds[kind], crossing[kind])
		}
	}
	if total := streamed[0] + streamed[1] + streamed[2] + streamed[3]; total == 0 {
		t.Error("no patch of 4 MiB or more")
	}
}

// notFiller is a rune no pad holds.
func notFiller(r rune) bool { return !strings.ContainsRune("~0123456789\r\n", r) }

func TestShrinkDropsThePadFirst(t *testing.T) {
	t.Parallel()
	s := Random(NewRand(3, 1), Options{Large: true})
	c := Shrink(s)
	if len(c) == 0 || c[0].Pad != 0 {
		t.Fatalf("first shrink %+v, want the pad off", c[0])
	}
	if Size(c[0]) >= Size(s) {
		t.Fatal("no smaller")
	}
}

// TestStringClipsLargeFiles: a scenario shown in a message shows the first
// bytes of a padded file and of a large patch, and says so.
func TestStringClipsLargeFiles(t *testing.T) {
	t.Parallel()
	s := Spec{Shape: ShapeDelete, Files: [][]int{{0, 1, 4}}, PS: 2, PL: 1, CB: 2, CA: 2, Pad: len(PadSizes), PadAt: 1}
	sc := Build(s)
	text := sc.String()
	if len(text) > 5*shown || !strings.Contains(text, fmt.Sprintf(" of %d bytes)", len(sc.Files["a.txt"]))) {
		t.Errorf("%d bytes shown:\n%.600s", len(text), text)
	}
	s.Pad = 0
	if text := Build(s).String(); !strings.Contains(text, `"a\nb\naa\n"`) || strings.Contains(text, " bytes)") {
		t.Errorf("an unpadded file is not shown whole:\n%s", text)
	}
}
