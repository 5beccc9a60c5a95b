package reference

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
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

// countingReader is a reader that never ends and counts what it gave.
type countingReader struct{ n int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	c.n += int64(len(p))
	return len(p), nil
}

// TestReadLimitedEndless: endless input is io_error at the limit, and no
// more than limit+1 bytes are read from it, with small and large limits
// (the memory grows by doubling past several steps for the large one).
func TestReadLimitedEndless(t *testing.T) {
	t.Parallel()
	for _, limit := range []int64{1, readStep - 1, readStep, 3*readStep + 5, 64 << 20} {
		r := &countingReader{}
		_, err := ReadLimited(r, limit, "stdin")
		wantCode(t, err, IOError)
		if e, ok := err.(*Error); !ok || e.Phase != "io" || !strings.Contains(e.Message, "input limit") {
			t.Errorf("limit %d: error %#v, want io_error in phase io naming the input limit", limit, err)
		}
		if r.n > limit+1 {
			t.Errorf("limit %d: read %d bytes, want at most %d", limit, r.n, limit+1)
		}
	}
}

// TestReadLimitedSizes: input of every size around the points where the
// memory grows comes back whole, from a stream and from a regular file
// (whose size is known in advance), up to exactly the limit.
func TestReadLimitedSizes(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []int{0, 1, readStep - 1, readStep, readStep + 1, 2*readStep + 7} {
		want := bytes.Repeat([]byte("0123456789abcdef"), n/16+1)[:n]
		path := filepath.Join(dir, "in")
		must(t, os.WriteFile(path, want, 0o644))
		f, err := os.Open(path)
		must(t, err)
		for _, src := range []struct {
			name string
			r    io.Reader
		}{{"stream", bytes.NewReader(want)}, {"file", f}} {
			for _, limit := range []int64{int64(n), int64(n) + 1, 1 << 30} {
				if limit == 0 {
					continue
				}
				if src.name == "file" {
					_, err := f.Seek(0, io.SeekStart)
					must(t, err)
				} else {
					src.r = bytes.NewReader(want)
				}
				in, err := ReadLimited(src.r, limit, "stdin")
				if err != nil {
					t.Fatalf("%s of %d bytes, limit %d: %v", src.name, n, limit, err)
				}
				if !bytes.Equal(in.Bytes(), want) {
					t.Errorf("%s of %d bytes, limit %d: got %d bytes, not the input", src.name, n, limit, len(in.Bytes()))
				}
				must(t, in.Release())
				must(t, in.Release()) // twice is harmless
			}
		}
		f.Close()
	}
}

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
