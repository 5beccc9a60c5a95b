package cli

import (
	"strings"
	"testing"
	"unsafe"
)

// TestSkipPlainStaysInside: the vector skip over bytes that need no
// escape stops at the first byte that does, or at most at the end of s,
// even when the memory past s holds more plain bytes (a string cut from a
// larger patch), from every start and at every length around its blocks.
func TestSkipPlainStaysInside(t *testing.T) {
	t.Parallel()
	buf := []byte(strings.Repeat("a", 200))
	for n := range 100 {
		for k := -1; k < n; k++ { // k: the one byte to escape, or none
			if k >= 0 {
				buf[k] = '"'
			}
			s := unsafe.String(&buf[0], n) // buf's plain bytes follow it
			for i := 0; i <= n; i++ {
				j := skipPlain(s, i)
				if j < i || j > n || strings.Contains(s[i:j], `"`) {
					t.Fatalf("skipPlain(%d bytes with \" at %d, %d) = %d", n, k, i, j)
				}
			}
			if k >= 0 {
				buf[k] = 'a'
			}
		}
	}
}
