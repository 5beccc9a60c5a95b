package cli

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// swapOut moves the folder sub of work out to outside and leaves a symlink
// to it in its place: the attack of a parent folder swapped while apply
// runs.
func swapOut(t *testing.T, work, outside string) {
	t.Helper()
	must(t, os.Rename(filepath.Join(work, "sub"), filepath.Join(outside, "sub")))
	must(t, os.Symlink(filepath.Join(outside, "sub"), filepath.Join(work, "sub")))
}

// TestSwappedParentAtHold swaps the folder of the file being patched for a
// symlink to where the folder now is, outside --cwd, at the WRITE-013
// hold (after staging, before the re-check): apply refuses and the file,
// now outside, is untouched.
func TestSwappedParentAtHold(t *testing.T) {
	t.Parallel()
	work, outside, hold, dir := t.TempDir(), t.TempDir(), t.TempDir(), t.TempDir()
	const content = "alpha\nmove me\nomega\ntarget\n"
	writeFiles(t, work, map[string]string{"sub/f.txt": content})
	writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("sub/f.txt")})
	wait := start(t, blockpatch([]string{HoldDirEnv + "=" + hold},
		"apply", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output"))
	waitFor(t, "staging", func() bool {
		_, err := os.Stat(filepath.Join(hold, "staged"))
		return err == nil
	})
	swapOut(t, work, outside)
	writeFiles(t, hold, map[string]string{"resume": ""})
	if o := wait(); o.exit != 1 || o.code() != "concurrent_modification" {
		t.Errorf("exit %d, stderr %s; want concurrent_modification", o.exit, o.stderr)
	}
	if diff := cmp.Diff(map[string]string{"sub/": "", "sub/f.txt": content}, listTree(t, outside)); diff != "" {
		t.Errorf("outside --cwd (-want +got):\n%s", diff)
	}
}

// TestSwappedParentRace swaps the folder for the symlink as soon as apply's
// temp file appears while it writes a large file, round after round: apply
// refuses and nothing outside --cwd changes. (A swap in the microseconds
// between the last re-check and the rename would take the write along
// with the folder; the file written is still the one read and re-checked.)
func TestSwappedParentRace(t *testing.T) {
	t.Parallel()
	content := "alpha\nmove me\nomega\ntarget\n" + strings.Repeat("0123456789abcdef\n", 1<<19) // 8.5 MiB
	dir := t.TempDir()
	writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("sub/f.txt")})
	rounds := 4
	if testing.Short() {
		rounds = 1
	}
	for range rounds {
		work, outside := t.TempDir(), t.TempDir()
		writeFiles(t, work, map[string]string{"sub/f.txt": content})
		wait := start(t, blockpatch(nil, "apply", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output"))
		done := make(chan outcome, 1)
		go func() { done <- wait() }()
		var (
			o       outcome
			swapped bool
		)
	poll:
		for {
			select {
			case o = <-done:
				t.Log("apply ended before its temp file was seen")
				break poll
			default:
			}
			if len(tempFiles(filepath.Join(work, "sub"))) > 0 {
				swapOut(t, work, outside)
				swapped = true
				o = <-done
				break poll
			}
		}
		if !swapped {
			continue
		}
		if o.code() != "concurrent_modification" {
			t.Errorf("exit %d, stderr %s; want concurrent_modification", o.exit, o.stderr)
		}
		got := listTree(t, outside)
		if len(got) != 2 || got["sub/f.txt"] != content {
			t.Errorf("outside --cwd changed: %d entries, f.txt changed %v", len(got), got["sub/f.txt"] != content)
		}
	}
}
