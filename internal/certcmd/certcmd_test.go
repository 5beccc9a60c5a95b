package certcmd

import (
	"strings"
	"testing"
	"time"
)

// TestRerun: the rerun line drops the selection, the seed and --keep, and
// adds its own, so it runs the one case in the same order.
func TestRerun(t *testing.T) {
	t.Parallel()
	args := []string{"-run", "x", "--seed=3", "-v", "--keep", "--cases", "dir with space", "--", "./impl", "--flag"}
	got := rerun("blockpatch-conformance", args, []string{"./impl", "--flag"}, "paths/a.b", 9)
	want := `blockpatch-conformance -run '^paths/a\.b$' --seed 9 --keep -v --cases 'dir with space' -- ./impl --flag`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSettingsRefuseNoParallelism: --parallel 0 or below is a bad flag,
// not the default taken silently.
func TestSettingsRefuseNoParallelism(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, -3} {
		f := Flags{Parallel: n, Timeout: time.Second}
		if _, err := f.Settings(nil, nil); err == nil || !strings.Contains(err.Error(), "--parallel") {
			t.Errorf("--parallel %d: %v, want an error naming --parallel", n, err)
		}
	}
}
