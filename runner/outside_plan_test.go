//go:build linux

package runner

import (
	"slices"
	"testing"
)

// TestPlanMounts: the overlays cover every visible mount but /proc, /sys
// and /dev, parents first; stacked and covered mounts are left out.
func TestPlanMounts(t *testing.T) {
	t.Parallel()
	info := `22 27 0:21 / /proc rw - proc proc rw
24 27 0:6 / /dev rw - devtmpfs devtmpfs rw
25 24 0:23 / /dev/shm rw - tmpfs tmpfs rw
27 1 254:0 / / rw - ext4 /dev/vda rw
28 27 0:25 / /mnt/a\040b ro - tmpfs none ro
30 27 0:26 / /home rw shared:1 - ext4 /dev/vdb rw
31 30 0:27 / /home rw - tmpfs none rw
32 27 0:28 / /srv/old rw - ext4 /dev/vdc rw
33 27 0:29 / /srv rw - xfs /dev/vdd rw
34 27 0:30 / /net rw - autofs auto rw
35 27 0:31 /hosts /etc/hosts rw - ext4 /dev/vde rw
`
	stat := func(p string) (mountSpec, bool) { return mountSpec{path: p, overlay: p != "/etc/hosts"}, true }
	got, err := planMounts([]byte(info), stat)
	if err != nil {
		t.Fatal(err)
	}
	var paths []string
	for _, m := range got {
		paths = append(paths, m.path)
	}
	// Parents first: / first, then the rest in any order.
	want := []string{"/", "/etc/hosts", "/home", "/mnt/a b", "/srv"}
	if sorted := slices.Sorted(slices.Values(paths)); len(paths) == 0 || paths[0] != "/" || !slices.Equal(sorted, want) {
		t.Errorf("planned %q, want / then %q", paths, want[1:])
	}
	if _, err := planMounts([]byte("22 1 0:21 / /proc rw - proc proc rw\n"), stat); err == nil {
		t.Error("a plan without / was accepted")
	}
}
