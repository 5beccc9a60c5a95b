package reference

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
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
