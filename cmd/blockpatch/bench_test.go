package main

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"testing"
	"time"
)

// The benchmarks below run the built CLI as a process on a generated file
// with one move, as issue 14 states its goals, and run cp of the same file
// right before each command, so every figure is a ratio to a copy measured
// under the same load:
//
//	go test -run '^$' -bench CLI -benchtime 5x -count 3 ./cmd/blockpatch
//
// Metrics: x-cp is the median over the iterations of the command's wall
// time divided by cp's; x-floor, for apply, the same divided by the time of
// replacing the file by a copy of itself (replaceByCopy), and floor-x-cp
// that time divided by cp's; maxrss/file is the command's peak resident
// memory divided by the file's size (the largest of the iterations);
// ms/MiB is the median wall time per MiB, flat across sizes when time is
// linear.

// benchSizes are the file sizes in MiB.
var benchSizes = []int{1, 16, 64}

// benchPayload is the block the move carries.
const benchPayload = "func moved() {\n\treturn 42\n}\n"

// benchTree writes, in a fresh directory, work/big.txt of size bytes with
// the block at one third and a unique anchor at two thirds, the patch
// moving it (p.blockpatch) and the same move as a request (move.json).
func benchTree(b *testing.B, size int) (dir string) {
	b.Helper()
	dir = b.TempDir()
	var buf bytes.Buffer
	buf.Grow(size + 4096)
	const line = len("line 00000000 of filler text that is not unique in shape\n")
	lines := size / line
	for i := 0; buf.Len() < size; i++ {
		switch i {
		case lines / 3:
			buf.WriteString("BEFORE BLOCK\n" + benchPayload + "AFTER BLOCK\n")
		case 2 * lines / 3:
			buf.WriteString("TARGET ANCHOR\n")
		}
		fmt.Fprintf(&buf, "line %08d of filler text that is not unique in shape\n", i)
	}
	os.Mkdir(filepath.Join(dir, "work"), 0o755)
	write := func(name string, data []byte) {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	write("work/big.txt", buf.Bytes())
	write("p.blockpatch", fmt.Appendf(nil, `diff --blockpatch a/big.txt b/big.txt
blockpatch version 1
blockpatch move id=move-1 payload-sha256=%x
--- a/big.txt
+++ b/big.txt

@@ -1,5 +1,2 @@ blockpatch-source id=move-1
 BEFORE BLOCK
-func moved() {
-	return 42
-}
 AFTER BLOCK

@@ -9,1 +6,4 @@ blockpatch-target id=move-1
 TARGET ANCHOR
+func moved() {
+	return 42
+}
`, sha256.Sum256([]byte(benchPayload))))
	write("move.json", []byte(`{"src":"big.txt","src_start":"func moved() {\n","src_end":"}\n","target_before":"TARGET ANCHOR\n"}`))
	return dir
}

var (
	buildOnce sync.Once
	builtCLI  string
	buildErr  error
)

// cliBinary builds this command once per benchmark process.
func cliBinary(b *testing.B) string {
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "blockpatch-bench-")
		if err != nil {
			buildErr = err
			return
		}
		builtCLI = filepath.Join(dir, "blockpatch")
		out, err := exec.Command("go", "build", "-o", builtCLI, ".").CombinedOutput()
		if err != nil {
			buildErr = fmt.Errorf("go build: %v: %s", err, out)
		}
	})
	if buildErr != nil {
		b.Fatal(buildErr)
	}
	return builtCLI
}

// timed runs a command and returns its wall time and peak resident memory.
// Where /usr/bin/time exists the command runs under it, a small parent of
// its own: a child forked from this large process would count the pages it
// shared with us before exec in its peak. cp runs the same way, so the
// ratio carries the same fixed cost on both sides.
func timed(b *testing.B, name string, args ...string) (time.Duration, int64) {
	b.Helper()
	var rss int64
	hasTime := true
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		hasTime = false
	}
	cmd := exec.Command(name, args...)
	if hasTime {
		cmd = exec.Command("/usr/bin/time", append([]string{"-f", "maxrss %M", name}, args...)...)
	}
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		b.Fatalf("%s %q: %v\n%s%s", name, args, err, stdout.Bytes(), stderr.Bytes())
	}
	if i := bytes.LastIndex(stderr.Bytes(), []byte("maxrss ")); i >= 0 {
		fmt.Sscanf(stderr.String()[i:], "maxrss %d", &rss)
	}
	return elapsed, rss << 10
}

// BenchmarkCLI runs check, apply (the move and its reverse alternately, so
// every run writes) and plan --json at each size, each next to cp.
func BenchmarkCLI(b *testing.B) {
	commands := map[string]func(dir string, i int) []string{
		"check": func(dir string, _ int) []string {
			return []string{"check", filepath.Join(dir, "p.blockpatch"), "--cwd", filepath.Join(dir, "work")}
		},
		"apply": func(dir string, i int) []string {
			args := []string{"apply", filepath.Join(dir, "p.blockpatch"), "--cwd", filepath.Join(dir, "work")}
			if i%2 == 1 {
				args = append(args, "-R")
			}
			return args
		},
		"plan": func(dir string, _ int) []string {
			return []string{"plan", "--json", filepath.Join(dir, "move.json"), "--cwd", filepath.Join(dir, "work")}
		},
	}
	for _, name := range []string{"check", "apply", "plan"} {
		for _, mib := range benchSizes {
			b.Run(name+"/"+strconv.Itoa(mib)+"MiB", func(b *testing.B) {
				benchCommand(b, mib<<20, name == "apply", commands[name])
			})
		}
	}
}

// syncFile waits until path's data is on disk, so that the next timed
// command finds a file at rest, as a file being edited usually is, and not
// one the previous iteration's write is still pushing out: replacing a
// file waits for the writing back of its old pages to end.
func syncFile(b *testing.B, path string) {
	b.Helper()
	f, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	defer f.Close()
	if err := f.Sync(); err != nil {
		b.Fatal(err)
	}
}

// replaceByCopy replaces path by a copy of itself made the way a safe
// writer must: a temp file beside it, filled by the system's copy, renamed
// over it. That is the least any apply can do to rewrite a file, and on
// ext4 the rename over a file costs more than cp's fresh file (the new
// data is pushed to disk at once, the old file's pages are freed), so
// apply is measured against it too: x-floor. The time includes dropping
// the old file, as apply's does when its process ends.
func replaceByCopy(b *testing.B, path string) time.Duration {
	b.Helper()
	start := time.Now()
	in, err := os.Open(path)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.CreateTemp(filepath.Dir(path), ".floor-")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(out, in); err != nil {
		b.Fatal(err)
	}
	// Closed before the rename, so that the rename, not a deferred close
	// after the clock stops, pays for dropping the old file's pages.
	if err := errors.Join(out.Close(), in.Close()); err != nil {
		b.Fatal(err)
	}
	if err := os.Rename(out.Name(), path); err != nil {
		b.Fatal(err)
	}
	return time.Since(start)
}

// benchCommand times the command made by args, next to cp of the same
// file and, when the command replaces the file, next to replaceByCopy.
func benchCommand(b *testing.B, size int, replaces bool, args func(dir string, i int) []string) {
	bin := cliBinary(b)
	dir := benchTree(b, size)
	big, copied := filepath.Join(dir, "work", "big.txt"), filepath.Join(dir, "copy.txt")
	timed(b, bin, args(dir, 0)...) // warm the page cache for the binary
	if len(args(dir, 1)) > len(args(dir, 0)) {
		timed(b, bin, args(dir, 1)...)
	}
	var ratios, floors, floorsCp, perMiB []float64
	var peak int64
	b.SetBytes(int64(size))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		syncFile(b, big)
		cp, _ := timed(b, "cp", big, copied)
		var floor time.Duration
		if replaces {
			syncFile(b, copied)
			floor = replaceByCopy(b, copied)
		}
		os.Remove(copied)
		b.StartTimer()
		d, rss := timed(b, bin, args(dir, i)...)
		ratios = append(ratios, float64(d)/float64(cp))
		if replaces {
			floors = append(floors, float64(d)/float64(floor))
			floorsCp = append(floorsCp, float64(floor)/float64(cp))
		}
		perMiB = append(perMiB, float64(d)/1e6/float64(size>>20))
		peak = max(peak, rss)
	}
	b.ReportMetric(median(ratios), "x-cp")
	if replaces {
		b.ReportMetric(median(floors), "x-floor")
		b.ReportMetric(median(floorsCp), "floor-x-cp")
	}
	b.ReportMetric(median(perMiB), "ms/MiB")
	if peak > 0 {
		b.ReportMetric(float64(peak)/float64(size), "maxrss/file")
	}
}

func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	if len(s) == 0 {
		return 0
	}
	return s[len(s)/2]
}
