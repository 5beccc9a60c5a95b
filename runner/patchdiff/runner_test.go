package patchdiff

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// testCases are a few cases of the corpus, copied so that this package's
// tests do not move when the corpus does.
const testCases = "testdata/cases"

// hostile runs a shell-script adapter in stream mode. $id is the id of the
// line just read (the runner writes the id first).
func hostile(t *testing.T, script string) *runner.Command {
	t.Helper()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	prelude := `read l; echo '{"id":"hello","hello":{"protocol":"patchdiff-adapter/1","name":"hostile"}}'
while read l; do id=$(printf '%s' "$l" | sed 's/^{"id":"\([^"]*\)".*/\1/'); `
	cmd, err := runner.NewCommand([]string{"sh", "-c", prelude + script + "; done"})
	if err != nil {
		t.Fatal(err)
	}
	return cmd
}

func run(t *testing.T, a Applier, timeout time.Duration) *runner.Report {
	t.Helper()
	r := New(a)
	r.Sources = []Source{Dir(testCases)}
	r.TempDir = t.TempDir()
	r.Timeout = timeout
	r.Parallel = 2
	r.NoIsolation = true
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// TestHostileAppliers: each way an applier can misbehave is reported as
// what it is, for every case, and none passes a case.
func TestHostileAppliers(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		name, script string
		want         runner.Verdict
		reason       string
	}{
		{"null", `echo "{\"id\":\"$id\",\"result\":{}}"`, runner.Fail, "status"},
		{"crashing", `exit 3`, runner.Crash, "exit status 3"},
		{"hanging", `sleep 30`, runner.Timeout, "timeout"},
		{"lying", `echo '{"id":"c-999999","result":{}}'`, runner.Fail, "answered id"},
		{"garbage", `echo 'not json at all'`, runner.Fail, "not a protocol message"},
		{"error answers", `echo "{\"id\":\"$id\",\"error\":{\"message\":\"no idea\"}}"`, runner.Fail, "no idea"},
		{"killed", `kill -9 $$`, runner.Signal, "killed"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			rep := run(t, Stream{hostile(t, tt.script)}, 2*time.Second)
			if rep.OK() || rep.Certificate.Passed != 0 {
				t.Errorf("certificate: %d passed, %d failed: a %s applier must pass nothing", rep.Certificate.Passed, rep.Certificate.Failed, tt.name)
			}
			for _, res := range rep.Results {
				if res.Verdict != tt.want || !strings.Contains(res.Reason, tt.reason) {
					t.Errorf("%s: %s (%s), want %s mentioning %q", res.Name, res.Verdict, res.Reason, tt.want, tt.reason)
				}
			}
		})
	}
}

// TestProcessLimitAsRoot: run by root, which RLIMIT_NPROC never binds, an
// adapter that starts 600 processes for a request is stopped by its pids
// cgroup, and the case fails naming the process limit rather than as a
// crash or a timeout.
func TestProcessLimitAsRoot(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("RLIMIT_NPROC holds for other users; the cgroup is what root needs")
	}
	// The sleeps leave stdout alone, so the applier ends as its loop does,
	// however long a loaded machine takes to reach the limit: the generous
	// timeout is never waited out.
	cmd := hostile(t, `i=0; while [ $i -lt 600 ]; do sleep 30 >/dev/null & i=$((i+1)); done 2>/dev/null; exit 1`)
	r := New(Stream{cmd})
	r.Isolate = cmd
	r.Sources = []Source{Dir(testCases)}
	r.RunRegexp = regexp.MustCompile(`crlf-offsets`)
	r.TempDir = t.TempDir()
	r.Timeout = time.Minute
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	limits := rep.Certificate.Isolation.Limits
	if limits == nil || !strings.Contains(limits.Note, "holds for uid 0 too") {
		t.Skipf("no pids cgroup can be made here: limits %s", limits)
	}
	for _, res := range rep.Results {
		if res.Verdict != runner.Fail || !strings.Contains(res.Reason, "process limit") {
			t.Errorf("%s: %s (%s), want a failure naming the process limit", res.Name, res.Verdict, res.Reason)
		}
	}
}

// TestHandshakeRequired: an applier that does not speak the protocol
// cannot be certified at all.
func TestHandshakeRequired(t *testing.T) {
	t.Parallel()
	cmd, err := runner.NewCommand([]string{"sh", "-c", `read l; echo '{"id":"hello","hello":{"protocol":"patchdiff-adapter/0"}}'`})
	if err != nil {
		t.Fatal(err)
	}
	r := New(Stream{cmd})
	r.Sources = []Source{Dir(testCases)}
	r.TempDir = t.TempDir()
	r.NoIsolation = true
	if _, err := r.Run(context.Background()); err == nil || !strings.Contains(err.Error(), "patchdiff-adapter/0") {
		t.Errorf("run: %v, want a handshake error naming the protocol", err)
	}
}

// TestKeep: a failed case leaves the lines to send again and a script that
// sends them, and the certificate names the kept temp root.
func TestKeep(t *testing.T) {
	t.Parallel()
	r := New(Stream{hostile(t, `echo "{\"id\":\"$id\",\"result\":{}}"`)})
	r.Sources = []Source{Dir(testCases)}
	r.TempDir = t.TempDir()
	r.NoIsolation, r.Keep = true, true
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Certificate.TempRoot == "" {
		t.Fatal("no temp root kept")
	}
	for _, res := range rep.Results {
		if res.Kept == "" {
			t.Errorf("%s: failed but not kept", res.Name)
			continue
		}
		out, err := exec.Command("sh", filepath.Join(res.Kept, "reproduce.sh")).Output()
		if err != nil || !strings.Contains(string(out), `"result":{}`) {
			t.Errorf("%s: reproduce.sh printed %q (%v), want the applier's answer again", res.Name, out, err)
		}
	}
}

// TestReplayOperation: replay cases go to an adapter with operation
// "replay", and observed batch cases with "observed_batch", only when its
// handshake lists the operation; an adapter that lists only apply (or
// nothing) has them reported unsupported, never run.
func TestReplayOperation(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct {
		hello, dir, op string
		want           runner.Verdict
	}{
		{`{"protocol":"patchdiff-adapter/1"}`, "testdata/replay", "replay", runner.Unsupported},
		{`{"protocol":"patchdiff-adapter/1","operations":["apply"]}`, "testdata/replay", "replay", runner.Unsupported},
		{`{"protocol":"patchdiff-adapter/1","operations":["apply","replay"]}`, "testdata/replay", "replay", runner.Fail},
		{`{"protocol":"patchdiff-adapter/1","operations":["apply","replay"]}`, "testdata/batch", "observed_batch", runner.Unsupported},
		{`{"protocol":"patchdiff-adapter/1","operations":["observed_batch"]}`, "testdata/batch", "observed_batch", runner.Fail},
	} {
		// The adapter answers every request with the operation it was
		// sent, as an error: a sent replay case fails with "replay".
		cmd, err := runner.NewCommand([]string{"sh", "-c", `read l; echo '{"id":"hello","hello":` + tt.hello + `}'
while read l; do id=$(printf '%s' "$l" | sed 's/^{"id":"\([^"]*\)".*/\1/'); op=$(printf '%s' "$l" | sed 's/^{"id":"[^"]*","operation":"\([a-z_]*\)".*/\1/'); echo "{\"id\":\"$id\",\"error\":{\"message\":\"got $op\"}}"; done`})
		if err != nil {
			t.Fatal(err)
		}
		r := New(Stream{cmd})
		r.Sources = []Source{Dir(tt.dir)}
		r.TempDir, r.NoIsolation, r.Timeout = t.TempDir(), true, 5*time.Second
		rep, err := r.Run(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		for _, res := range rep.Results {
			if res.Verdict != tt.want || (tt.want == runner.Fail && !strings.Contains(res.Reason, "got "+tt.op)) {
				t.Errorf("%s: %s: %s (%s), want %s", tt.hello, res.Name, res.Verdict, res.Reason, tt.want)
			}
		}
	}
}

// TestOneShotWritingOutsideEscapes: an adapter run once per request that
// writes outside its folder fails every case as an escape, where the
// isolation observes such writes (bwrap, as root).
func TestOneShotWritingOutsideEscapes(t *testing.T) {
	t.Parallel()
	cmd, err := runner.NewCommand([]string{"sh", "-c", `read l; id=$(printf '%s' "$l" | sed 's/^{"id":"\([^"]*\)".*/\1/'); echo x > /tmp/patchdiff-adapter-escape-$$; echo "{\"id\":\"$id\",\"hello\":{\"protocol\":\"patchdiff-adapter/1\"}}"`})
	if err != nil {
		t.Fatal(err)
	}
	r := New(OneShot{cmd})
	r.Isolate = cmd
	r.Sources = []Source{Dir(testCases)}
	r.TempDir = t.TempDir()
	rep, err := r.Run(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(rep.Certificate.Isolation.Outside, "observed") {
		t.Skipf("writes outside are not observed here: %s", rep.Certificate.Isolation.Outside)
	}
	for _, res := range rep.Results {
		if res.Verdict != runner.Escape || !strings.Contains(res.Reason, "/tmp/patchdiff-adapter-escape-") {
			t.Errorf("%s: %s (%s), want an escape naming the file", res.Name, res.Verdict, res.Reason)
		}
	}
}
