package patchdiff

import (
	"bytes"
	"context"
	"fmt"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Applier is what the suite certifies: something that answers adapter
// protocol lines. Open starts a session that answers one line at a time;
// the runner opens one per worker and opens another when a session ends.
type Applier interface {
	Open(ctx context.Context, s SessionEnv) (Session, error)
	Describe() runner.Description
}

// SessionEnv is where a session runs: its scratch folder (the only one it
// may write) and the run's isolation.
type SessionEnv struct {
	Dir       string
	Isolation *runner.Isolation
}

// Session answers protocol lines one at a time.
type Session interface {
	// Exchange sends one line and returns the answer. A session that can
	// no longer answer (the program ended, timed out) says so in the
	// Answer; the runner then closes it and opens another.
	Exchange(ctx context.Context, line []byte) Answer
	Close()
}

// Answer is what one exchange gave: the answer line, or how the program
// failed to give one.
type Answer struct {
	Line []byte
	// Ended is set when the session cannot answer again; Outcome then
	// says how the program ended (exit status, signal, stderr, timeout).
	Ended   bool
	Why     string
	Outcome runner.Outcome
	// Outside lists what the program wrote outside its folder, where the
	// isolation observes it (one-shot mode): an escape, however good the
	// answer.
	Outside []string
}

// Stream is an adapter program kept running (the protocol's stream mode):
// a runner.Command started once per session.
type Stream struct{ Cmd *runner.Command }

// Open starts the program in the session's folder.
func (a Stream) Open(ctx context.Context, env SessionEnv) (Session, error) {
	s, err := runner.StartStream(a.Cmd, nil, env.Dir, env.Isolation, []string{env.Dir}, MaxLine)
	if err != nil {
		return nil, err
	}
	return streamSession{s}, nil
}

// Describe names the program and hashes its files.
func (a Stream) Describe() runner.Description { return a.Cmd.Describe() }

type streamSession struct{ s *runner.Stream }

func (s streamSession) Exchange(ctx context.Context, line []byte) Answer {
	got, err := s.s.Exchange(ctx, line)
	if err == nil {
		return Answer{Line: got}
	}
	a := Answer{Ended: true, Why: err.Error()}
	if ctx.Err() != nil {
		a.Outcome = s.s.Close()
		a.Outcome.TimedOut = true
		a.Why = "no answer within the timeout"
		return a
	}
	a.Outcome = s.s.Close()
	return a
}

func (s streamSession) Close() { s.s.Close() }

// OneShot is an adapter program run once per line (the protocol's
// one-shot mode).
type OneShot struct{ Cmd *runner.Command }

// Open returns a session that runs the program for each line.
func (a OneShot) Open(ctx context.Context, env SessionEnv) (Session, error) {
	return oneShotSession{a.Cmd, env}, nil
}

// Describe names the program and hashes its files.
func (a OneShot) Describe() runner.Description { return a.Cmd.Describe() }

type oneShotSession struct {
	cmd *runner.Command
	env SessionEnv
}

func (s oneShotSession) Exchange(ctx context.Context, line []byte) Answer {
	o := s.cmd.Exec(ctx, runner.Invocation{
		Dir: s.env.Dir, Stdin: append(bytes.Clone(line), '\n'),
		Isolation: s.env.Isolation, Writable: []string{s.env.Dir},
	})
	switch {
	case o.Err != nil:
		return Answer{Ended: true, Why: "could not run: " + o.Err.Error(), Outcome: o}
	case o.TimedOut:
		return Answer{Ended: true, Why: "no answer within the timeout", Outcome: o}
	case o.Exit != 0:
		return Answer{Ended: true, Why: "the program did not exit with status 0", Outcome: o}
	case o.Truncated:
		return Answer{Ended: true, Why: "the program printed more than the runner keeps", Outcome: o}
	}
	out := o.Stdout
	i := bytes.IndexByte(out, '\n')
	if i < 0 || len(bytes.TrimSpace(out[i+1:])) > 0 {
		return Answer{Ended: true, Why: "the program must print exactly one line", Outcome: o}
	}
	return Answer{Line: bytes.TrimSuffix(out[:i], []byte("\r")), Outside: o.Outside}
}

func (oneShotSession) Close() {}

// InProcess is an applier in Go run inside the certifier: Serve answers
// each line. Package embedded wires the reference runtime this way.
type InProcess struct {
	Name  string
	Serve func(line []byte) []byte
}

// Open returns a session calling p.Serve.
func (p InProcess) Open(context.Context, SessionEnv) (Session, error) {
	return inProcessSession{p}, nil
}

// Describe names p and the running executable, which embeds it.
func (p InProcess) Describe() runner.Description {
	return runner.InProcess{Name: p.Name}.Describe()
}

type inProcessSession struct{ p InProcess }

func (s inProcessSession) Exchange(ctx context.Context, line []byte) Answer {
	done := make(chan Answer, 1)
	go func() {
		defer func() {
			if v := recover(); v != nil {
				done <- Answer{Ended: true, Why: "the applier panicked", Outcome: runner.Outcome{Exit: -1, Signal: "panic: " + runner.Bounded(fmt.Append(nil, v), 300)}}
			}
		}()
		done <- Answer{Line: s.p.Serve(line)}
	}()
	select {
	case a := <-done:
		return a
	case <-ctx.Done():
		return Answer{Ended: true, Why: "no answer within the timeout", Outcome: runner.Outcome{Exit: -1, TimedOut: true}}
	}
}

func (inProcessSession) Close() {}
