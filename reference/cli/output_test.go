package cli

import (
	"bytes"
	"encoding/json"
	"errors"
	"path/filepath"
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

// TestOutputWriteErrorReported: a failed write of the JSON result is an
// unexpected_error in JSON (the write error is not one of the spec's
// refusals), and a failed write of check's human lines ends the run with
// exit 1, not a success that printed nothing.
func TestOutputWriteErrorReported(t *testing.T) {
	t.Parallel()
	var stderr bytes.Buffer
	exit := Run([]string{"version", "--json-output"}, Env{Stdout: fullWriter{}, Stderr: &stderr, Stdin: strings.NewReader("")})
	var got struct {
		OK    bool `json:"ok"`
		Error struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stderr.Bytes(), &got); exit != 1 || err != nil || got.Error.Code != "unexpected_error" {
		t.Errorf("version --json-output: exit %d, stderr %q; want exit 1 and a JSON unexpected_error", exit, stderr.String())
	}

	work, dir := t.TempDir(), t.TempDir()
	writeFiles(t, work, map[string]string{"f.txt": "alpha\nmove me\nomega\ntarget\n"})
	writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("f.txt")})
	stderr.Reset()
	exit = Run([]string{"check", filepath.Join(dir, "p.blockpatch"), "--cwd", work},
		Env{Stdout: fullWriter{}, Stderr: &stderr, Stdin: strings.NewReader("")})
	if exit != 1 || !strings.Contains(stderr.String(), "no space left") {
		t.Errorf("check: exit %d, stderr %q; want exit 1 and the write error", exit, stderr.String())
	}
}
