package main

import (
	"bytes"
	"errors"
	"flag"
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

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/benchshape"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// The benchmarks below run the built CLI as a process on generated trees
// with one move, one per file shape of internal/benchshape (issues 14 and
// 23), and run cp of the files the move touches right before each command,
// so every figure is a ratio to a copy measured under the same load:
//
//	go test -run '^$' -bench CLI -benchtime 5x -count 3 ./cmd/blockpatch
//	go test -run '^$' -bench 'CLI/check/log/' -benchtime 5x ./cmd/blockpatch   # one shape
//
// Metrics: x-cp is the median over the iterations of the command's wall
// time divided by cp's; x-floor, for apply, the same divided by the time of
// replacing the files by a copy of themselves (replaceByCopy), and
// floor-x-cp that time divided by cp's; x-floor-cmd the same against that
// replacement made by the commands cp and mv (replaceByCommands);
// x-out, for plan, the same divided by the time cat takes to deliver the
// command's own output the same way (timed), the least any plan can take
// once its answer is as large as plan's JSON of a patch as large as the
// file; maxrss/file is the command's peak resident memory divided by the
// size of the files touched (the largest of the iterations); ms/MiB is the
// median wall time per MiB touched, flat across sizes when time is linear.

// benchSizes are the file sizes in MiB.
var benchSizes = []int{1, 16, 64}

// benchTree writes, in a fresh directory, the shape's tree of size bytes
// under work/, the move as a request (move.json) and as the patch the
// reference renders for it (p.blockpatch). It returns the directory and
// the paths of the files the move touches.
func benchTree(b *testing.B, shape benchshape.Shape, size int) (dir string, touched []string) {
	b.Helper()
	dir = b.TempDir()
	t := shape.Build(size)
	write := func(name string, data []byte) {
		path := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	for name, data := range t.Files {
		path := filepath.Join(dir, "work", name)
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			b.Fatal(err)
		}
		writeTreeFile(b, path, data)
	}
	req, err := reference.DecodeRequest(t.Request())
	if err != nil {
		b.Fatal(err)
	}
	plan, err := reference.PlanRequest(req, reference.MapFiles(t.Files))
	if err != nil {
		b.Fatalf("%s: %v", shape.Name, err)
	}
	write("p.blockpatch", []byte(*plan.Result.Patch))
	write("move.json", t.Request())
	for _, name := range t.Touched() {
		touched = append(touched, filepath.Join(dir, "work", name))
	}
	return dir, touched
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
	// Output is read and dropped, as a consumer that keeps up would: a
	// buffer growing by copies slows plan --json's 85 MB of JSON on the
	// one-line shape by 2 to 3 times. Errors go to stderr.
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = io.Discard, &stderr
	start := time.Now()
	err := cmd.Run()
	elapsed := time.Since(start)
	if err != nil {
		b.Fatalf("%s %q: %v\n%s", name, args, err, stderr.Bytes())
	}
	if i := bytes.LastIndex(stderr.Bytes(), []byte("maxrss ")); i >= 0 {
		fmt.Sscanf(stderr.String()[i:], "maxrss %d", &rss)
	}
	return elapsed, rss << 10
}

// BenchmarkCLI runs check, apply (the files restored after each run, so
// every run writes; a reversed patch would not do, the context of a
// one-line file changing with the move) and plan --json on every shape of internal/benchshape
// at each size, each next to cp. -bench.gib adds a 1 GiB run of check.
func BenchmarkCLI(b *testing.B) {
	commands := map[string]func(dir string, i int) []string{
		"check": func(dir string, _ int) []string {
			return []string{"check", filepath.Join(dir, "p.blockpatch"), "--cwd", filepath.Join(dir, "work")}
		},
		"apply": func(dir string, _ int) []string {
			return []string{"apply", filepath.Join(dir, "p.blockpatch"), "--cwd", filepath.Join(dir, "work")}
		},
		"plan": func(dir string, _ int) []string {
			return []string{"plan", "--json", filepath.Join(dir, "move.json"), "--cwd", filepath.Join(dir, "work")}
		},
	}
	for _, name := range []string{"check", "apply", "plan"} {
		sizes := benchSizes
		if name == "check" && *benchGiB {
			sizes = append(slices.Clone(sizes), 1024)
		}
		for _, shape := range benchshape.Shapes {
			for _, mib := range sizes {
				b.Run(name+"/"+shape.Name+"/"+strconv.Itoa(mib)+"MiB", func(b *testing.B) {
					if mib >= 1024 { // a generated file ends a little past its size
						b.Setenv("BLOCKPATCH_MAX_INPUT_BYTES", strconv.Itoa(2*mib<<20))
					}
					benchCommand(b, shape, mib<<20, name, commands[name])
				})
			}
		}
	}
}

var benchGiB = flag.Bool("bench.gib", false, "BenchmarkCLI: also check a 1 GiB file of each shape")

var benchCopied = flag.Bool("bench.copied", false,
	"BenchmarkCLI: write the tree's files by the system's copy, as cp and apply write them, instead of in one write")

// writeTreeFile writes a file of the tree, in one write or, with
// -bench.copied, by the system's copy (copy_file_range) from a file
// written beside it. On Linux the two leave the file's pages in the
// system's cache in pieces of different sizes, and so change what mapping
// the file costs: a file written in one write is often cached in huge
// pieces, mapped a few at a time; one written by a copy, as the one apply
// just wrote is, in pages of 4 KiB, mapped one by one.
func writeTreeFile(b *testing.B, path string, data []byte) {
	b.Helper()
	if !*benchCopied {
		if err := os.WriteFile(path, data, 0o644); err != nil {
			b.Fatal(err)
		}
		return
	}
	staged := path + ".staged"
	if err := os.WriteFile(staged, data, 0o644); err != nil {
		b.Fatal(err)
	}
	in, err := os.Open(staged)
	if err != nil {
		b.Fatal(err)
	}
	out, err := os.Create(path)
	if err != nil {
		b.Fatal(err)
	}
	_, err = io.Copy(out, in)
	if err = errors.Join(err, out.Close(), in.Close(), os.Remove(staged)); err != nil {
		b.Fatal(err)
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
func replaceByCopy(b *testing.B, paths []string) time.Duration {
	b.Helper()
	start := time.Now()
	for _, path := range paths {
		replaceOne(b, path)
	}
	return time.Since(start)
}

func replaceOne(b *testing.B, path string) {
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
}

// replaceByCommands replaces each path by a copy of itself as one would
// from a shell: cp to a temp file beside it, then mv over it, each command
// run the way timed runs cp and the command measured. Beside a process's
// start, replaceByCopy's in-process floor is no floor at all for the few
// small files of the tree shape, so apply is measured against this one
// too: x-floor-cmd.
func replaceByCommands(b *testing.B, paths []string) time.Duration {
	b.Helper()
	var total time.Duration
	for _, path := range paths {
		temp := filepath.Join(filepath.Dir(path), ".floor-cmd")
		cp, _ := timed(b, "cp", path, temp)
		mv, _ := timed(b, "mv", temp, path)
		total += cp + mv
	}
	return total
}

// benchCommand times the command made by args, next to cp of the files
// the move touches (to new files); for apply, which replaces them, next to
// replaceByCopy and replaceByCommands of those copies; for plan, next to
// cat of its output.
func benchCommand(b *testing.B, shape benchshape.Shape, size int, name string, args func(dir string, i int) []string) {
	bin := cliBinary(b)
	dir, touched := benchTree(b, shape, size)
	replaces, output := name == "apply", ""
	if name == "plan" {
		output = filepath.Join(dir, "plan.out")
		out, err := exec.Command(bin, args(dir, 0)...).Output()
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(output, out, 0o644); err != nil {
			b.Fatal(err)
		}
	}
	var copies []string
	for i := range touched {
		copies = append(copies, filepath.Join(dir, "copy"+strconv.Itoa(i)+".txt"))
	}
	var originals [][]byte
	var bytes int64
	for _, path := range touched {
		data, err := os.ReadFile(path)
		if err != nil {
			b.Fatal(err)
		}
		originals = append(originals, data)
		bytes += int64(len(data))
	}
	restore := func() {
		if !replaces {
			return
		}
		for j, path := range touched {
			writeTreeFile(b, path, originals[j])
		}
	}
	timed(b, bin, args(dir, 0)...) // warm the page cache for the binary
	restore()
	var ratios, floors, floorsCp, cmdFloors, outs, perMiB []float64
	var peak int64
	b.SetBytes(bytes)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		var cp time.Duration
		for j, path := range touched {
			syncFile(b, path)
			d, _ := timed(b, "cp", path, copies[j])
			cp += d
		}
		var floor, cmdFloor time.Duration
		if replaces {
			for _, path := range copies {
				syncFile(b, path)
			}
			floor = replaceByCopy(b, copies)
			for _, path := range copies {
				syncFile(b, path)
			}
			cmdFloor = replaceByCommands(b, copies)
		}
		for _, path := range copies {
			os.Remove(path)
		}
		var out time.Duration
		if output != "" {
			out, _ = timed(b, "cat", output)
		}
		b.StartTimer()
		d, rss := timed(b, bin, args(dir, i)...)
		b.StopTimer()
		restore()
		b.StartTimer()
		ratios = append(ratios, float64(d)/float64(cp))
		if replaces {
			floors = append(floors, float64(d)/float64(floor))
			floorsCp = append(floorsCp, float64(floor)/float64(cp))
			cmdFloors = append(cmdFloors, float64(d)/float64(cmdFloor))
		}
		if output != "" {
			outs = append(outs, float64(d)/float64(out))
		}
		perMiB = append(perMiB, float64(d)/1e6/(float64(bytes)/(1<<20)))
		peak = max(peak, rss)
	}
	b.ReportMetric(median(ratios), "x-cp")
	if replaces {
		b.ReportMetric(median(floors), "x-floor")
		b.ReportMetric(median(floorsCp), "floor-x-cp")
		b.ReportMetric(median(cmdFloors), "x-floor-cmd")
	}
	if output != "" {
		b.ReportMetric(median(outs), "x-out")
	}
	b.ReportMetric(median(perMiB), "ms/MiB")
	if peak > 0 {
		b.ReportMetric(float64(peak)/float64(bytes), "maxrss/file")
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
