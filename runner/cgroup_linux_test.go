package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
