package cli

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
)

var stopSignals = []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP}

// waitFor polls until ok holds, failing the test after a minute.
func waitFor(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// TestSignalDuringApply stops apply with each signal after it has staged
// its temp file (held there by the WRITE-013 hold, which makes the moment
// exact): the process removes the temp file, changes nothing and fails
// with io_error naming the signal.
func TestSignalDuringApply(t *testing.T) {
	t.Parallel()
	for _, sig := range stopSignals {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			work, hold, dir := t.TempDir(), t.TempDir(), t.TempDir()
			files := map[string]string{"f.txt": "alpha\nmove me\nomega\ntarget\n"}
			writeFiles(t, work, files)
			writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("f.txt")})
			cmd := blockpatch([]string{HoldDirEnv + "=" + hold},
				"apply", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output")
			wait := start(t, cmd)
			waitFor(t, "staging", func() bool {
				_, err := os.Stat(filepath.Join(hold, "staged"))
				return err == nil
			})
			if len(tempFiles(work)) != 1 {
				t.Fatalf("staged, yet the temp files are %q", tempFiles(work))
			}
			cmd.Process.Signal(sig)
			o := wait()
			if o.exit != 1 || o.code() != "io_error" || !strings.Contains(o.stderr, sig.String()) {
				t.Errorf("exit %d, stderr %s; want 1 and io_error naming %q", o.exit, o.stderr, sig)
			}
			if diff := cmp.Diff(files, listTree(t, work)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}

// TestSignalDuringLargeWrite signals apply as soon as its temp file
// appears while it writes a large file: whenever the signal lands, no temp
// file is left and the file is wholly old (the process failed) or wholly
// new (it had begun renaming).
func TestSignalDuringLargeWrite(t *testing.T) {
	t.Parallel()
	pad := strings.Repeat("0123456789abcdef\n", 1<<20) // 17 MiB
	before := "alpha\nmove me\nomega\ntarget\n" + pad
	after := "alpha\nomega\ntarget\nmove me\n" + pad
	for _, sig := range stopSignals {
		t.Run(sig.String(), func(t *testing.T) { // one at a time: the polling needs a core
			work, dir := t.TempDir(), t.TempDir()
			writeFiles(t, work, map[string]string{"f.txt": before})
			writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("f.txt")})
			cmd := blockpatch(nil, "apply", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output")
			wait := start(t, cmd)
			done := make(chan outcome, 1)
			go func() { done <- wait() }()
			var o outcome
		poll:
			for {
				select {
				case o = <-done:
					t.Log("apply ended before its temp file was seen")
					break poll
				default:
				}
				if len(tempFiles(work)) > 0 {
					cmd.Process.Signal(sig)
					o = <-done
					break poll
				}
				time.Sleep(50 * time.Microsecond)
			}
			got, err := os.ReadFile(filepath.Join(work, "f.txt"))
			must(t, err)
			switch {
			case o.exit == 1 && o.code() == "io_error" && string(got) == before:
				t.Log("stopped: ", o.stderr)
			case o.exit == 0 && string(got) == after:
				t.Log("the signal came after the first rename; the write finished")
			default:
				t.Errorf("exit %d, stderr %s, file changed: %v", o.exit, o.stderr, string(got) != before)
			}
			if left := tempFiles(work); len(left) > 0 {
				t.Errorf("temp files left: %q", left)
			}
		})
	}
}

func must(t *testing.T, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}

// TestSignalWhileReading stops apply with each signal while it waits for
// its patch (a FIFO it has opened, so the moment is exact): the run ends
// at once with io_error, and nothing is written.
func TestSignalWhileReading(t *testing.T) {
	t.Parallel()
	for _, sig := range stopSignals {
		t.Run(sig.String(), func(t *testing.T) {
			t.Parallel()
			work, dir := t.TempDir(), t.TempDir()
			files := map[string]string{"f.txt": "alpha\nmove me\nomega\ntarget\n"}
			writeFiles(t, work, files)
			fifo := filepath.Join(dir, "p.blockpatch")
			must(t, syscall.Mkfifo(fifo, 0o600))
			cmd := blockpatch(nil, "apply", fifo, "--cwd", work, "--json-output")
			wait := start(t, cmd)
			w, err := os.OpenFile(fifo, os.O_WRONLY, 0) // returns once apply opened it
			must(t, err)
			defer w.Close()
			cmd.Process.Signal(sig)
			o := wait()
			if o.exit != 1 || o.code() != "io_error" || !strings.Contains(o.stderr, sig.String()) {
				t.Errorf("exit %d, stderr %s; want 1 and io_error naming %q", o.exit, o.stderr, sig)
			}
			if diff := cmp.Diff(files, listTree(t, work)); diff != "" {
				t.Errorf("tree (-want +got):\n%s", diff)
			}
		})
	}
}
