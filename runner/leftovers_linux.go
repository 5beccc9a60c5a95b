package runner

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"

	"golang.org/x/sys/unix"
)

// Without isolation, a command can start a process in a session of its
// own (setsid), out of reach of its process group, that keeps running and
// writing after the command ended. The runner makes itself the subreaper
// of its descendants (PR_SET_CHILD_SUBREAPER), so that such orphans become
// its children, and marks every command's environment, so that it can tell
// whose they are.

const markerEnv = "BLOCKPATCH_CONFORMANCE_INVOCATION"

var (
	subreaper atomic.Bool
	markers   atomic.Uint64
	// running holds the markers of the commands still running.
	running sync.Map
)

// adoptOrphans makes the runner the subreaper of its descendants; it
// reports whether that worked.
func adoptOrphans() bool {
	if subreaper.Load() {
		return true
	}
	if unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) != nil {
		return false
	}
	subreaper.Store(true)
	return true
}

// newMarker returns the environment entry that marks one command and
// every process it starts.
func newMarker() string {
	m := fmt.Sprintf("%s=%d-%d", markerEnv, os.Getpid(), markers.Add(1))
	running.Store(m, true)
	return m
}

// leftovers finds the children of the runner (orphans it adopted) that
// carry marker, kills them, and names those that had left the command's
// process group pgid: a process of the group was killed with it already.
func leftovers(marker string, pgid int) []string {
	defer running.Delete(marker)
	if !subreaper.Load() {
		return nil
	}
	var found []string
	for range 10 { // each kill may orphan further processes
		n := 0
		for _, pid := range children() {
			group := pgrpOf(pid)
			if group != pgid {
				env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
				if err != nil || !bytes.Contains(append([]byte{0}, env...), []byte("\x00"+marker+"\x00")) {
					continue
				}
			}
			n++
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			syscall.Wait4(pid, &ws, 0, nil)
			if group != pgid {
				found = append(found, fmt.Sprintf("pid %d (%s)", pid, bounded(bytes.TrimRight(bytes.ReplaceAll(cmdline, []byte{0}, []byte{' '}), " "), 200)))
			}
		}
		if n == 0 {
			break
		}
	}
	return found
}

// sweep kills and reaps the adopted children the runner's own commands
// left, whichever command they came from, once none of them runs any
// more, and names those that were still running.
func sweep() []string {
	if !subreaper.Load() {
		return nil
	}
	prefix := fmt.Sprintf("%s=%d-", markerEnv, os.Getpid())
	var found []string
	for _, pid := range children() {
		env, err := os.ReadFile(fmt.Sprintf("/proc/%d/environ", pid))
		if err != nil {
			continue
		}
		var marker string
		for e := range bytes.SplitSeq(env, []byte{0}) {
			if bytes.HasPrefix(e, []byte(prefix)) {
				marker = string(e)
			}
		}
		if _, active := running.Load(marker); marker == "" || active {
			continue
		}
		stat, _ := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
		zombie := bytes.Contains(stat, []byte(") Z "))
		syscall.Kill(pid, syscall.SIGKILL)
		var ws syscall.WaitStatus
		syscall.Wait4(pid, &ws, 0, nil)
		if !zombie {
			found = append(found, fmt.Sprintf("pid %d", pid))
		}
	}
	return found
}

// pgrpOf returns the process group of pid, zombies included, or -1.
func pgrpOf(pid int) int {
	stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return -1
	}
	// pid (comm) state ppid pgrp ...; comm may hold anything but ends at
	// the last ')'.
	_, rest, ok := bytes.Cut(stat, []byte(") "))
	if i := bytes.LastIndex(stat, []byte(") ")); ok && i >= 0 {
		rest = stat[i+2:]
	}
	f := strings.Fields(string(rest))
	if len(f) < 3 {
		return -1
	}
	g, err := strconv.Atoi(f[2])
	if err != nil {
		return -1
	}
	return g
}

// children lists the runner's child processes, adopted orphans included.
func children() []int {
	var out []int
	tasks, _ := filepath.Glob("/proc/self/task/*/children")
	for _, t := range tasks {
		b, err := os.ReadFile(t)
		if err != nil {
			continue
		}
		for _, f := range strings.Fields(string(b)) {
			if pid, err := strconv.Atoi(f); err == nil {
				out = append(out, pid)
			}
		}
	}
	return out
}

// waitGroup waits for the command's leader to end, kills what is left of
// its group, and reaps it. The group is killed before the leader is
// reaped: until then the leader's number, which is the group's, cannot be
// given to a new process, so the kill cannot reach a stranger's group.
func waitGroup(cmd *exec.Cmd) error {
	var info unix.Siginfo
	for unix.Waitid(unix.P_PID, cmd.Process.Pid, &info, unix.WEXITED|unix.WNOWAIT, nil) == unix.EINTR {
	}
	killGroup(cmd)
	return cmd.Wait()
}
