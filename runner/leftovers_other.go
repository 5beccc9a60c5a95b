//go:build !linux

package runner

// adoptOrphans is possible on Linux only.
func adoptOrphans() bool { return false }

func newMarker() string { return "BLOCKPATCH_CONFORMANCE_INVOCATION=1" }

func leftovers(marker string, pgid int) []string { return nil }

func sweep() []string { return nil }
