package cli

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
)

// TestEndlessInput feeds endless input (/dev/zero) as the patch, as stdin
// to apply and plan, and as a move request: each run stops at the input
// limit with io_error, no crash, in a process whose memory is capped well
// below what reading without bound would take.
func TestEndlessInput(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name  string
		args  []string
		stdin bool
	}{
		{"check /dev/zero", []string{"check", "/dev/zero"}, false},
		{"apply -", []string{"apply", "-"}, true},
		{"plan --json -", []string{"plan", "--json", "-"}, true},
		{"move --json /dev/zero", []string{"move", "--json", "/dev/zero"}, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			cmd := blockpatch([]string{InputLimitEnv + "=1048576", childMemoryEnv + "=" + "2147483648"},
				append(tt.args, "--cwd", t.TempDir(), "--json-output")...)
			if tt.stdin {
				zero, err := os.Open("/dev/zero")
				must(t, err)
				defer zero.Close()
				cmd.Stdin = zero
			}
			o := start(t, cmd)()
			if o.exit != 1 || o.code() != "io_error" || !strings.Contains(o.stderr, "limit") {
				t.Errorf("exit %d, stderr %.300s; want io_error for the input limit", o.exit, o.stderr)
			}
		})
	}
}

// TestInputLimitDefault: with the default limit (1 GiB) a larger patch or
// tree file is refused before it is read; the files are sparse, so the
// test costs no disk.
func TestInputLimitDefault(t *testing.T) {
	t.Parallel()
	work, dir := t.TempDir(), t.TempDir()
	writeFiles(t, work, map[string]string{"f.txt": "alpha\nmove me\nomega\ntarget\n"})
	writeFiles(t, dir, map[string]string{"p.blockpatch": relocation("f.txt")})
	huge := int64(1<<30 + 1)
	must(t, os.Truncate(filepath.Join(work, "f.txt"), huge))
	big := filepath.Join(dir, "big.blockpatch")
	must(t, os.WriteFile(big, nil, 0o644))
	must(t, os.Truncate(big, huge))
	for _, patch := range []string{big, filepath.Join(dir, "p.blockpatch")} {
		o := start(t, blockpatch([]string{childMemoryEnv + "=" + "2147483648"},
			"apply", patch, "--cwd", work, "--json-output"))()
		if o.exit != 1 || o.code() != "io_error" || !strings.Contains(o.stderr, "1073741824") {
			t.Errorf("%s: exit %d, stderr %.300s; want io_error for the 1 GiB limit", filepath.Base(patch), o.exit, o.stderr)
		}
	}
}

// TestInputLimitSetting: the environment sets the limit, in bytes; a
// value that is not a positive number is invalid_option.
func TestInputLimitSetting(t *testing.T) {
	t.Parallel()
	work, dir := t.TempDir(), t.TempDir()
	patch := relocation("f.txt")
	writeFiles(t, work, map[string]string{"f.txt": "alpha\nmove me\nomega\ntarget\n"})
	writeFiles(t, dir, map[string]string{"p.blockpatch": patch})
	tests := []struct {
		limit, code string
	}{
		{"", ""},
		{"1000", ""},
		{"100", "io_error"},
		{"0", "invalid_option"},
		{"1GiB", "invalid_option"},
		{"1", "io_error"},                         // the smallest limit is valid
		{"9", "io_error"},                         // decimal: 9 is a digit
		{"10a", "invalid_option"},                 // decimal: a is not a digit
		{"9223372036854775808", "invalid_option"}, // past int64
	}
	for _, tt := range tests {
		var env []string
		if tt.limit != "" {
			env = []string{InputLimitEnv + "=" + tt.limit}
		}
		o := start(t, blockpatch(env, "check", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output"))()
		if o.code() != tt.code {
			t.Errorf("limit %q: exit %d, stderr %s; want code %q", tt.limit, o.exit, o.stderr, tt.code)
		}
		if tt.code != "invalid_option" {
			continue
		}
		// move with field flags reads no input before the workspace, and
		// must refuse the setting all the same, writing nothing.
		o = start(t, blockpatch(env, "move", "--src", "f.txt", "--src-start", "move", "--src-end", "me\n",
			"--dst", "f.txt", "--target-before", "target\n", "--cwd", work, "--json-output"))()
		if o.code() != tt.code {
			t.Errorf("move with limit %q: exit %d, stderr %s; want code %q", tt.limit, o.exit, o.stderr, tt.code)
		}
		if got, _ := os.ReadFile(filepath.Join(work, "f.txt")); string(got) != "alpha\nmove me\nomega\ntarget\n" {
			t.Errorf("move with limit %q changed f.txt to %q", tt.limit, got)
		}
	}
	// A limit past 2^62 is still a number of bytes (int64); whether it fits
	// the process's memory is another question (io_error), not the
	// setting's form.
	env := []string{InputLimitEnv + "=4611686018427387904"}
	if o := start(t, blockpatch(env, "check", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output"))(); o.code() == "invalid_option" {
		t.Errorf("limit 2^62: stderr %s; want it read as a number", o.stderr)
	}
}

// TestInputUnderAddressSpaceLimits runs the CLI under `ulimit -v` (the
// Go runtime then starts inside the limit, as it does for a user) at
// sizes from just above where a Go program can start: endless stdin with
// the default limit, and a valid 8 MB patch, must each answer with an
// error code or succeed, never end in the runtime's fatal out-of-memory
// trace, which no Go code can catch (README, input limit). A limit under
// which `blockpatch version` does not start with 32 MB to spare is
// skipped: the runtime can fail there before any of our code runs.
func TestInputUnderAddressSpaceLimits(t *testing.T) {
	t.Parallel()
	if _, err := exec.LookPath("sh"); err != nil {
		t.Skip("no sh")
	}
	work, dir := t.TempDir(), t.TempDir()
	payload := strings.Repeat(strings.Repeat("x", 63)+"\n", 1<<16) // 4 MiB
	writeFiles(t, work, map[string]string{"f.txt": "alpha\n" + payload + "omega\ntarget\n"})
	lines := strings.Count(payload, "\n")
	patch := "diff --blockpatch a/f.txt b/f.txt\nblockpatch version 1\n" +
		"blockpatch move id=m payload-sha256=" + payloadHash(payload) + "\n--- a/f.txt\n+++ b/f.txt\n\n" +
		fmt.Sprintf("@@ -1,%d +1,2 @@ blockpatch-source id=m\n alpha\n", lines+2) +
		prefixLines("-", payload) + " omega\n\n" +
		fmt.Sprintf("@@ -%d,1 +3,%d @@ blockpatch-target id=m\n target\n", lines+3, lines+1) +
		prefixLines("+", payload)
	writeFiles(t, dir, map[string]string{"p.blockpatch": patch})
	for _, kib := range []int{720_000, 740_000, 760_000, 800_000, 900_000, 1_000_000, 1_300_000, 1_500_000, 2_000_000} {
		t.Run(strconv.Itoa(kib), func(t *testing.T) {
			t.Parallel()
			limited := func(args ...string) *exec.Cmd {
				cmd := exec.Command("sh", append([]string{"-c", `ulimit -v "$0" && exec "$@"`, strconv.Itoa(kib), os.Args[0]}, args...)...)
				cmd.Env = append(os.Environ(), childEnv+"=1")
				return cmd
			}
			// Within a few megabytes of the limit under which the program
			// starts at all, the runtime's own heap growth can fail before
			// any of our code runs (README, input limit): a limit counts
			// only when the program also starts with 32 MB less.
			for range 3 {
				probe := exec.Command("sh", "-c", `ulimit -v "$0" && exec "$@"`, strconv.Itoa(kib-32_000), os.Args[0], "version")
				probe.Env = append(os.Environ(), childEnv+"=1")
				if probe.Run() != nil {
					t.Skipf("blockpatch does not start under ulimit -v %d with 32 MB to spare", kib)
				}
			}
			zero := limited("apply", "-", "--cwd", work, "--json-output")
			f, err := os.Open("/dev/zero")
			must(t, err)
			defer f.Close()
			zero.Stdin = f
			o := start(t, zero)()
			skipIfEarly(t, o.stderr)
			if o.exit != 1 || o.code() != "io_error" || crashed(o.stderr) {
				t.Errorf("endless stdin: exit %d, stderr %.300s; want io_error", o.exit, o.stderr)
			}
			o = start(t, limited("check", filepath.Join(dir, "p.blockpatch"), "--cwd", work, "--json-output"))()
			skipIfEarly(t, o.stderr)
			if (o.exit != 0 && o.code() != "io_error") || crashed(o.stderr) {
				t.Errorf("8 MB patch: exit %d, stderr %.300s; want success or io_error", o.exit, o.stderr)
			}
		})
	}
}

// earlyHeap is the heap in use below which a runtime out-of-memory failure
// is taken for the runtime's own want of address space near the limit (the
// probe of TestInputUnderAddressSpaceLimits passes and the next run fails,
// ASLR placing the runtime's reservations differently), not a budget our
// input handling overran: CI saw 3.9 MB in use under the lowest limits.
const earlyHeap = 16 << 20

var oomInUse = regexp.MustCompile(`runtime: out of memory: cannot allocate \d+-byte block \((\d+) in use\)`)

// skipIfEarly skips the test when stderr shows the runtime failing with
// less than earlyHeap in use, before reading input could matter.
func skipIfEarly(t *testing.T, stderr string) {
	t.Helper()
	m := oomInUse.FindStringSubmatch(stderr)
	if m == nil {
		return
	}
	if n, err := strconv.Atoi(m[1]); err == nil && n < earlyHeap {
		t.Skipf("the runtime ran out of address space with %d bytes in use, before reading input could matter: %.200s", n, stderr)
	}
}

// crashed reports whether stderr shows a Go runtime trace.
func crashed(stderr string) bool {
	return strings.Contains(stderr, "fatal error") || strings.Contains(stderr, "goroutine ")
}

// prefixLines puts prefix before every line of s.
func prefixLines(prefix, s string) string {
	return prefix + strings.ReplaceAll(strings.TrimSuffix(s, "\n"), "\n", "\n"+prefix) + "\n"
}

// TestInvalidRequestBeforeInputLimit: a move given by field flags whose
// request is invalid (no src) is refused as invalid_move_args whatever the
// input-limit setting holds: the request is judged when it is decoded,
// before the workspace, which reads the setting, is made.
func TestInvalidRequestBeforeInputLimit(t *testing.T) {
	t.Parallel()
	work := t.TempDir()
	for _, limit := range []string{"0", "1GiB"} {
		o := start(t, blockpatch([]string{InputLimitEnv + "=" + limit}, "move", "--src-start", "move",
			"--src-end", "me\n", "--target-before", "target\n", "--cwd", work, "--json-output"))()
		if got := o.code(); got != "invalid_move_args" {
			t.Errorf("limit %q: exit %d, stderr %s; want code invalid_move_args", limit, o.exit, o.stderr)
		}
	}
}
