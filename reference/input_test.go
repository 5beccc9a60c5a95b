package reference

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
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

// countingReader is a reader that never ends and counts what it gave. A
// reader asked again and again for nothing would spin forever; it fails
// instead, so that such a loop ends the test quickly.
type countingReader struct{ n, empty int64 }

func (c *countingReader) Read(p []byte) (int, error) {
	if len(p) == 0 {
		if c.empty++; c.empty > 100 {
			return 0, errors.New("asked for nothing again and again")
		}
	}
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
		if e, ok := err.(*Error); !ok || e.Phase != "io" || !strings.Contains(e.Message, "input limit") || e.Path != "" {
			t.Errorf("limit %d: error %#v, want io_error in phase io naming the input limit, its path left to the caller", limit, err)
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

// TestReadLimitedRelease: Release drops the bytes and the memory behind
// them, and a second Release is harmless.
func TestReadLimitedRelease(t *testing.T) {
	t.Parallel()
	in, err := ReadLimited(strings.NewReader("some input\n"), 1<<20, "stdin")
	must(t, err)
	must(t, in.Release())
	if in.Bytes() != nil || in.mem.bytes() != nil {
		t.Errorf("after Release: %d bytes, %d bytes of memory held; want none", len(in.Bytes()), len(in.mem.bytes()))
	}
	must(t, in.Release())
}

// TestReadLimitedFileAboveLimitUnread: a regular file above the limit is
// refused from its size, before any of it is read: its offset stays at
// the start.
func TestReadLimitedFileAboveLimitUnread(t *testing.T) {
	t.Parallel()
	path := filepath.Join(t.TempDir(), "in")
	must(t, os.WriteFile(path, []byte("12345"), 0o644))
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	_, err = ReadLimited(f, 4, "in")
	wantCode(t, err, IOError)
	if off, err := f.Seek(0, io.SeekCurrent); err != nil || off != 0 {
		t.Errorf("offset %d (%v) after the refusal, want 0: the file was read", off, err)
	}
}

// TestReadLimitedLastDataWithEOF: a reader may return its last bytes
// together with io.EOF; one byte past the limit that arrives so is refused
// all the same, and exactly the limit is not.
func TestReadLimitedLastDataWithEOF(t *testing.T) {
	t.Parallel()
	_, err := ReadLimited(iotest.DataErrReader(strings.NewReader("12345")), 4, "stdin")
	wantCode(t, err, IOError)
	in, err := ReadLimited(iotest.DataErrReader(strings.NewReader("1234")), 4, "stdin")
	must(t, err)
	if string(in.Bytes()) != "1234" {
		t.Errorf("got %q, want 1234", in.Bytes())
	}
	must(t, in.Release())
}

// TestInputBudgetFits pins the address-space budget an input must fit in
// under RLIMIT_AS: the input, five bytes of processing per byte of it, and
// 192 MiB kept for the runtime (processingFactor, runtimeReserve).
func TestInputBudgetFits(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	tests := []struct {
		left, want int64
		fits       bool
	}{
		{198 * mib, mib, true},
		{198*mib - 1, mib, false},
		{192 * mib, 0, true},
		{192*mib - 1, 0, false},
		{0, 1 << 40, false},
	}
	for _, tt := range tests {
		if got := (inputBudget{left: tt.left}).fits(tt.want) == nil; got != tt.fits {
			t.Errorf("%d bytes of input with %d left: fits %v, want %v", tt.want, tt.left, got, tt.fits)
		}
	}
	if (inputBudget{unlimited: true}).fits(1<<40) != nil {
		t.Error("an unlimited budget refused an input")
	}
}

// TestInputGrow: the memory of an input doubles, up to the limit plus one
// byte; where doubling does not fit in the address space left it grows by
// one step of 1 MiB, and where that does not fit either it fails and keeps
// its size.
func TestInputGrow(t *testing.T) {
	t.Parallel()
	const mib = 1 << 20
	n := 3 * mib
	budget := func(left int64) inputBudget { return inputBudget{left: left} }
	tests := []struct {
		name   string
		budget inputBudget
		limit  int64
		want   int  // the memory's size after
		fails  bool // grow fails
	}{
		{"doubles", inputBudget{unlimited: true}, 1 << 30, 6 * mib, false},
		{"up to the limit", inputBudget{unlimited: true}, 4 * mib, 4*mib + 1, false},
		{"one step where doubling does not fit", budget(6*4*mib + 192*mib), 1 << 30, 4 * mib, false},
		{"nothing fits", budget(6*4*mib + 192*mib - 1), 1 << 30, 3 * mib, true},
		{"the limit does not fit", budget(6*(3*mib+100) + 192*mib), 3*mib + 100, 3 * mib, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := &Input{}
			var err error
			in.mem, err = allocInput(n)
			must(t, err)
			defer in.Release()
			err = in.grow(tt.budget, n, tt.limit)
			if (err != nil) != tt.fails {
				t.Errorf("grow: %v, want failure %v", err, tt.fails)
			}
			if got := len(in.mem.bytes()); got != tt.want {
				t.Errorf("%d bytes of memory after grow, want %d", got, tt.want)
			}
		})
	}
}

// TestReadHalves: the two halves are read from the file's offset on; only
// the bytes that lead the buffer without a gap count, and the offset
// moves past them, so a short first half (a file cut short meanwhile)
// leaves the rest to the reading that follows.
func TestReadHalves(t *testing.T) {
	t.Parallel()
	content := []byte("0123456789abcdefghijklmnopqrstuv")
	path := filepath.Join(t.TempDir(), "in")
	must(t, os.WriteFile(path, content, 0o644))
	for _, c := range []struct{ off, buf, want int }{
		{0, 32, 32},  // both halves whole
		{0, 20, 20},  // a buffer shorter than the file
		{4, 28, 28},  // from an offset, to the end
		{0, 40, 32},  // first half whole, second short
		{0, 70, 32},  // first half short: only it counts
		{10, 50, 22}, // first half short from an offset
		{32, 8, 0},   // at the end
	} {
		f, err := os.Open(path)
		must(t, err)
		_, err = f.Seek(int64(c.off), io.SeekStart)
		must(t, err)
		buf := make([]byte, c.buf)
		n := readHalves(f, buf)
		at, err := f.Seek(0, io.SeekCurrent)
		must(t, err)
		want := content[c.off : c.off+c.want]
		if n != c.want || !bytes.Equal(buf[:n], want) || at != int64(c.off+n) {
			t.Errorf("offset %d, buffer %d: %d bytes %q, offset %d after; want %d bytes %q", c.off, c.buf, n, buf[:n], at, c.want, want)
		}
		f.Close()
	}
}

// TestReadLimitedRegularFileFromOffset: a file large enough to be read by
// halves, partly read already (stdin redirected from a file someone read
// from), gives the bytes from its offset on.
func TestReadLimitedRegularFileFromOffset(t *testing.T) {
	t.Parallel()
	want := bytes.Repeat([]byte("halves\r\n\x00\xfe"), splitRead/5)
	path := filepath.Join(t.TempDir(), "in")
	must(t, os.WriteFile(path, want, 0o644))
	f, err := os.Open(path)
	must(t, err)
	defer f.Close()
	const skip = 3
	_, err = f.Read(make([]byte, skip))
	must(t, err)
	in, err := ReadLimited(f, 1<<30, "stdin")
	must(t, err)
	defer in.Release()
	if !bytes.Equal(in.Bytes(), want[skip:]) {
		t.Errorf("read %d bytes, want the %d after the offset", len(in.Bytes()), len(want)-skip)
	}
}
