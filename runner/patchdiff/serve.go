package patchdiff

import (
	"bufio"
	"errors"
	"fmt"
	"io"
)

// Apply is a runtime behind the adapter protocol: it takes a request
// object and returns the result object, both as JSON text. An error means
// no result could be produced; the adapter answers it as the protocol's
// error message.
type Apply func(request []byte) (result []byte, err error)

// Respond returns the answer line to one protocol line, for an applier
// written in Go: the handshake with hello (its protocol set), a result or
// an error message for a request.
func Respond(line []byte, hello Hello, apply Apply) []byte {
	return RespondOps(line, hello, map[string]Apply{OperationApply: apply})
}

// RespondOps is Respond for an adapter that answers several operations,
// each by its own function; the handshake lists them.
func RespondOps(line []byte, hello Hello, ops map[string]Apply) []byte {
	m, err := ParseMessage(line)
	if err != nil {
		return errorLine("", err)
	}
	out := &Message{ID: m.ID}
	switch {
	case m.Hello != nil:
		hello.Protocol = Protocol
		if len(ops) > 1 || ops[OperationApply] == nil {
			hello.Operations = nil
			for _, op := range Operations {
				if ops[op] != nil {
					hello.Operations = append(hello.Operations, op)
				}
			}
		}
		out.Hello = &hello
	case m.Request != nil:
		op := m.Operation
		if op == "" {
			op = OperationApply
		}
		apply := ops[op]
		if apply == nil {
			return errorLine(m.ID, fmt.Errorf("operation %q is not supported", op))
		}
		result, err := apply(m.Request)
		if err != nil {
			return errorLine(m.ID, err)
		}
		out.Result = result
	default:
		return errorLine(m.ID, errors.New("the runner sends hello and request messages only"))
	}
	b, err := out.Line()
	if err != nil {
		return errorLine(m.ID, fmt.Errorf("the result is not valid JSON: %v", err))
	}
	return b
}

func errorLine(id string, err error) []byte {
	b, _ := (&Message{ID: id, Error: &MessageError{Message: err.Error()}}).Line()
	return b
}

// Serve answers protocol lines from r on w until r ends: the stream mode of
// an adapter written in Go, and with one line its one-shot mode.
func Serve(r io.Reader, w io.Writer, hello Hello, apply Apply) error {
	return ServeOps(r, w, hello, map[string]Apply{OperationApply: apply})
}

// ServeOps is Serve for an adapter that answers several operations.
func ServeOps(r io.Reader, w io.Writer, hello Hello, ops map[string]Apply) error {
	in := bufio.NewReaderSize(r, 64<<10)
	out := bufio.NewWriter(w)
	for {
		line, err := readLine(in)
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		out.Write(RespondOps(line, hello, ops))
		out.WriteByte('\n')
		if err := out.Flush(); err != nil {
			return err
		}
	}
}

// readLine reads one line of at most MaxLine bytes, without its line end.
func readLine(r *bufio.Reader) ([]byte, error) {
	var line []byte
	for {
		chunk, err := r.ReadSlice('\n')
		line = append(line, chunk...)
		if len(line) > MaxLine {
			return nil, fmt.Errorf("a line longer than %d bytes", MaxLine)
		}
		switch {
		case err == nil:
			line = line[:len(line)-1]
			if n := len(line); n > 0 && line[n-1] == '\r' {
				line = line[:n-1]
			}
			return line, nil
		case errors.Is(err, bufio.ErrBufferFull):
			continue
		case errors.Is(err, io.EOF) && len(line) > 0:
			return line, nil
		default:
			return nil, err
		}
	}
}
