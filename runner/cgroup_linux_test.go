package runner

import (
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestPidsParent: the runner's own cgroup is found in the pids hierarchy
// of either version from mountinfo and /proc/self/cgroup, below a mount
// whose root is not "/" too, and cgroup2's pids controller is switched on
// for the children when only offered.
func TestPidsParent(t *testing.T) {
	t.Parallel()
	v2 := t.TempDir()
	own := filepath.Join(v2, "a", "b")
	if err := os.MkdirAll(own, 0o755); err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string]string{"cgroup.controllers": "cpu pids\n", "cgroup.subtree_control": "cpu\n"} {
		if err := os.WriteFile(filepath.Join(own, name), []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	mountinfo := strings.Join([]string{
		"30 1 0:26 / /sys/fs/cgroup/pids rw,relatime shared:5 - cgroup cgroup rw,pids",
		"31 1 0:27 / /sys/fs/cgroup/memory rw,relatime - cgroup cgroup rw,memory",
		"32 1 0:28 / " + v2 + " rw,relatime - cgroup2 cgroup2 rw",
	}, "\n") + "\n"
	cgroup := "8:pids:/job/7\n4:memory:/x\n0::/a/b\n"
	tests := []struct {
		version, mountinfo, cgroup, want, err string
	}{
		{"v1", mountinfo, cgroup, "/sys/fs/cgroup/pids/job/7", ""},
		{"v2", mountinfo, cgroup, own, ""},
		{"v1", "30 1 0:26 /job /sys/fs/cgroup/pids rw - cgroup cgroup rw,pids\n", cgroup, "/sys/fs/cgroup/pids/7", ""},
		{"v1", "32 1 0:28 / /x rw - cgroup2 cgroup2 rw\n", cgroup, "", "no such hierarchy"},
		{"v1", mountinfo, "0::/a/b\n", "", "in no cgroup"},
	}
	for _, tt := range tests {
		got, err := pidsParent(tt.version, []byte(tt.mountinfo), []byte(tt.cgroup))
		if got != tt.want || tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
			t.Errorf("%s: %q, %v; want %q, %q", tt.version, got, err, tt.want, tt.err)
		}
	}
	if on, _ := os.ReadFile(filepath.Join(own, "cgroup.subtree_control")); string(on) != "+pids" {
		t.Errorf("cgroup.subtree_control %q, want +pids written", on)
	}
}

// TestKillMemberSparesStrangers: a number read from a cgroup's
// cgroup.procs may name, by the time it is killed, a new process outside
// the cgroup (numbers wrap round quickly under a fork bomb); that process
// is spared, and only a member is killed.
func TestKillMemberSparesStrangers(t *testing.T) {
	t.Parallel()
	pids, err := newPidsCgroups(16)
	if err != nil {
		t.Skip("no pids cgroup can be made here: ", err)
	}
	cg, err := pids.enter(16)
	if err != nil {
		t.Fatal(err)
	}
	defer cg.close()
	start := func(argv ...string) *exec.Cmd {
		cmd := exec.Command(argv[0], argv[1:]...)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
		return cmd
	}
	stranger, member := start("sleep", "30"), start(cg.wrap([]string{"sleep", "30"})...)
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		procs, _ := os.ReadFile(filepath.Join(cg.dir, "cgroup.procs"))
		if strings.Contains(string(procs), strconv.Itoa(member.Process.Pid)) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the member never joined its cgroup")
		}
	}
	name := filepath.Base(cg.dir)
	killMember(stranger.Process.Pid, name)
	killMember(member.Process.Pid, name)
	if err := member.Wait(); err == nil {
		t.Error("the member of the cgroup was not killed")
	}
	if err := stranger.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("a process outside the cgroup was killed: %v", err)
	}
}
