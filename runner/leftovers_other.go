//go:build !linux

package runner

import "os/exec"

// adoptOrphans is possible on Linux only.
func adoptOrphans() bool { return false }

func newMarker() string { return "BLOCKPATCH_CONFORMANCE_INVOCATION=1" }

func leftovers(marker string, pgid int) []string { return nil }

func sweep() []string { return nil }

// waitGroup waits for the command and kills what is left of its group.
func waitGroup(cmd *exec.Cmd) error {
	err := cmd.Wait()
	killGroup(cmd)
	return err
}
