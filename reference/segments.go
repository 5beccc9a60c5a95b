package reference

import "bytes"

// equalSegments reports whether the concatenation of segs equals b.
func equalSegments(segs [][]byte, b []byte) bool {
	return sameBytes(segs, [][]byte{b})
}

// sameBytes reports whether the concatenations of a and b are equal.
// Stretches that are the same memory on both sides are not compared, so
// two plans cut from the same file compare in the time of their few
// differing slices.
func sameBytes(a, b [][]byte) bool {
	var x, y []byte
	for {
		for len(x) == 0 && len(a) > 0 {
			x, a = a[0], a[1:]
		}
		for len(y) == 0 && len(b) > 0 {
			y, b = b[0], b[1:]
		}
		if len(x) == 0 || len(y) == 0 {
			return len(x) == len(y)
		}
		n := min(len(x), len(y))
		if &x[0] != &y[0] && !bytes.Equal(x[:n], y[:n]) {
			return false
		}
		x, y = x[n:], y[n:]
	}
}

func concat(parts ...[]byte) []byte {
	n := 0
	for _, p := range parts {
		n += len(p)
	}
	out := bulk(n)
	for _, p := range parts {
		out = append(out, p...)
	}
	return out
}
