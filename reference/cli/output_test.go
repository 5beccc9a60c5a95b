package cli

import (
	"bytes"
	"errors"
	"strings"
	"testing"
)

// fullWriter fails every write, as standard output on /dev/full does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, errors.New("no space left on device") }

// TestOutputWriteError: when standard output cannot be written, even the
// usage printed for no arguments, the run ends with exit 1 and says so on
// standard error, as text since nothing asked for JSON.
func TestOutputWriteError(t *testing.T) {
	t.Parallel()
	for _, args := range [][]string{nil, {"help"}, {"version"}} {
		var stderr bytes.Buffer
		exit := Run(args, Env{Stdout: fullWriter{}, Stderr: &stderr, Stdin: strings.NewReader("")})
		if exit != 1 || !strings.Contains(stderr.String(), "no space left") || strings.HasPrefix(stderr.String(), "{") {
			t.Errorf("%q: exit %d, stderr %q; want exit 1 and the write error as text", args, exit, stderr.String())
		}
	}
}
