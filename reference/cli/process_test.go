package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// childEnv makes the test binary run as the blockpatch CLI, so the tests
// here can start real blockpatch processes; childMemoryEnv caps the child's
// address space (bytes), so a run that reads without bound fails fast
// instead of taking the machine's memory (not under the race detector:
// raceEnabled).
const (
	childEnv       = "BLOCKPATCH_CLI_TEST_CHILD"
	childMemoryEnv = "BLOCKPATCH_CLI_TEST_MAX_MEMORY"
)

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) != "" {
		if v := os.Getenv(childMemoryEnv); v != "" && !raceEnabled {
			n, _ := strconv.ParseUint(v, 10, 64)
			syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: n, Max: n})
		}
		os.Exit(Main(os.Args[1:]))
	}
	os.Exit(m.Run())
}

// blockpatch is a command that runs the CLI in a process of its own, with
// env added to the environment.
func blockpatch(env []string, args ...string) *exec.Cmd {
	cmd := exec.Command(os.Args[0], args...)
	cmd.Env = append(append(os.Environ(), childEnv+"=1"), env...)
	return cmd
}

// outcome is how a blockpatch process ended.
type outcome struct {
	exit           int
	stdout, stderr string
}

// code is the error code of a --json-output failure, "" for none.
func (o outcome) code() string {
	var v struct {
		Error struct{ Code string }
	}
	json.Unmarshal([]byte(o.stderr), &v)
	return v.Error.Code
}

// start starts cmd capturing its output, and returns the function that
// waits for it. A process still running after two minutes is killed.
func start(t testing.TB, cmd *exec.Cmd) func() outcome {
	t.Helper()
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	kill := time.AfterFunc(2*time.Minute, func() { cmd.Process.Kill() })
	return func() outcome {
		err := cmd.Wait()
		kill.Stop()
		var x *exec.ExitError
		if err != nil && !errors.As(err, &x) {
			t.Fatal(err)
		}
		return outcome{cmd.ProcessState.ExitCode(), stdout.String(), stderr.String()}
	}
}

// writeFiles creates files (path -> content) below dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		full := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// listTree returns every file (path -> content) and folder ("path/")
// below dir; symlinks show as "-> target".
func listTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil || path == dir {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		switch {
		case d.Type()&os.ModeSymlink != 0:
			target, _ := os.Readlink(path)
			out[rel] = "-> " + target
		case d.IsDir():
			out[rel+"/"] = ""
		default:
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			out[rel] = string(b)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// tempFiles lists the names in dir that look like blockpatch temp files.
func tempFiles(dir string) []string {
	entries, _ := os.ReadDir(dir)
	var out []string
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".") && strings.Contains(e.Name(), "blockpatch") {
			out = append(out, e.Name())
		}
	}
	return out
}

// relocation moves "move me" after "target" in a file that starts
// "alpha\nmove me\nomega\ntarget\n"; payloadHash is its payload's hash.
func relocation(path string) string {
	return "diff --blockpatch a/" + path + " b/" + path + "\nblockpatch version 1\n" +
		"blockpatch move id=move-1 payload-sha256=" + payloadHash("move me\n") + "\n" +
		"--- a/" + path + "\n+++ b/" + path + "\n\n" +
		"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n alpha\n-move me\n omega\n\n" +
		"@@ -4,1 +4,2 @@ blockpatch-target id=move-1\n target\n+move me\n"
}

func payloadHash(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}
