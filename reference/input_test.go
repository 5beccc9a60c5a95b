package reference

import (
	"errors"
	"io"
	"strings"
	"testing"
)

// TestReadFileInputLimit: a tree file above the workspace's input limit is
// io_error, before it is read.
func TestReadFileInputLimit(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big": "12345", "small": "1234"})
	ws, err := NewWorkspace(root)
	must(t, err)
	defer ws.Close()
	ws.InputLimit = 4
	_, err = ws.ReadFile("small")
	wantCode(t, err, "")
	_, err = ws.ReadFile("big")
	wantCode(t, err, IOError)
}

// endless is a reader that never ends.
type endless struct{}

func (endless) Read(p []byte) (int, error) { return len(p), nil }

// heldOpen serves n bytes and then fails the test if read again, as a
// stream that sent them and stays open would block the reader forever.
type heldOpen struct {
	t *testing.T
	n int
}

func (h *heldOpen) Read(p []byte) (int, error) {
	if h.n == 0 {
		h.t.Error("read again after the limit was passed: a held-open stream would block here")
		return 0, io.EOF
	}
	k := min(len(p), h.n)
	h.n -= k
	return k, nil
}

// failing is a reader whose first read fails.
type failing struct{}

func (failing) Read([]byte) (int, error) { return 0, errors.New("device error") }

// TestReadLimitedStopsAtLimitPlusOne: one byte past the limit is enough to
// refuse; ReadLimited does not wait for more from a stream held open.
func TestReadLimitedStopsAtLimitPlusOne(t *testing.T) {
	t.Parallel()
	_, err := ReadLimited(&heldOpen{t: t, n: 1025}, 1024, "stdin")
	wantCode(t, err, IOError)
}

// TestReadLimitedReadError: a read that fails is io_error in phase io
// (OUT-023), not the end of the input.
func TestReadLimitedReadError(t *testing.T) {
	t.Parallel()
	_, err := ReadLimited(failing{}, 1024, "stdin")
	wantCode(t, err, IOError)
	if e, ok := err.(*Error); !ok || e.Phase != "io" {
		t.Errorf("error %#v, want phase io", err)
	}
}

func TestReadLimited(t *testing.T) {
	t.Parallel()
	_, err := ReadLimited(endless{}, 1<<20, "stdin")
	wantCode(t, err, IOError)
	in, err := ReadLimited(io.LimitReader(endless{}, 1<<20), 1<<20, "stdin")
	wantCode(t, err, "")
	if len(in.Bytes()) != 1<<20 {
		t.Errorf("read %d bytes, want %d", len(in.Bytes()), 1<<20)
	}
	must(t, in.Release())
}

// TestParseErrorQuotesLittle: a parse error about a huge line quotes only
// its start, so its message does not grow with the input.
func TestParseErrorQuotesLittle(t *testing.T) {
	t.Parallel()
	_, err := Parse([]byte(strings.Repeat("\x00", 1<<20)))
	wantCode(t, err, ParseError)
	if n := len(err.Error()); n > 1000 {
		t.Errorf("the message is %d bytes long", n)
	}
}
