//go:build !amd64

package cli

// skipPlain has no vector form on this machine: plain8 looks 8 bytes at a
// time.
func skipPlain(s string, i int) int { return i }
