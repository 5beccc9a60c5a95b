package reference

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
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
