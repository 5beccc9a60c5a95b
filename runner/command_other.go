//go:build !unix

package runner

import (
	"fmt"
	"os"
	"os/exec"
)

// ownGroup does nothing: without process groups only the direct child can
// be killed.
func ownGroup(cmd *exec.Cmd) {}

func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.ProcessState == nil {
		_ = cmd.Process.Kill()
	}
}

func signalOf(ps *os.ProcessState) string { return "" }

func signalName(n int) string { return fmt.Sprintf("signal %d", n) }

const sigXFSZ = 25
