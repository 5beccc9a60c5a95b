package cli

import (
	"bytes"
	"io"
	"os"
	"strings"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// TestLargeResultWidensPipe: a result with a patch of more than one
// stretch, written to a pipe, widens its buffer first, and the bytes read
// from the pipe are writeJSON's; a result whose patch fits in a stretch
// leaves the pipe as it was.
func TestLargeResultWidensPipe(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name  string
		patch string
		wide  bool
	}{
		{"large", strings.Repeat("diff line\n", largePatch/8), true},
		{"small", "diff line\n", false},
		{"one stretch", strings.Repeat("diff line\n", largePatch/16), false},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		before, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		if err != nil {
			t.Fatal(err)
		}
		res := reference.Result{OK: true, Status: reference.StatusApplied}
		doc := docOf(tt.patch, "x\n", "")
		errs := make(chan error, 1)
		go func() {
			errs <- writeResult(w, res, doc)
			w.Close()
		}()
		got, err := io.ReadAll(r)
		if err != nil {
			t.Fatal(err)
		}
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
		size, err := unix.FcntlInt(r.Fd(), unix.F_GETPIPE_SZ, 0)
		r.Close()
		if err != nil {
			t.Fatal(err)
		}
		if want := map[bool]int{true: pipeSize, false: before}[tt.wide]; size != want {
			t.Errorf("%s patch: the pipe holds %d bytes, want %d", tt.name, size, want)
		}
		text := string(reference.Format(doc))
		res.Patch = &text
		var want bytes.Buffer
		if err := writeJSON(&want, res); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want.Bytes()) {
			t.Errorf("%s patch: the bytes read differ from writeJSON's", tt.name)
		}
	}
}
