//go:build linux

package blockpatch

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// requireObserved skips unless bwrap runs here and the runner can mount
// the overlays that observe writes outside (as root).
func requireObserved(t *testing.T) {
	t.Helper()
	c := sh(t, "true")
	dir := t.TempDir()
	probe := filepath.Join(dir, "probe")
	if err := os.Mkdir(probe, 0o755); err != nil {
		t.Fatal(err)
	}
	iso := runner.ChooseIsolation(context.Background(), c, false, probe, filepath.Join(dir, runner.OverlaysDir))
	if !iso.Observed() {
		t.Skipf("writes outside are not observed here: %s; %s", iso, iso.Outside)
	}
}

// TestHostileWritesOutside runs implementations that write outside their
// case's folder in one way each, under bwrap over the overlays: each must
// fail its case as an escape naming what it wrote, and the host must stay
// as it was.
func TestHostileWritesOutside(t *testing.T) {
	t.Parallel()
	requireObserved(t)
	// The cases are hidden from commands (TestAnswersOutOfReach); the
	// certifier's sources are not.
	caseFile, err := filepath.Abs("outside_test.go")
	if err != nil {
		t.Fatal(err)
	}
	tag := "blockpatch-conformance-hostile-" + strconv.Itoa(os.Getpid())
	home, _ := os.UserHomeDir()
	tests := []struct {
		name string
		// script runs when the runner's check step starts, with $V the
		// test's own folder (holding a.txt, mode.txt, d/f.txt and
		// target/keep.txt), $W the work tree.
		script string
		// want are the paths the reason must name, with what happened;
		// $V, $TMP, $HOME and $ROOT (the run's temp root) are expanded.
		want []string
		// gone are paths that must not exist on the host after the run.
		gone []string
	}{
		{"creates a file in /tmp", `echo x > /tmp/` + tag, []string{"/tmp/" + tag + " (written)"}, []string{"/tmp/" + tag}},
		{"creates a file in the certifier's $HOME", `echo x > "` + home + `/.` + tag + `"`, []string{"$HOME/." + tag + " (written)"}, []string{"$HOME/." + tag}},
		{"writes to /dev/shm", `echo x > /dev/shm/` + tag, []string{"/dev/shm/" + tag + " (written)"}, []string{"/dev/shm/" + tag}},
		// The run's temp root but the command's own folders is hidden
		// under a read-only tmpfs: a write there fails unseen
		// (TestAnswersOutOfReach).
		{"touches the certifier's files", `touch -d @0 ` + caseFile, []string{caseFile + " (written)"}, nil},
		{"removes a file", `rm "$V/a.txt"`, []string{"$V/a.txt (removed)"}, nil},
		{"renames a file", `mv "$V/a.txt" "$V/b.txt"`, []string{"$V/a.txt (removed)", "$V/b.txt (written)"}, []string{"$V/b.txt"}},
		{"renames a folder", `mv "$V/d" "$V/e"`, []string{"$V/d (removed)", "$V/e (written)"}, []string{"$V/e"}},
		{"changes a mode", `chmod 600 "$V/mode.txt"`, []string{"$V/mode.txt (written)"}, nil},
		{"makes a folder", `mkdir "$V/new"`, []string{"$V/new (written)"}, []string{"$V/new"}},
		{"writes through a symlink it made", `ln -s "$V/target" "$V/link" && echo x > "$V/link/planted"`,
			[]string{"$V/link (written)", "$V/target/planted (written)"}, []string{"$V/link", "$V/target/planted"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			v := t.TempDir()
			for name, data := range map[string]string{"a.txt": "a\n", "mode.txt": "m\n", "d/f.txt": "f\n", "target/keep.txt": "k\n"} {
				os.MkdirAll(filepath.Join(v, filepath.Dir(name)), 0o755)
				if err := os.WriteFile(filepath.Join(v, name), []byte(data), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			before := snapshot(t, v, caseFile)
			script := `V='` + v + `' W="$4"; if [ "$1" = check ] && [ "$3" = --cwd ]; then ` + tt.script + `; fi`
			r := newRunner(t, sh(t, script))
			r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
			rep := run(t, r)
			expand := func(s string) string {
				return strings.NewReplacer("$V", v, "$HOME", home, "$ROOT", filepath.Join(r.TempDir, "blockpatch-conformance-")).Replace(s)
			}
			res := rep.Results[0]
			if res.Verdict != runner.Escape || res.Failure == nil {
				t.Fatalf("%s: %s (%s), want escape", res.Name, res.Verdict, res.Reason)
			}
			got := strings.Join(res.Failure.Problems, "\n")
			for _, w := range tt.want {
				w = expand(w)
				if strings.HasPrefix(w, filepath.Join(r.TempDir, "blockpatch-conformance-")) {
					// The temp root's name is random: match around it.
					pre, post, _ := strings.Cut(w, "blockpatch-conformance-")
					_, post, _ = strings.Cut(post, "/")
					if !regexp.MustCompile(regexp.QuoteMeta(pre+"blockpatch-conformance-") + `[0-9]+/` + regexp.QuoteMeta(post)).MatchString(got) {
						t.Errorf("the reason does not name %s: %s", w, got)
					}
				} else if !strings.Contains(got, w) {
					t.Errorf("the reason does not name %s: %s", w, got)
				}
			}
			if !strings.Contains(got, "wrote outside its case's folder") {
				t.Errorf("reason %q", got)
			}
			for _, g := range tt.gone {
				if g = expand(g); exists(g) {
					os.RemoveAll(g)
					t.Errorf("%s was written on the host", g)
				}
			}
			if after := snapshot(t, v, caseFile); after != before {
				t.Errorf("the host changed:\nbefore %s\nafter  %s", before, after)
			}
			if entries, _ := os.ReadDir(r.TempDir); len(entries) != 0 {
				t.Errorf("the run left %v in its temp folder", entries)
			}
			if len(rep.Problems) != 0 {
				t.Errorf("problems: %q", rep.Problems)
			}
		})
	}
}

// snapshot describes the test's folder and the certifier's case file:
// names, modes, sizes and modification times.
func snapshot(t *testing.T, dir, file string) string {
	t.Helper()
	var b strings.Builder
	filepath.Walk(dir, func(p string, info os.FileInfo, err error) error {
		if err == nil {
			b.WriteString(p + " " + info.Mode().String() + " " + strconv.FormatInt(info.Size(), 10) + "; ")
		}
		return nil
	})
	info, err := os.Stat(file)
	if err != nil {
		t.Fatal(err)
	}
	b.WriteString(file + " " + info.ModTime().Format(time.RFC3339Nano))
	return b.String()
}

func exists(p string) bool {
	_, err := os.Lstat(p)
	return err == nil
}

// TestOverlaysLeaveNoMount: the overlays are mounted in mount namespaces
// of the runner's threads, never in the runner's own, and their folders
// go with the run.
func TestOverlaysLeaveNoMount(t *testing.T) {
	t.Parallel()
	requireObserved(t)
	r := newRunner(t, sh(t, `echo x > /tmp/blockpatch-conformance-hostile-$$`))
	r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
	rep := run(t, r)
	if !strings.HasPrefix(rep.Certificate.Isolation.Outside, "observed: ") {
		t.Errorf("outside writes: %q", rep.Certificate.Isolation.Outside)
	}
	if !strings.Contains(rep.Results[0].Reason, "wrote outside its case's folder") {
		t.Errorf("%s: %s", rep.Results[0].Verdict, rep.Results[0].Reason)
	}
	mounts, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(mounts), r.TempDir) || strings.Contains(string(mounts), " - overlay ") && strings.Contains(string(mounts), runner.OverlaysDir) {
		t.Errorf("an overlay is mounted in the runner's namespace:\n%s", mounts)
	}
}

// TestOutsideWritesNotObserved: without bwrap the certificate says that
// writes outside were not observed.
func TestOutsideWritesNotObserved(t *testing.T) {
	t.Parallel()
	for name, r := range map[string]*Runner{
		"turned off": newRunner(t, sh(t, "exit 1")),
		"in process": newRunner(t, reference()),
	} {
		r.NoIsolation = true
		r.RunRegexp = regexp.MustCompile(`^plain/relocate$`)
		rep := run(t, r)
		if o := rep.Certificate.Isolation.Outside; !strings.HasPrefix(o, "not observed: ") {
			t.Errorf("%s: outside writes %q", name, o)
		}
		var b strings.Builder
		if err := rep.WriteHuman(&b, false); err != nil {
			t.Fatal(err)
		}
		if !regexp.MustCompile(`(?m)^outside writes +not observed: `).MatchString(b.String()) {
			t.Errorf("%s: the certificate does not say so:\n%s", name, b.String())
		}
	}
}

// sh is an implementation made of a shell script, run as a command.
func sh(t *testing.T, script string) *runner.Command {
	t.Helper()
	c, err := runner.NewCommand([]string{"sh", "-c", script, "sh"})
	if err != nil {
		t.Fatal(err)
	}
	return c
}
