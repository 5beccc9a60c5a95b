//go:build linux

package blockpatch

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// requireBwrap skips unless commands run under bwrap here.
func requireBwrap(t *testing.T) {
	t.Helper()
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	iso := runner.ChooseIsolation(context.Background(), sh(t, "true"), false, probe, filepath.Join(dir, runner.OverlaysDir))
	if !iso.Isolated() {
		t.Skipf("commands do not run under bwrap here: %s", iso)
	}
}

// onCheck is a script that runs body at the runner's first check of a
// case, with $W the work tree, and exits 1 (a plain rejection) after it.
func onCheck(body string) string {
	return `W="$4"; if [ "$1" = check ] && [ "$3" = --cwd ]; then ` + body + `; fi; exit 1`
}

// TestConfinedAsRoot: run by root under bwrap, a command holds no
// capability, so it can neither remount the filesystem read-write nor
// override permission bits. Exit status 7 marks an attack that worked.
// mount runs with -n: without it, util-linux makes /run/mount for its
// table even when the remount is refused, a write outside the work tree
// that the runner rightly reports as an escape of its own.
func TestConfinedAsRoot(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("the attacks need root")
	}
	requireBwrap(t)
	for name, attack := range map[string]string{
		"holds capabilities": `grep -q '^CapEff:[[:space:]]*0*$' /proc/self/status || exit 7`,
		"remounts / rw":      `mount -n -o remount,bind,rw / 2>/dev/null && exit 7`,
		"remounts / rw too":  `mount -n -o remount,rw / 2>/dev/null && exit 7`,
	} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			r := newRunner(t, sh(t, onCheck(attack)))
			r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
			res := run(t, r).Results[0]
			if res.Verdict != runner.Fail || strings.Contains(res.Reason, "exit status 7") {
				t.Errorf("%s: %s, want a plain failure", res.Verdict, res.Reason)
			}
		})
	}
}

// TestFileSizeLimit: a command that writes past the file size limit
// fails its case with a reason naming the limit. The write is sparse: it
// costs no disk.
func TestFileSizeLimit(t *testing.T) {
	t.Parallel()
	requireBwrap(t)
	r := newRunner(t, sh(t, onCheck(`exec dd if=/dev/zero of="$W/big" bs=1 count=1 seek=`+
		"300000000 2>/dev/null")))
	r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
	rep := run(t, r)
	res := rep.Results[0]
	if res.Verdict != runner.Signal || !strings.Contains(res.Reason, "file size limit") {
		t.Errorf("%s: %s, want a signal naming the file size limit", res.Verdict, res.Reason)
	}
	var b strings.Builder
	if err := rep.WriteHuman(&b, false); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^limits +processes \d+, address space \d+ MiB, file size 256 MiB, open files \d+`).MatchString(b.String()) {
		t.Errorf("the certificate states no limits:\n%s", b.String())
	}
}

// TestProcessLimitAsRoot: run by root, which RLIMIT_NPROC never binds, a
// command that starts 600 processes is stopped at the process limit by
// its pids cgroup, and its case fails naming the limit; the certificate
// says that the limit holds.
func TestProcessLimitAsRoot(t *testing.T) {
	t.Parallel()
	if os.Geteuid() != 0 {
		t.Skip("RLIMIT_NPROC holds for other users; the cgroup is what root needs")
	}
	// The sleeps leave stdout alone, so the command ends as its loop does,
	// however long a loaded machine takes to reach the limit: the generous
	// timeout is never waited out.
	r := newRunner(t, sh(t, onCheck(`i=0; while [ $i -lt 600 ]; do sleep 30 >/dev/null & i=$((i+1)); done 2>/dev/null`)))
	r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
	r.Timeout = time.Minute
	rep := run(t, r)
	limits := rep.Certificate.Isolation.Limits
	if limits == nil || !strings.Contains(limits.Note, "holds for uid 0 too") {
		t.Skipf("no pids cgroup can be made here: limits %s", limits)
	}
	res := rep.Results[0]
	if res.Verdict != runner.Fail || !strings.Contains(res.Reason, "process limit") {
		t.Errorf("%s: %s, want a failure naming the process limit", res.Verdict, res.Reason)
	}
	var b strings.Builder
	if err := rep.WriteHuman(&b, false); err != nil {
		t.Fatal(err)
	}
	if !regexp.MustCompile(`(?m)^limits +processes 512, .*the process limit holds for uid 0 too`).MatchString(b.String()) {
		t.Errorf("the certificate does not say that the process limit holds:\n%s", b.String())
	}
}

// TestEnvironmentAllowList: a variable of the certifier's environment
// reaches a command only when passed by name, and HOME and TMPDIR are a
// folder of the command's own, writable. Not parallel: it sets variables.
func TestEnvironmentAllowList(t *testing.T) {
	t.Setenv("BLOCKPATCH_TEST_SECRET", "s3cret")
	t.Setenv("BLOCKPATCH_TEST_PASSED", "yes")
	c := sh(t, onCheck(`[ -n "$BLOCKPATCH_TEST_SECRET" ] && exit 7; [ "$BLOCKPATCH_TEST_PASSED" = yes ] || exit 8; `+
		`[ "$HOME" = /root ] && exit 9; [ "$TMPDIR" = "$HOME" ] && echo x > "$HOME/cache" || exit 10`))
	c.Pass = []string{"BLOCKPATCH_TEST_PASSED"}
	r := newRunner(t, c)
	r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
	res := run(t, r).Results[0]
	if res.Verdict != runner.Fail || regexp.MustCompile(`exit status ([7-9]|10)\b`).MatchString(res.Reason) {
		t.Errorf("%s: %s, want a plain failure", res.Verdict, res.Reason)
	}
}

// TestAnswersOutOfReach: a cheat with no blockpatch logic that finds its
// case in the --cases folder (its box is named after the case) and
// replays the expected error code passes every fail case where it can
// read the folder; it must pass none. Nor may it see the certifier's
// executable or any other folder of the run's temp root.
func TestAnswersOutOfReach(t *testing.T) {
	t.Parallel()
	requireBwrap(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cheat := `CASES='` + testCases + `' EXE='` + exe + `'
case "$PWD" in */work) box=$(dirname "$(dirname "$PWD")");; *) box=$(dirname "$PWD");; esac
for f in "$CASES"/*/*/case.json; do
	name=${f#"$CASES"/}; name=$(dirname "$name" | tr / _)
	case "$box" in *-"$name") code=$(sed -n 's/.*"error_code": *"\([a-z_]*\)".*/\1/p' "$f");; esac
done
if [ -z "$code" ]; then
	# The run's temp root must show only this command's own folders.
	for e in "$(dirname "$box")"/*; do case "$e" in "$box"|"$box"-*) ;; *) exit 7;; esac; done
	head -c 1 "$EXE" 2>/dev/null | grep -q . && exit 8
	exit 1
fi
printf '{"ok":false,"error":{"code":"%s","message":"replayed"}}\n' "$code" >&2
exit 1`
	r := newRunner(t, sh(t, cheat))
	r.RunRegexp = regexp.MustCompile(`^(paths/symlink-component|match/overlapping-source-ambiguous|reverse/payload-only-deletion)$`)
	rep := run(t, r)
	for _, res := range rep.Results {
		if res.Verdict == runner.Pass || regexp.MustCompile(`exit status [78]\b`).MatchString(res.Reason) {
			t.Errorf("%s: %s: %s; the answers were in reach", res.Name, res.Verdict, res.Reason)
		}
	}
	if h := rep.Certificate.Isolation.Hidden; len(h) < 3 {
		t.Errorf("hidden %q: want the temp root, the cases and the executable", h)
	}
}
