package certcmd

import (
	"strings"
	"testing"
	"time"
)

// TestRerun: the rerun line drops the selection, the seed and --keep, and
// adds its own, so it runs the one case in the same order.
func TestRerun(t *testing.T) {
	t.Parallel()
	args := []string{"-run", "x", "--seed=3", "-v", "--keep", "--cases", "dir with space", "--", "./impl", "--flag"}
	got := rerun("blockpatch-conformance", args, []string{"./impl", "--flag"}, "paths/a.b", 9)
	want := `blockpatch-conformance -run '^paths/a\.b$' --seed 9 --keep -v --cases 'dir with space' -- ./impl --flag`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}

// TestSettingsRefuseNoParallelism: --parallel 0 or below is a bad flag,
// not the default taken silently.
func TestSettingsRefuseNoParallelism(t *testing.T) {
	t.Parallel()
	for _, n := range []int{0, -3} {
		f := Flags{Parallel: n, Timeout: time.Second}
		if _, err := f.Settings(nil, nil); err == nil || !strings.Contains(err.Error(), "--parallel") {
			t.Errorf("--parallel %d: %v, want an error naming --parallel", n, err)
		}
	}
}

func TestSubcommand(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		args []string
		sub  string
		rest int
		why  string
	}{
		{[]string{"list", "-run", "x"}, CmdList, 2, "a subcommand is the first word"},
		{[]string{"-run", "x", "list"}, "", 3, "after a flag it is an implementation's word"},
		{[]string{"--", "version"}, "", 2, "-- keeps a program named version"},
		{[]string{"./impl"}, "", 1, "an implementation alone certifies"},
		{nil, "", 0, "nothing certifies the reference"},
	} {
		sub, rest := Subcommand(tc.args)
		if sub != tc.sub || len(rest) != tc.rest {
			t.Errorf("%q: %q and %d arguments, want %q and %d (%s)", tc.args, sub, len(rest), tc.sub, tc.rest, tc.why)
		}
	}
}

func TestParseImpl(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		spec, name string
		argv       []string
	}{
		{"mine=node dist/cli.js", "mine", []string{"node", "dist/cli.js"}},
		{"./bin/impl --flag", "./bin/impl --flag", []string{"./bin/impl", "--flag"}},
		{"env A=1 ./impl", "env A=1 ./impl", []string{"env", "A=1", "./impl"}},
	} {
		name, argv := ParseImpl(tc.spec)
		if name != tc.name || strings.Join(argv, "|") != strings.Join(tc.argv, "|") {
			t.Errorf("%q: %q %q, want %q %q", tc.spec, name, argv, tc.name, tc.argv)
		}
	}
}

func TestCheckChangelog(t *testing.T) {
	t.Parallel()
	hash := strings.Repeat("ab", 32)
	log := "# Changelog\n\n## Unreleased\n\n- corpus `sha256:" + hash[:12] + "`\n\n## 2026-01-01\n\n- `sha256:" + strings.Repeat("cd", 6) + "`\n"
	if err := CheckChangelog([]byte(log), "blockpatch", hash); err != nil {
		t.Error(err)
	}
	if err := CheckChangelog([]byte(log), "blockpatch", strings.Repeat("cd", 32)); err == nil {
		t.Error("a hash named only in an older section passed")
	}
}
