package main

import (
	"bytes"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

const benchSize = 64 << 20

// bigTree writes a 64 MiB file with a unique block at one third and a
// unique anchor at two thirds, and a patch moving the block to the anchor.
func bigTree(b *testing.B) (work, patch string) {
	b.Helper()
	dir := b.TempDir()
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
	work = filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	if err := os.WriteFile(filepath.Join(work, "big.txt"), buf.Bytes(), 0o644); err != nil {
		b.Fatal(err)
	}
	payload := "func moved() {\n\treturn 42\n}\n"
	patch = filepath.Join(dir, "p.blockpatch")
	os.WriteFile(patch, []byte(fmt.Sprintf(`diff --blockpatch a/big.txt b/big.txt
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
`, sha256.Sum256([]byte(payload)))), 0o644)
	return work, patch
}

// runCLI runs the built CLI and returns its peak resident memory in bytes,
// as /usr/bin/time reports it: a small parent of its own, since a child's
// peak as seen from this large benchmark process counts pages it shared
// with us before exec.
func runCLI(b *testing.B, args ...string) int64 {
	bin, err := exec.LookPath("blockpatch")
	if err != nil {
		b.Fatal(err)
	}
	if _, err := os.Stat("/usr/bin/time"); err != nil {
		if out, err := exec.Command(bin, args...).CombinedOutput(); err != nil {
			b.Fatalf("%v: %s", err, out)
		}
		return 0
	}
	cmd := exec.Command("/usr/bin/time", append([]string{"-f", "maxrss %M", bin}, args...)...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	if out, err := cmd.Output(); err != nil {
		b.Fatalf("%v: %s%s", err, out, stderr.Bytes())
	}
	var kb int64
	if i := bytes.LastIndex(stderr.Bytes(), []byte("maxrss ")); i >= 0 {
		fmt.Sscanf(stderr.String()[i:], "maxrss %d", &kb)
	}
	return kb << 10
}

// BenchmarkCopy64MiB is the baseline: read the file and write a copy.
func BenchmarkCopy64MiB(b *testing.B) {
	work, _ := bigTree(b)
	src := filepath.Join(work, "big.txt")
	b.SetBytes(benchSize)
	for b.Loop() {
		data, err := os.ReadFile(src)
		if err != nil {
			b.Fatal(err)
		}
		if err := os.WriteFile(src+".copy", data, 0o644); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCLIApply64MiB applies the move and its reverse alternately
// through the CLI process and reports the peak RSS relative to the file
// size (rss/size) next to the time.
func BenchmarkCLIApply64MiB(b *testing.B) {
	work, patch := bigTree(b)
	runCLI(b, "version") // warm the page cache for the binary
	b.SetBytes(benchSize)
	var peak int64
	reverse := false
	for b.Loop() {
		args := []string{"apply", patch, "-d", work}
		if reverse {
			args = append(args, "-R")
		}
		reverse = !reverse
		peak = max(peak, runCLI(b, args...))
	}
	b.ReportMetric(float64(peak)/benchSize, "rss/size")
}

// BenchmarkCLICheck64MiB checks the move through the CLI process.
func BenchmarkCLICheck64MiB(b *testing.B) {
	work, patch := bigTree(b)
	b.SetBytes(benchSize)
	var peak int64
	for b.Loop() {
		peak = max(peak, runCLI(b, "check", patch, "-d", work))
	}
	b.ReportMetric(float64(peak)/benchSize, "rss/size")
}

// BenchmarkCLIVersion is the fixed cost of starting the process, to
// subtract from the CLI figures when comparing with the copy baseline.
func BenchmarkCLIVersion(b *testing.B) {
	for b.Loop() {
		runCLI(b, "version")
	}
}
