package reference

import (
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

func TestReadLimited(t *testing.T) {
	t.Parallel()
	_, err := ReadLimited(endless{}, 1<<20, "stdin")
	wantCode(t, err, IOError)
	data, err := ReadLimited(io.LimitReader(endless{}, 1<<20), 1<<20, "stdin")
	wantCode(t, err, "")
	if len(data) != 1<<20 {
		t.Errorf("read %d bytes, want %d", len(data), 1<<20)
	}
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
