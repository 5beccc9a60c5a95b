package cli

import (
	"flag"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// stressRounds is how many rounds each concurrency stress runs; the
// default keeps go test quick, the proof runs
// go test ./reference/cli -run Stress -stress.rounds=300.
var stressRounds = flag.Int("stress.rounds", 50, "rounds of each concurrency stress test (a quarter under -short)")

func rounds() int {
	if testing.Short() {
		return max(1, *stressRounds/4)
	}
	return *stressRounds
}

// stressPad gives the files some size.
var stressPad = strings.Repeat("padding line\n", 100)

// TestStressTwoPatchesOneFile applies two different patches to the same
// file from two processes at once, round after round. Whatever the
// interleaving, every patch reported applied is in the file: both applied
// means both changes are there, one failed means only the other's is.
func TestStressTwoPatchesOneFile(t *testing.T) {
	t.Parallel()
	const start = "alpha\nmove me\nomega\ntarget\nbeta\nshift me\ngamma\nanchor\n"
	second := "diff --blockpatch a/f.txt b/f.txt\nblockpatch version 1\n" +
		"blockpatch move id=move-1 payload-sha256=" + payloadHash("shift me\n") + "\n" +
		"--- a/f.txt\n+++ b/f.txt\n\n" +
		"@@ -5,3 +5,2 @@ blockpatch-source id=move-1\n beta\n-shift me\n gamma\n\n" +
		"@@ -8,1 +8,2 @@ blockpatch-target id=move-1\n anchor\n+shift me\n"
	want := map[[2]bool]string{ // which applied -> the file
		{false, false}: start,
		{true, false}:  "alpha\nomega\ntarget\nmove me\nbeta\nshift me\ngamma\nanchor\n",
		{false, true}:  "alpha\nmove me\nomega\ntarget\nbeta\ngamma\nanchor\nshift me\n",
		{true, true}:   "alpha\nomega\ntarget\nmove me\nbeta\ngamma\nanchor\nshift me\n",
	}
	patches := [2]string{relocation("f.txt"), second}
	stress(t, func(t *testing.T, work string) [2]bool {
		writeFiles(t, work, map[string]string{"f.txt": start + stressPad})
		applied := applyBoth(t, work, patches)
		got, _ := os.ReadFile(filepath.Join(work, "f.txt"))
		if string(got) != want[applied]+stressPad {
			t.Errorf("lost update: applied %v, the file holds %q", applied, strings.TrimSuffix(string(got), stressPad))
		}
		return applied
	})
}

// TestStressTwoCreations creates the same file with different contents
// from two processes at once: exactly one is applied, and the file holds
// its content.
func TestStressTwoCreations(t *testing.T) {
	t.Parallel()
	create := func(content string) string {
		lines := strings.SplitAfter(strings.TrimSuffix(content, "\n"), "\n")
		return "diff --blockpatch /dev/null b/new.txt\nblockpatch version 1\n" +
			"blockpatch move id=move-1 payload-sha256=" + payloadHash(content) + "\n" +
			"--- /dev/null\n+++ b/new.txt\n\n" +
			"@@ -0,0 +1," + strconv.Itoa(len(lines)) + " @@ blockpatch-target id=move-1\n+" +
			strings.Join(lines, "+") + "\n"
	}
	one, two := "one\n"+stressPad, "two\n"+stressPad
	patches := [2]string{create(one), create(two)}
	stress(t, func(t *testing.T, work string) [2]bool {
		applied := applyBoth(t, work, patches)
		got, err := os.ReadFile(filepath.Join(work, "new.txt"))
		switch {
		case applied[0] == applied[1]:
			t.Errorf("applied %v: exactly one creation must succeed", applied)
		case err != nil:
			t.Error(err)
		case applied[0] && string(got) != one, applied[1] && string(got) != two:
			t.Errorf("lost update: applied %v, the file starts %q", applied, got[:3])
		}
		return applied
	})
}

// stress runs round in fresh work trees, checks no temp file is left, and
// logs how often each outcome came.
func stress(t *testing.T, round func(t *testing.T, work string) [2]bool) {
	counts, done := map[[2]bool]int{}, 0
	for done < rounds() {
		work := t.TempDir()
		counts[round(t, work)]++
		done++
		if left := tempFiles(work); len(left) > 0 {
			t.Errorf("temp files left: %q", left)
		}
		if t.Failed() {
			break
		}
	}
	t.Logf("%d rounds: both applied %d, first only %d, second only %d, neither %d",
		done, counts[[2]bool{true, true}], counts[[2]bool{true, false}], counts[[2]bool{false, true}], counts[[2]bool{false, false}])
}

// applyBoth applies two patches to work from two processes at once and
// reports which succeeded; a failure must be a refusal to write, never a
// crash. Both processes read their patch from stdin, given to both only
// once both have started, so that their reads and writes overlap.
func applyBoth(t *testing.T, work string, patches [2]string) [2]bool {
	t.Helper()
	var (
		wait  [2]func() outcome
		pipes [2]io.WriteCloser
	)
	for i := range patches {
		cmd := blockpatch(nil, "apply", "-", "--cwd", work, "--json-output")
		var err error
		if pipes[i], err = cmd.StdinPipe(); err != nil {
			t.Fatal(err)
		}
		wait[i] = start(t, cmd)
	}
	time.Sleep(5 * time.Millisecond) // let both start up
	for i, p := range pipes {
		go func() {
			io.WriteString(p, patches[i])
			p.Close()
		}()
	}
	var applied [2]bool
	for i := range wait {
		o := wait[i]()
		applied[i] = o.exit == 0
		if code := o.code(); o.exit != 0 && code != "concurrent_modification" && code != "destination_exists" {
			t.Errorf("process %d: exit %d, %s", i+1, o.exit, o.stderr)
		}
	}
	return applied
}
