package runner

import (
	"bytes"
	"os/exec"
	"runtime"
	"sync"
)

// The runner forks its processes from one thread that lives as long as it
// does, but for an observed command, forked in its own mount namespace on
// a thread kept until the command has ended. bwrap's --die-with-parent has
// the kernel kill the sandbox when the thread that forked it ends (the
// parent-death signal follows the thread, not the process), and the
// runtime ends a thread whenever a goroutine locked to it returns, as
// onOwnThread's do for every observed command: a sandbox forked earlier
// from such a thread was killed in the middle of its work, an adapter
// between two cases.

type spawnRequest struct {
	cmd  *exec.Cmd
	done chan error
}

var (
	spawns       = make(chan spawnRequest)
	spawnerReady sync.Once
)

// startProcess starts cmd from the runner's spawning thread.
func startProcess(cmd *exec.Cmd) error {
	spawnerReady.Do(func() {
		go func() {
			runtime.LockOSThread() // for good: this thread never ends
			for r := range spawns {
				r.done <- r.cmd.Start()
			}
		}()
	})
	done := make(chan error, 1)
	spawns <- spawnRequest{cmd, done}
	return <-done
}

// combinedOutput is cmd.CombinedOutput, started from the spawning thread.
func combinedOutput(cmd *exec.Cmd) ([]byte, error) {
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	err := startProcess(cmd)
	if err == nil {
		err = cmd.Wait()
	}
	return out.Bytes(), err
}
