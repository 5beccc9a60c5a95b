//go:build unix

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

func sh(t *testing.T, script string) *Command {
	t.Helper()
	c, err := NewCommand([]string{"sh", "-c", script, "sh"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCommandOutcomes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, script string
		check        func(t *testing.T, o Outcome)
	}{
		{"exit status and output", `echo out "$@"; echo err >&2; exit 1`, func(t *testing.T, o Outcome) {
			if o.Exit != 1 || string(o.Stdout) != "out check x\n" || string(o.Stderr) != "err\n" || o.Err != nil {
				t.Errorf("%+v", o)
			}
		}},
		{"stdin", `cat`, func(t *testing.T, o Outcome) {
			if string(o.Stdout) != "input" {
				t.Errorf("stdout %q", o.Stdout)
			}
		}},
		{"crash status", `exit 3`, func(t *testing.T, o Outcome) {
			if o.Exit != 3 || o.Signal != "" {
				t.Errorf("%+v", o)
			}
		}},
		{"signal", `kill -SEGV $$`, func(t *testing.T, o Outcome) {
			if o.Exit != -1 || o.Signal != "segmentation fault" || o.TimedOut {
				t.Errorf("%+v", o)
			}
		}},
		{"bounded capture", `head -c 9000000 /dev/zero`, func(t *testing.T, o Outcome) {
			if !o.Truncated || len(o.Stdout) != DefaultMaxOutput || o.Exit != 0 {
				t.Errorf("truncated %v, %d bytes, exit %d", o.Truncated, len(o.Stdout), o.Exit)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			o := sh(t, tt.script).Exec(context.Background(), Invocation{Args: []string{"check", "x"}, Dir: t.TempDir(), Stdin: []byte("input")})
			tt.check(t, o)
		})
	}
}

// TestCommandTimeoutKillsGroup: a command that hangs, with a helper
// process of its own holding stdout, is killed whole when it times out.
func TestCommandTimeoutKillsGroup(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "helper.pid")
	c := sh(t, `sleep 60 & echo $! > `+pidFile+`; wait`)
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	start := time.Now()
	o := c.Exec(ctx, Invocation{Dir: dir})
	if !o.TimedOut || o.Exit != -1 {
		t.Errorf("%+v, want a timeout", o)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %s to give up", d)
	}
	data, err := os.ReadFile(pidFile)
	if err != nil {
		t.Fatal(err)
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitGone(t, pid)
}

// TestCommandLeftoverHelperIsKilled: a helper started in the background
// by a command that exits at once does not survive the invocation.
func TestCommandLeftoverHelperIsKilled(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	pidFile := filepath.Join(dir, "helper.pid")
	o := sh(t, `sleep 60 >/dev/null 2>&1 & echo $! > `+pidFile).Exec(context.Background(), Invocation{Dir: dir})
	if o.Exit != 0 {
		t.Fatalf("%+v", o)
	}
	data, _ := os.ReadFile(pidFile)
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	waitGone(t, pid)
}

func TestNewCommand(t *testing.T) {
	t.Parallel()
	if _, err := NewCommand([]string{"no-such-blockpatch-implementation"}); err == nil {
		t.Error("a missing program was accepted")
	}
	if _, err := NewCommand(nil); err == nil {
		t.Error("an empty command line was accepted")
	}
	c, err := NewCommand([]string{"sh", "doc.go", "-v", "not-a-file"})
	if err != nil {
		t.Fatal(err)
	}
	if !filepath.IsAbs(c.Argv[0]) || !filepath.IsAbs(c.Argv[1]) || c.Argv[2] != "-v" || c.Argv[3] != "not-a-file" {
		t.Errorf("argv %q: want the program and file arguments absolute, the rest as given", c.Argv)
	}
	d := c.Describe()
	if len(d.Files) != 2 || len(d.Files[0].SHA256) != 64 {
		t.Errorf("files %+v: want the program and the file argument hashed", d.Files)
	}
	if d.Name != "sh doc.go -v not-a-file" {
		t.Errorf("name %q", d.Name)
	}
}

// waitGone fails unless process pid is gone or a zombie (killed, but not
// yet reaped by whoever adopted it) within a short while.
func waitGone(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return
			}
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("helper process %d outlived the invocation", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
