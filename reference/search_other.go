//go:build !amd64

package reference

// pairVector has no vector form on this machine: the caller compares 8
// positions at a time.
func pairVector(data []byte, j, last, i1, i2, i3 int, c1, c2, c3 byte) (int, bool) {
	return j, false
}
