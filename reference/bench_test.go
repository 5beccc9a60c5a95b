package reference

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/benchshape"
)

const benchSize = 64 << 20

// bigFile returns a 64 MiB file with a unique block at one third and a
// unique anchor at two thirds, and the patch moving the block there.
func bigFile() (data []byte, patch string) {
	var buf bytes.Buffer
	buf.Grow(benchSize + 1<<20)
	for i := 0; buf.Len() < benchSize; i++ {
		switch i {
		case 300000:
			buf.WriteString("BEFORE BLOCK\nfunc moved() {\n\treturn 42\n}\nAFTER BLOCK\n")
		case 600000:
			buf.WriteString("TARGET ANCHOR\n")
		}
		fmt.Fprintf(&buf, "line %08d of filler text that is not unique in shape\n", i)
	}
	payload := "func moved() {\n\treturn 42\n}\n"
	patch = section("a/big.txt", "b/big.txt", sha(payload), "") +
		"@@ -1,5 +1,2 @@ blockpatch-source id=move-1\n BEFORE BLOCK\n-func moved() {\n-\treturn 42\n-}\n AFTER BLOCK\n\n" +
		"@@ -9,1 +6,4 @@ blockpatch-target id=move-1\n TARGET ANCHOR\n+func moved() {\n+\treturn 42\n+}\n"
	return buf.Bytes(), patch
}

func bigWorkspace(b *testing.B) (root, patch string) {
	data, patch := bigFile()
	root = b.TempDir()
	if err := os.WriteFile(filepath.Join(root, "big.txt"), data, 0o644); err != nil {
		b.Fatal(err)
	}
	return root, patch
}

// BenchmarkCopy64MiB is the baseline the apply target is stated against:
// read the file, write a copy beside it, rename it over the original.
func BenchmarkCopy64MiB(b *testing.B) {
	root, _ := bigWorkspace(b)
	src := filepath.Join(root, "big.txt")
	b.SetBytes(benchSize)
	for b.Loop() {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(src+".tmp", data, 0o644); err != nil {
			b.Fatal(err)
		}
		if err := os.Rename(src+".tmp", src); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkApply64MiB applies one move in a 64 MiB file through the
// Workspace (read, match, stage, verify, rename), alternating forward and
// reverse so every iteration writes.
func BenchmarkApply64MiB(b *testing.B) {
	root, patch := bigWorkspace(b)
	b.SetBytes(benchSize)
	reverse := false
	for b.Loop() {
		ws, err := NewWorkspace(root)
		if err != nil {
			b.Fatal(err)
		}
		plan, err := Check([]byte(patch), ws, Options{Strip: 1, Reverse: reverse})
		if err != nil || plan.Result.Status != StatusApplied {
			b.Fatalf("%v %v", err, plan)
		}
		if err := Apply(context.Background(), ws, plan); err != nil {
			b.Fatal(err)
		}
		reverse = !reverse
	}
}

// BenchmarkCheck64MiB checks the move without writing.
func BenchmarkCheck64MiB(b *testing.B) {
	root, patch := bigWorkspace(b)
	b.SetBytes(benchSize)
	for b.Loop() {
		ws, _ := NewWorkspace(root)
		if _, err := Check([]byte(patch), ws, Options{Strip: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

// pipeLike is endless input served 64 KiB per read, as a pipe serves it,
// each byte written.
type pipeLike struct{}

var pipeBlock = bytes.Repeat([]byte("blockpatch\n"), 6000)[:64<<10]

func (pipeLike) Read(p []byte) (int, error) { return copy(p, pipeBlock), nil }

// BenchmarkReadLimited reads endless input up to a 256 MiB limit, as a
// pipe serves it, and reports the rate at which the limit answers, to
// compare with copy-64KiB, the same reads into one reused buffer: the
// memory grows without copying, so what ReadLimited adds is filling
// fresh pages.
func BenchmarkReadLimited(b *testing.B) {
	const limit = 256 << 20
	b.Run("ReadLimited", func(b *testing.B) {
		b.SetBytes(limit)
		for b.Loop() {
			if _, err := ReadLimited(pipeLike{}, limit, "stdin"); err == nil {
				b.Fatal("endless input read whole")
			}
		}
	})
	b.Run("copy-64KiB", func(b *testing.B) {
		b.SetBytes(limit)
		buf := make([]byte, 64<<10)
		for b.Loop() {
			for n := 0; n <= limit; {
				k, _ := pipeLike{}.Read(buf)
				n += k
			}
		}
	})
}

// BenchmarkParseLarge parses a patch whose hunks hold 16 MiB each; with
// -benchmem, B/op shows Parse copying the hunk bodies once.
func BenchmarkParseLarge(b *testing.B) {
	payload := bytes.Repeat([]byte(strings.Repeat("x", 63)+"\n"), 1<<18)
	lines := 1 << 18
	var p bytes.Buffer
	fmt.Fprintf(&p, "diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=m payload-sha256=%064x\n--- a/f\n+++ b/f\n\n", 0)
	fmt.Fprintf(&p, "@@ -1,%d +1,2 @@ blockpatch-source id=m\n alpha\n", lines+2)
	for l := range bytes.Lines(payload) {
		p.WriteString("-")
		p.Write(l)
	}
	fmt.Fprintf(&p, " omega\n\n@@ -%d,1 +3,%d @@ blockpatch-target id=m\n target\n", lines+3, lines+1)
	for l := range bytes.Lines(payload) {
		p.WriteString("+")
		p.Write(l)
	}
	b.SetBytes(int64(p.Len()))
	for b.Loop() {
		if _, err := Parse(p.Bytes()); err != nil {
			b.Fatal(err)
		}
	}
}

// benchShapeSizes are the sizes, in MiB, of the shape benchmarks.
var benchShapeSizes = []int{1, 16, 64}

// shapeBench is one shape's tree at one size with its rendered patch and
// the searches check makes in it.
type shapeBench struct {
	files MapFiles
	patch []byte
	// finds are the needles check searches for, each with the file it
	// searches.
	finds []struct{ data, needle []byte }
	bytes int64 // the bytes of the files the move touches
}

func newShapeBench(b *testing.B, s benchshape.Shape, size int) *shapeBench {
	b.Helper()
	t := s.Build(size)
	req, err := DecodeRequest(t.Request())
	if err != nil {
		b.Fatal(err)
	}
	sb := &shapeBench{files: MapFiles(t.Files)}
	plan, err := PlanRequest(req, sb.files)
	if err != nil {
		b.Fatalf("%s: %v", s.Name, err)
	}
	sb.patch = []byte(*plan.Result.Patch)
	p, err := Parse(sb.patch)
	if err != nil {
		b.Fatal(err)
	}
	m, err := p.Resolve(1)
	if err != nil {
		b.Fatal(err)
	}
	src, dst := sb.files[m.Src], sb.files[m.Dst]
	add := func(data []byte, needle ...[]byte) {
		sb.finds = append(sb.finds, struct{ data, needle []byte }{data, concat(needle...)})
	}
	add(src, m.Source.Before, m.Source.Payload, m.Source.After)
	add(dst, m.Target.Before, m.Target.Payload, m.Target.After)
	add(dst, m.Target.Before, m.Target.After)
	for _, path := range t.Touched() {
		sb.bytes += int64(len(t.Files[path]))
	}
	return sb
}

// BenchmarkShapes measures, for every shape of internal/benchshape at 1,
// 16 and 64 MiB, the searches check makes (find: the source hunk, the
// final text and the target anchor, each over its whole file, so MB/s is
// the search's own speed) and check itself over the files in memory
// (check: parsing and hashing the payload included; MB/s counts the bytes
// of the files the move touches once).
//
//	go test -run '^$' -bench Shapes -count 5 ./reference
func BenchmarkShapes(b *testing.B) {
	for _, s := range benchshape.Shapes {
		for _, mib := range benchShapeSizes {
			var sb *shapeBench
			setup := func(b *testing.B) {
				if sb == nil {
					sb = newShapeBench(b, s, mib<<20)
				}
			}
			name := s.Name + "/" + strconv.Itoa(mib) + "MiB"
			b.Run("find/"+name, func(b *testing.B) {
				setup(b)
				var n int64
				for _, f := range sb.finds {
					n += int64(len(f.data))
				}
				b.SetBytes(n)
				cpu := cpuTime()
				for b.Loop() {
					for _, f := range sb.finds {
						Find(f.data, f.needle)
					}
				}
				reportCPU(b, cpu, n)
			})
			if s.Name == "filler" {
				// The limit: the runtime's IndexByte reading the
				// whole file for a byte it does not hold, the
				// speed at which this machine reads memory.
				b.Run("limit/"+strconv.Itoa(mib)+"MiB", func(b *testing.B) {
					setup(b)
					data := sb.finds[0].data
					b.SetBytes(int64(len(data)))
					cpu := cpuTime()
					for b.Loop() {
						if bytes.IndexByte(data, 0xff) >= 0 {
							b.Fatal("0xff in the filler")
						}
					}
					reportCPU(b, cpu, int64(len(data)))
				})
			}
			b.Run("check/"+name, func(b *testing.B) {
				setup(b)
				b.SetBytes(sb.bytes)
				cpu := cpuTime()
				for b.Loop() {
					plan, err := Check(sb.patch, sb.files, Options{Strip: 1})
					if err != nil || plan.Result.Status != StatusApplied {
						b.Fatalf("%v %v", err, plan)
					}
				}
				reportCPU(b, cpu, sb.bytes)
			})
		}
	}
}

// cpuTime is the CPU time this process has used. On a machine shared with
// other work, wall time per operation grows with the load while CPU time
// barely does, so the shape benchmarks report both.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports cpu-MB/s: the bytes of an operation over the CPU time
// it took since start (the process's, so garbage collection included).
func reportCPU(b *testing.B, start time.Duration, bytes int64) {
	if d := cpuTime() - start; d > 0 && b.N > 0 {
		b.ReportMetric(float64(bytes)*float64(b.N)/1e6/d.Seconds(), "cpu-MB/s")
	}
}

// BenchmarkPairVectorCall measures one call of the prefilter's vector loop
// over two blocks with no candidate: the cost each candidate adds when
// candidates are close, as on log lines. A setup that mixes legacy SSE
// and 256-bit instructions made it 280 ns on this VM; it is about 4.
func BenchmarkPairVectorCall(b *testing.B) {
	data := bytes.Repeat([]byte("abcdefgh"), 64)
	for b.Loop() {
		pairVector(data, 0, 63, 0, 1, 2, 'x', 'y', 'z')
	}
}
