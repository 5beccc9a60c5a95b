package fuzz

import (
	"bytes"
	"context"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

func TestCommandUsageIsTidy(t *testing.T) {
	for i, line := range strings.Split(usage, "\n") {
		if len(line) > 80 || strings.TrimRight(line, " \t") != line {
			t.Errorf("usage line %d is longer than 80 columns or ends in blanks: %q", i+1, line)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), "blockpatch-fuzz", []string{"--help"}, &stdout, &stderr); code != 0 || stdout.String() != strings.ReplaceAll(usage, "NAME", "blockpatch-fuzz") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout.String())
	}
}

func TestCommandUsageErrors(t *testing.T) {
	for _, args := range [][]string{
		{"--iterations", "5"}, // no implementation
		{"--", "true"},        // neither --iterations nor --time
		{"--shard", "3/3", "--iterations", "5", "--", "true"}, // shard out of range
		{"--seed", "1", "--shard", "0/0", "--iterations", "5", "--", "true"},
		{"--seed", "1", "--shard", "-1/2", "--iterations", "5", "--", "true"},
		{"--seed", "1", "--shard", "x", "--iterations", "5", "--", "true"},
		{"--shard", "1/2", "--iterations", "5", "--", "true"}, // shards without a common seed
		{"--replay", "x", "--", "true"},
		{"--bogus", "--", "true"},
		{"--iterations", "5", "--", "/no/such/program"},
	} {
		var stdout, stderr bytes.Buffer
		if code := Main(context.Background(), "blockpatch-fuzz", args, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "blockpatch-fuzz: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and a blockpatch-fuzz: message", args, code, stderr.String())
		}
	}
}

// TestFindsAndWrites runs one iteration against a program that is no
// blockpatch at all: it must disagree, exit 1 and write a loadable case.
func TestCommandFindsAndWrites(t *testing.T) {
	if _, err := exec.LookPath("false"); err != nil {
		t.Skip("no false command")
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), "blockpatch-fuzz", []string{"--seed", "1", "--replay", "0", "--shrink-budget", "10", "--out", out, "--cases-format", "--", "false"}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), "1 with disagreements in 1 kinds") {
		t.Errorf("the summary does not count the disagreement:\n%s", stdout.String())
	}
	loaded, err := cases.CorpusOptions.Load(osDirFS(out), ".")
	if err != nil || len(loaded) != 1 {
		t.Fatalf("loading the written case under the corpus options: %d cases, %v", len(loaded), err)
	}
}

func osDirFS(dir string) fs.FS { return os.DirFS(dir) }

// TestCommandReportsTimeout: an implementation that never answers is
// stopped at --timeout, and the disagreement is a timeout, not a crash.
func TestCommandReportsTimeout(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sleep"); err != nil {
		t.Skip("no sleep command")
	}
	script := filepath.Join(t.TempDir(), "silent.sh")
	if err := os.WriteFile(script, []byte("#!/bin/sh\nexec sleep 30\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), "blockpatch-fuzz", []string{"--seed", "1", "--replay", "0", "--timeout", "300ms", "--shrink-budget", "1", "--out", out, "--", script}, &stdout, &stderr)
	if code != 1 {
		t.Fatalf("exit %d, want 1\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	if !strings.Contains(stdout.String(), ": timeout") || strings.Contains(stdout.String(), "crash") {
		t.Errorf("the report does not name a timeout:\n%s", stdout.String())
	}
}

// TestCommandLarge: with --large, the built reference agrees with the
// reference in process on scenarios whose files are padded to megabytes.
func TestCommandLarge(t *testing.T) {
	t.Parallel()
	out := t.TempDir()
	var stdout, stderr bytes.Buffer
	code := Main(context.Background(), "blockpatch-fuzz", []string{"--large", "--seed", "1", "--iterations", "8", "--out", out, "--", referenceBinary(t)}, &stdout, &stderr)
	if code != 0 || !strings.Contains(stdout.String(), "8 iterations") || !strings.Contains(stdout.String(), "large: every scenario pads") {
		t.Fatalf("exit %d, want 0 after 8 iterations\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
}
