package pdfuzz

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
)

func TestCommandUsageIsTidy(t *testing.T) {
	for i, line := range strings.Split(usage, "\n") {
		if len(line) > 80 || strings.TrimRight(line, " \t") != line {
			t.Errorf("usage line %d is longer than 80 columns or ends in blanks: %q", i+1, line)
		}
	}
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), "patchdiff-fuzz", []string{"--help"}, &stdout, &stderr); code != 0 || !strings.HasPrefix(stdout.String(), "usage: patchdiff-fuzz ") {
		t.Errorf("--help: exit %d, stdout %q", code, stdout.String())
	}
}

// TestCommandFindsAndWrites: a program that is no adapter fails the
// handshake, a harness error (exit 2); a one-shot adapter that shakes hands
// but answers every request with an error message disagrees on every call
// (exit 1), and the one case of its one kind is written and loads.
func TestCommandFindsAndWrites(t *testing.T) {
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), "patchdiff-fuzz", []string{"--seed", "1", "--replay", "0", "--out", t.TempDir(), "--", "true"}, &stdout, &stderr); code != 2 {
		t.Errorf("against true: exit %d, want 2\n%s", code, stderr.String())
	}
	script := filepath.Join(t.TempDir(), "adapter.sh")
	adapter := `#!/bin/sh
read -r line
id=$(printf '%s\n' "$line" | sed 's/^{"id":"\([^"]*\)".*/\1/')
case "$line" in
*'"hello":'*) echo '{"id":"hello","hello":{"protocol":"patchdiff-adapter/1"}}' ;;
*) echo "{\"id\":\"$id\",\"error\":{\"message\":\"no applier here\"}}" ;;
esac
`
	if err := os.WriteFile(script, []byte(adapter), 0o755); err != nil {
		t.Fatal(err)
	}
	out := t.TempDir()
	stdout.Reset()
	stderr.Reset()
	code := Main(context.Background(), "patchdiff-fuzz", []string{"--seed", "1", "--replay", "0,1", "--oneshot", "--shrink-budget", "5", "--max-cases-per-kind", "1", "--out", out, "--", script}, &stdout, &stderr)
	if code != 1 || !strings.Contains(stdout.String(), "2 with disagreements in 1 kinds") {
		t.Fatalf("exit %d, want 1 and 2 disagreements of one kind\nstdout:\n%s\nstderr:\n%s", code, stdout.String(), stderr.String())
	}
	loaded, err := pdcases.LoadDir(out)
	if err != nil || len(loaded) != 1 {
		t.Errorf("the written cases: %d, %v; want 1 that loads", len(loaded), err)
	}
}
