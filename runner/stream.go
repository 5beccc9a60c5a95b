package runner

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sync"
	"time"
)

// Stream is an external program kept running to answer requests: the
// runner writes one line to its standard input and reads one line back
// from its standard output, many times, where a Command starts a process
// per invocation. It runs in its own process group, under the run's
// isolation when there is one, and is killed with its group at Close or
// when an exchange times out. Lines it prints are bounded: a longer line
// ends the stream.
type Stream struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan streamLine
	stderr *capture
	exited chan struct{}
	// exit is the outcome of the process once exited is closed.
	exit     Outcome
	killOnce sync.Once
	// cg is the program's pids cgroup, if it has one (confine.go).
	cg *commandCgroup
}

type streamLine struct {
	data []byte
	err  error
}

// ErrStreamEnded is returned by Exchange when the program exited, closed
// its output, or printed a line over the limit: it is no longer there to
// answer. Outcome says how it ended.
var ErrStreamEnded = errors.New("the program ended")

// StartStream starts c's program with args appended, in dir, under iso
// with the writable folders bound read-write. maxLine bounds each line it
// may print.
func StartStream(c *Command, args []string, dir string, iso *Isolation, writable []string, maxLine int) (*Stream, error) {
	argv := append(c.Argv[:len(c.Argv):len(c.Argv)], args...)
	if iso.Isolated() {
		argv = iso.wrap(argv, writable, nil)
	}
	var cg *commandCgroup
	if iso != nil {
		var err error
		if cg, err = iso.Limits.cgroup(); err != nil {
			return nil, err
		} else if cg != nil {
			argv = cg.wrap(argv)
		}
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = dir
	cmd.Env = c.environ(dir, newMarker())
	ownGroup(cmd)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	s := &Stream{cmd: cmd, stdin: stdin, lines: make(chan streamLine, 1), stderr: &capture{limit: 64 << 10}, exited: make(chan struct{}), cg: cg}
	cmd.Stderr = s.stderr
	cmd.WaitDelay = 2 * time.Second
	if err := startProcess(cmd); err != nil {
		if cg != nil {
			cg.close()
		}
		return nil, err
	}
	go s.read(bufio.NewReaderSize(stdout, 64<<10), maxLine)
	return s, nil
}

// read delivers the program's lines, each without its newline, until the
// output ends or a line passes maxLine; then it waits for the program.
func (s *Stream) read(r *bufio.Reader, maxLine int) {
	defer close(s.lines)
	for {
		var line []byte
		var err error
		for {
			var chunk []byte
			chunk, err = r.ReadSlice('\n')
			line = append(line, chunk...)
			if len(line) > maxLine {
				err = fmt.Errorf("a line longer than %d bytes", maxLine)
				break
			}
			if !errors.Is(err, bufio.ErrBufferFull) {
				break
			}
		}
		if err != nil {
			s.kill()
			s.wait()
			if errors.Is(err, io.EOF) && len(line) > 0 {
				err = fmt.Errorf("a last line without a newline: %s", Bounded(line, 200))
			}
			s.lines <- streamLine{err: err}
			return
		}
		s.lines <- streamLine{data: bytes.TrimSuffix(line[:len(line)-1], []byte("\r"))}
	}
}

// wait reaps the program and records how it ended.
func (s *Stream) wait() {
	err := s.cmd.Wait()
	o := Outcome{Exit: -1, Stderr: s.stderr.buf.Bytes()}
	var ee *exec.ExitError
	if err == nil || errors.As(err, &ee) || errors.Is(err, exec.ErrWaitDelay) {
		o.Exit = s.cmd.ProcessState.ExitCode()
		if sig := signalOf(s.cmd.ProcessState); sig != "" {
			o.Exit, o.Signal = -1, sig
		}
	} else {
		o.Err = err
	}
	if s.cg != nil {
		o.ForksRefused, _ = s.cg.close()
	}
	s.exit = o
	close(s.exited)
}

// Exchange sends line (a newline is added) and returns the next line the
// program prints. At ctx's deadline it kills the program and returns ctx's
// error; when the program is gone it returns ErrStreamEnded.
func (s *Stream) Exchange(ctx context.Context, line []byte) ([]byte, error) {
	msg := append(bytes.Clone(line), '\n')
	// A program that does not read would block the write; the write
	// fails once the program is killed or ends.
	go s.stdin.Write(msg)
	select {
	case got, ok := <-s.lines:
		if !ok {
			return nil, ErrStreamEnded
		}
		if got.err != nil {
			return nil, fmt.Errorf("%w: %v", ErrStreamEnded, got.err)
		}
		return got.data, nil
	case <-ctx.Done():
		s.kill()
		return nil, ctx.Err()
	}
}

// Outcome is how the program ended, once Exchange returned ErrStreamEnded
// or Close returned (before that, Exit is -1 and nothing else is known);
// its Stderr holds the first 64 KiB the program wrote there.
func (s *Stream) Outcome() Outcome {
	select {
	case <-s.exited:
		return s.exit
	default:
		return Outcome{Exit: -1}
	}
}

// Close ends the program: its input is closed, and it and its group are
// killed.
func (s *Stream) Close() Outcome {
	s.stdin.Close()
	s.kill()
	for range s.lines {
	}
	return s.Outcome()
}

func (s *Stream) kill() {
	s.killOnce.Do(func() { killGroup(s.cmd) })
}
