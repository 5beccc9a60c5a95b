package reference

import (
	"bytes"
	"testing"
)

// TestLineStart: the start of the line holding data[i] is the one after
// the last newline before i, whether that newline is next to i, inside one
// of the stretches lineStart looks back through (doubling up to nearLine,
// then of bufferStretch), on a stretch's edge, first in the data, or
// absent; on lines from one byte to beyond 64 KiB and a stretch, at every i within 300
// bytes of the line's start or 2 of an edge, and at a sample between.
func TestLineStart(t *testing.T) {
	t.Parallel()
	var data []byte
	for _, n := range []int{0, 1, 2, 63, 64, 65, 127, 128, 191, 192, 1000, 4095, 4096, 65535, 65536, 65537, 200000, 400000} {
		data = append(append(data, bytes.Repeat([]byte("x"), n)...), '\n')
	}
	data = append(data, bytes.Repeat([]byte("y"), 70000)...) // the last line has no newline
	// The distances back to the newline at which a stretch ends.
	edges := map[int]bool{}
	for end, w := 0, 64; end < len(data); w = min(2*w, bufferStretch) {
		if w > nearLine {
			w = bufferStretch
		}
		end += w
		for k := -2; k <= 2; k++ {
			edges[end+k] = true
		}
	}
	// A newline only at 0, reached last by the stretches of bufferStretch,
	// and none at all.
	none := bytes.Repeat([]byte("z"), 2*bufferStretch+nearLine)
	first := append([]byte("\n"), none...)
	for _, d := range [][]byte{data, data[len(data)-70000:], first, none} {
		want := 0 // the start of the line holding d[i], kept as i goes
		for i := range d {
			if i > 0 && d[i-1] == '\n' {
				want = i
			}
			if i-want > 300 && !edges[i-want] && i%211 != 0 {
				continue // far into a long line, between the edges
			}
			if got := lineStart(d, i); got != want {
				t.Fatalf("lineStart(%d bytes, %d) = %d, want %d", len(d), i, got, want)
			}
		}
	}
}

// TestLineBefore: the context before offset 1 is empty in data that holds
// a newline anywhere, its first byte included, and starts the line
// otherwise (see lineBefore).
func TestLineBefore(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		data string
		want int
	}{
		{"\nab", 1},
		{"abc\nd", 1},
		{"abc", 0},
	} {
		if got := lineBefore([]byte(tc.data), 1); got != tc.want {
			t.Errorf("lineBefore(%q, 1) = %d, want %d", tc.data, got, tc.want)
		}
	}
}
