package runner

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"time"
)

// DefaultMaxOutput is how many bytes of stdout and of stderr a Command
// keeps per invocation unless told otherwise: room for plan's JSON on a
// file of a few megabytes (the corpus's largest patch, in
// planner/megabyte-block-relocation, prints 2.7 MB), a bound on what a
// runaway implementation costs.
const DefaultMaxOutput = 8 << 20

// Command is an external implementation: a command line prefix, to which
// each invocation's arguments are appended. Every invocation runs in its own
// process group, and the whole group is killed when the invocation times
// out or finishes, so helper processes cannot outlive it.
type Command struct {
	// Argv is the prefix as resolved by NewCommand: the program as an
	// absolute path, and arguments naming existing files made absolute.
	Argv []string
	// Env holds NAME=value entries the command sees besides the allowed
	// ones (EnvAllowed).
	Env []string
	// Pass names more variables of the certifier's environment that the
	// command sees (--env NAME).
	Pass []string
	// MaxOutput is the number of bytes kept of stdout and of stderr;
	// zero means DefaultMaxOutput.
	MaxOutput int
	// Name, when set, names the implementation in the certificate instead
	// of the command line.
	Name string

	given []string // Argv as the user wrote it
}

// NewCommand resolves argv for running from any folder: the program is
// looked up (in PATH when it has no slash) and made absolute, and so is each
// later argument that names an existing file, since invocations run in each
// case's own folder ("node dist/cli.js" keeps working). It fails when the
// program cannot be found: that is a run that cannot start, not a failed
// case.
func NewCommand(argv []string, env ...string) (*Command, error) {
	if len(argv) == 0 || argv[0] == "" {
		return nil, errors.New("no implementation command given")
	}
	prog, err := exec.LookPath(argv[0])
	if err != nil {
		return nil, fmt.Errorf("implementation %q: %w", argv[0], err)
	}
	if prog, err = filepath.Abs(prog); err != nil {
		return nil, err
	}
	resolved := []string{prog}
	for _, a := range argv[1:] {
		if !strings.HasPrefix(a, "-") && !filepath.IsAbs(a) {
			if info, err := os.Stat(a); err == nil && info.Mode().IsRegular() {
				if abs, err := filepath.Abs(a); err == nil {
					a = abs
				}
			}
		}
		resolved = append(resolved, a)
	}
	return &Command{Argv: resolved, Env: env, given: argv}, nil
}

// Exec runs the command with the invocation's arguments appended.
func (c *Command) Exec(ctx context.Context, inv Invocation) Outcome {
	limit := c.MaxOutput
	if limit <= 0 {
		limit = DefaultMaxOutput
	}
	argv := append(c.Argv[:len(c.Argv):len(c.Argv)], inv.Args...)
	isolated := inv.Isolation.Isolated()
	var ob *observation
	if inv.Isolation.Observed() {
		ob = inv.Isolation.watch.begin()
	}
	if isolated {
		argv = inv.Isolation.wrap(argv, inv.Writable, ob)
	} else if inv.Isolation != nil {
		argv = append(inv.Isolation.Limits.prefix(), argv...)
	}
	var cg *commandCgroup
	if inv.Isolation != nil {
		var err error
		if cg, err = inv.Isolation.Limits.cgroup(); err != nil {
			return Outcome{Exit: -1, Err: err}
		} else if cg != nil {
			argv = cg.wrap(argv)
		}
	}
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = inv.Dir
	marker := newMarker()
	home := inv.Home
	if home == "" {
		home = inv.Dir
		if len(inv.Writable) > 0 {
			home = inv.Writable[0]
		}
	}
	cmd.Env = c.environ(home, append(slices.Clone(inv.Env), marker)...)
	cmd.Stdin = bytes.NewReader(inv.Stdin)
	stdout, stderr := &capture{limit: limit}, &capture{limit: limit}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	// The pipes close when the last holder exits; a helper left behind
	// that holds them would otherwise stall Wait forever.
	cmd.WaitDelay = 2 * time.Second
	ownGroup(cmd)
	var canceled atomic.Bool
	cmd.Cancel = func() error {
		canceled.Store(true)
		killGroup(cmd)
		return nil
	}

	start := time.Now()
	var err error
	if ob != nil {
		err = ob.start(cmd)
	} else {
		err = startProcess(cmd)
	}
	if err != nil {
		leftovers(marker, 0) // forgets the marker
		if cg != nil {
			cg.close()
		}
		return Outcome{Exit: -1, Err: err}
	}
	err = waitGroup(cmd) // and whatever the leader left running
	o := Outcome{Elapsed: time.Since(start)}
	if ob != nil {
		// bwrap has ended, and its PID namespace with it: nothing writes
		// to the overlays any more.
		var ferr error
		if o.Outside, ferr = ob.finish(); ferr != nil {
			o.Outside = append(o.Outside, "(the overlays could not be read: "+ferr.Error()+")")
		}
	}
	if !isolated {
		o.Leftovers = leftovers(marker, cmd.Process.Pid)
	}
	if cg != nil {
		// A cgroup that cannot be removed is left behind, empty or
		// not; the command's verdict does not depend on it.
		o.ForksRefused, _ = cg.close()
	}
	o.Stdout, o.Stderr = stdout.buf.Bytes(), stderr.buf.Bytes()
	o.Truncated = stdout.dropped > 0 || stderr.dropped > 0
	if canceled.Load() {
		o.Exit = -1
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			o.TimedOut = true
		} else {
			o.Err = ctx.Err() // the run was interrupted
		}
		return o
	}
	var ee *exec.ExitError
	switch {
	case err == nil, errors.Is(err, exec.ErrWaitDelay) || errors.As(err, &ee):
		o.Exit = cmd.ProcessState.ExitCode()
		if sig := signalOf(cmd.ProcessState); sig != "" {
			o.Exit, o.Signal = -1, sig
		}
		if isolated && o.Exit > 128 && o.Exit <= 128+64 {
			// bwrap reports a command ended by signal N as exit 128+N.
			o.Exit, o.Signal = -1, signalName(o.Exit-128)
		}
	default:
		o.Exit, o.Err = -1, err
	}
	return o
}

// Prefixed returns a copy of c that runs under a command prefix, such as
// setpriv with its options; the prefix shows in its name.
func (c *Command) Prefixed(prefix ...string) *Command {
	p := *c
	p.Argv = append(slices.Clone(prefix), c.Argv...)
	p.given = slices.Clone(p.Argv)
	return &p
}

// Command returns c: a command is its own process form (Commander).
func (c *Command) Command() (*Command, error) { return c, nil }

// Describe names the command and hashes the files it runs.
func (c *Command) Describe() Description {
	d := Description{Name: c.Name, Argv: c.Argv, Env: c.Env}
	if d.Name == "" {
		d.Name = shellJoin(c.given)
	}
	for i, a := range c.Argv {
		if i > 0 && !filepath.IsAbs(a) {
			continue
		}
		if info, err := os.Stat(a); err != nil || !info.Mode().IsRegular() {
			continue
		}
		if f, err := hashFile(a); err == nil {
			d.Files = append(d.Files, f)
		}
	}
	return d
}

// capture keeps the first limit bytes written to it and counts the rest.
// It never fails a write, so the process never sees a broken pipe.
type capture struct {
	buf     bytes.Buffer
	limit   int
	dropped int
}

func (c *capture) Write(p []byte) (int, error) {
	room := c.limit - c.buf.Len()
	switch {
	case room >= len(p):
		c.buf.Write(p)
	case room > 0:
		c.buf.Write(p[:room])
		c.dropped += len(p) - room
	default:
		c.dropped += len(p)
	}
	return len(p), nil
}
