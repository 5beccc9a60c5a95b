//go:build unix

package runner

import (
	"os"
	"os/exec"
	"syscall"
)

// ownGroup makes the command the leader of a new process group, so that
// killGroup reaches every process it starts.
func ownGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
}

// killGroup kills every process left in the command's group.
func killGroup(cmd *exec.Cmd) {
	if cmd.Process != nil && cmd.Process.Pid > 0 {
		_ = syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
	}
}

// signalOf names the signal that ended the process, or "" when it exited.
func signalOf(ps *os.ProcessState) string {
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return ws.Signal().String()
	}
	return ""
}

// signalName names signal number n as signalOf does.
func signalName(n int) string { return syscall.Signal(n).String() }

// sigXFSZ ends a process that passed its file size limit.
const sigXFSZ = int(syscall.SIGXFSZ)
