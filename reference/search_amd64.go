package reference

import "golang.org/x/sys/cpu"

// hasAVX2 says pairVector may use pairIndexAVX2.
var hasAVX2 = cpu.X86.HasAVX2

// pairIndexAVX2 is in search_amd64.s.
//
//go:noescape
func pairIndexAVX2(a, b, c *byte, blocks int, c1, c2, c3 byte) int

// pairVector looks for the prefilter's bytes at the positions from j on, 32
// at a time, while 32 remain before last. It returns the first position
// found and true, or where the caller should go on looking and false.
func pairVector(data []byte, j, last, i1, i2, i3 int, c1, c2, c3 byte) (int, bool) {
	blocks := (last - j + 1) / 32
	if !hasAVX2 || blocks <= 0 {
		return j, false
	}
	if k := pairIndexAVX2(&data[j+i1], &data[j+i2], &data[j+i3], blocks, c1, c2, c3); k >= 0 {
		return j + k, true
	}
	return j + blocks*32, false
}
