package runner

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"runtime/debug"
	"strings"
	"time"
)

// Invocation is one run of an implementation: the arguments after the
// program name, the folder it runs in, and its standard input.
type Invocation struct {
	Args  []string
	Dir   string
	Stdin []byte
	// Env holds NAME=value entries added to the environment of this
	// invocation only, such as the hold-before-commit hook.
	Env []string
	// Writable lists the folders the command may write in, when it runs
	// isolated (Isolation): the case's box, and the hold folder of a race.
	Writable []string
	// Home is the folder HOME and TMPDIR name for an external command;
	// "" is the first writable folder, or else Dir.
	Home string
	// Isolation, when not nil, is how an external command runs.
	Isolation *Isolation
}

// Outcome is what one invocation did. An implementation that rejects its
// input exits 1 with an error: that is an ordinary outcome, judged by the
// case. Err is set only when the implementation could not be run at all.
type Outcome struct {
	// Exit is the exit status, or -1 when the process did not exit by
	// itself (TimedOut, Signal or Err is set).
	Exit           int
	Stdout, Stderr []byte
	// Truncated is set when stdout or stderr exceeded the capture limit
	// and was cut.
	Truncated bool
	// TimedOut is set when the invocation ran past the runner's timeout and
	// was killed.
	TimedOut bool
	// Signal names the signal that ended the process ("killed",
	// "segmentation fault"), or for an in-process implementation the panic
	// that ended the run ("panic: ...").
	Signal string
	// Leftovers names the processes the command left running in a
	// session of their own, found and killed after it ended (without
	// isolation only; isolated commands cannot leave any).
	Leftovers []string
	// Outside names what the command wrote outside the folders it may
	// write ("/tmp/x (written)", "/etc/motd (removed)"), as seen under
	// isolation that observes it (Isolation.Observed); the host is
	// unchanged.
	Outside []string
	// ForksRefused counts the processes the command could not start
	// because of the process limit, as its pids cgroup tells (confine.go).
	ForksRefused int
	// Err is a harness fault: the program could not be started.
	Err     error
	Elapsed time.Duration
}

// Implementation is something that behaves as the blockpatch command line.
type Implementation interface {
	// Exec runs one command line and reports what happened. It honours
	// ctx's deadline by killing the run; it never returns a Go error for a
	// command the implementation rejects.
	Exec(ctx context.Context, inv Invocation) Outcome
	// Describe names the implementation for the certificate and for the
	// command lines printed to reproduce a failure.
	Describe() Description
}

// Commander is an Implementation that can also run as a separate process.
// The runner asks for the process where a run in its own process cannot do
// the job: as root, a case that binds the implementation by permission bits
// runs it as a process that gave up root's override (unprivileged.go).
type Commander interface {
	Implementation
	Command() (*Command, error)
}

// Description names what a run certifies.
type Description struct {
	// Name is a short human name, such as the command line.
	Name string `json:"name"`
	// Argv is the command prefix a person runs to reproduce an invocation
	// by hand: the implementation's arguments follow it.
	Argv []string `json:"argv,omitempty"`
	// Env lists NAME=value settings the reproduce command line needs.
	Env []string `json:"env,omitempty"`
	// Files are the executable and the script files the command names,
	// with their SHA-256, so a certificate says exactly which bytes ran.
	Files []File `json:"files,omitempty"`
	// Build describes the Go build of an embedded implementation.
	Build string `json:"build,omitempty"`
}

// File is a file that makes up an implementation, with its SHA-256.
type File struct {
	Path   string `json:"path"`
	SHA256 string `json:"sha256"`
}

func hashFile(path string) (File, error) {
	f, err := os.Open(path)
	if err != nil {
		return File{}, err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return File{}, err
	}
	return File{Path: path, SHA256: hex.EncodeToString(h.Sum(nil))}, nil
}

// Func adapts a function to Implementation. It is the seam for tests and
// for variants run in process (fakes, deliberately broken implementations).
type Func func(ctx context.Context, inv Invocation) Outcome

// Exec calls f.
func (f Func) Exec(ctx context.Context, inv Invocation) Outcome { return f(ctx, inv) }

// Describe names f generically.
func (f Func) Describe() Description { return Description{Name: "Go function (in process)"} }

// Env is the world an in-process run sees: its standard streams, the
// folder standing in for its working directory, and its environment.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Dir            string
	Getenv         func(string) string
}

// InProcess runs a blockpatch command line implemented in Go inside the
// runner's own process, with no process start per invocation: Main gets the
// arguments and an Env whose Dir is the invocation's folder, and returns the
// exit status. Package embedded wires the reference CLI in this way.
//
// A run that outlives its deadline is reported as timed out; since a
// goroutine cannot be killed, it finishes in the background. A panic is
// reported like a crash, through Outcome.Signal.
type InProcess struct {
	Name string
	Main func(args []string, env Env) int
	// Reproduce is the command prefix printed to rerun an invocation by
	// hand; nil prints none.
	Reproduce []string
}

// Exec runs p.Main on the invocation.
func (p InProcess) Exec(ctx context.Context, inv Invocation) Outcome {
	type done struct {
		exit           int
		stdout, stderr []byte
		panicked       string
	}
	ch := make(chan done, 1)
	start := time.Now()
	go func() {
		var stdout, stderr bytes.Buffer
		d := done{exit: -1}
		defer func() {
			if p := recover(); p != nil {
				d.panicked = fmt.Sprint("panic: ", p)
			}
			d.stdout, d.stderr = stdout.Bytes(), stderr.Bytes()
			ch <- d
		}()
		d.exit = p.Main(inv.Args, Env{
			Stdin:  bytes.NewReader(inv.Stdin),
			Stdout: &stdout,
			Stderr: &stderr,
			Dir:    inv.Dir,
			Getenv: getenv(inv.Env),
		})
	}()
	select {
	case d := <-ch:
		o := Outcome{Exit: d.exit, Stdout: d.stdout, Stderr: d.stderr, Signal: d.panicked, Elapsed: time.Since(start)}
		if d.panicked != "" {
			o.Exit = -1
		}
		return o
	case <-ctx.Done():
		return Outcome{Exit: -1, TimedOut: true, Elapsed: time.Since(start)}
	}
}

// Describe names p and the running executable, which embeds it.
func (p InProcess) Describe() Description {
	d := Description{Name: p.Name, Argv: p.Reproduce}
	if exe, err := os.Executable(); err == nil {
		if f, err := hashFile(exe); err == nil {
			d.Files = []File{f}
		}
	}
	d.Build = buildInfo()
	return d
}

func buildInfo() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ""
	}
	parts := []string{bi.GoVersion}
	if bi.Main.Path != "" {
		parts = append(parts, bi.Main.Path+"@"+bi.Main.Version)
	}
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision", "vcs.modified":
			parts = append(parts, s.Key+"="+s.Value)
		}
	}
	return strings.Join(parts, " ")
}

// getenv looks a name up in env (NAME=value entries, the last one winning)
// and then in the process's environment.
func getenv(env []string) func(string) string {
	return func(key string) string {
		for i := len(env) - 1; i >= 0; i-- {
			if k, v, ok := strings.Cut(env[i], "="); ok && k == key {
				return v
			}
		}
		return os.Getenv(key)
	}
}
