package campaign

import (
	"bytes"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// writeTree writes files (slash paths to contents) below a new temporary
// folder and returns it.
func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for p, data := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(full, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// readTree reads every file below dir, with its mode, as slash paths.
func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || p == dir {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		if d.Type()&fs.ModeSymlink != 0 {
			target, err := os.Readlink(p)
			out[filepath.ToSlash(rel)] = "link to " + target
			return err
		}
		if d.IsDir() {
			out[filepath.ToSlash(rel)+"/"] = info.Mode().String()
			return nil
		}
		data, err := os.ReadFile(p)
		out[filepath.ToSlash(rel)] = info.Mode().String() + " " + string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// kase is a case file as both suites write one: a description naming
// where it was found, then the members that make the test.
func kase(where, body string) string {
	return `{"description": "found at ` + where + `", ` + body + "}\n"
}

func merge(t *testing.T, inputs ...string) (string, *MergeReport) {
	t.Helper()
	out := filepath.Join(t.TempDir(), "merged")
	r, err := Merge(out, inputs)
	if err != nil {
		t.Fatal(err)
	}
	return out, r
}

// Two shards of one campaign (blockpatch's NAME/case.json and
// PatchDIFF's fuzz/NAME.json layouts).
func shards(t *testing.T) (a, b string) {
	a = writeTree(t, map[string]string{
		"check-code-x-s1-i3/case.json": kase("iteration 3", `"expect": "fail", "error_code": "x"`),
		"check-code-x-s1-i9/case.json": kase("iteration 9", `"expect": "fail", "error_code": "y"`),
		"fuzz/rejected-s1-i1.json":     kase("iteration 1", `"request": {"n": 1}`),
		"report.txt":                   "campaign: seed 1, shard 0/2\n",
	})
	b = writeTree(t, map[string]string{
		// shrunk to the same case as a's iteration 3: a duplicate
		"check-code-x-s1-i4/case.json": kase("iteration 4", `"expect": "fail", "error_code": "x"`),
		// the same file as in a (a shard run twice): a duplicate
		"check-code-x-s1-i9/case.json": kase("iteration 9", `"expect": "fail", "error_code": "y"`),
		// another case
		"fuzz/rejected-s1-i2.json": kase("iteration 2", `"request": {"n": 2}`),
	})
	return a, b
}

// TestMergeDropsDuplicatesFromShards: cases equal but for their
// description, and files equal in everything, coming from two shards are
// written once, under the smallest name; the rest is kept as it was.
func TestMergeDropsDuplicatesFromShards(t *testing.T) {
	t.Parallel()
	a, b := shards(t)
	out, r := merge(t, a, b)
	got := readTree(t, out)
	want := map[string]string{
		"check-code-x-s1-i3/":          "drwxr-xr-x",
		"check-code-x-s1-i3/case.json": "-rw-r--r-- " + kase("iteration 3", `"expect": "fail", "error_code": "x"`),
		"check-code-x-s1-i9/":          "drwxr-xr-x",
		"check-code-x-s1-i9/case.json": "-rw-r--r-- " + kase("iteration 9", `"expect": "fail", "error_code": "y"`),
		"fuzz/":                        "drwxr-xr-x",
		"fuzz/rejected-s1-i1.json":     "-rw-r--r-- " + kase("iteration 1", `"request": {"n": 1}`),
		"fuzz/rejected-s1-i2.json":     "-rw-r--r-- " + kase("iteration 2", `"request": {"n": 2}`),
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("merged folder (-want +got):\n%s", diff)
	}
	if r.Read != 6 || len(r.Duplicates) != 2 || len(r.Renamed) != 0 || len(r.Skipped) != 1 {
		t.Errorf("report: %+v; want 6 read, 2 duplicates, 0 renamed, 1 skipped (report.txt)", r)
	}
	var sum bytes.Buffer
	r.Summary(&sum, "merged")
	if !strings.Contains(sum.String(), "merge: 6 case files read, 4 written to merged, 2 duplicates left out, 0 renamed, 1 skipped\n") {
		t.Errorf("summary:\n%s", sum.String())
	}
}

// TestMergeIsOrderIndependentAndIdempotent: the inputs in any order give
// the same folder, and merging that folder again gives it back unchanged,
// renamed cases included.
func TestMergeIsOrderIndependentAndIdempotent(t *testing.T) {
	t.Parallel()
	a, b := shards(t)
	// A third shard whose different cases have names taken in a and b.
	c := writeTree(t, map[string]string{
		"check-code-x-s1-i3/case.json": kase("iteration 3", `"expect": "pass"`),
		"fuzz/rejected-s1-i1.json":     kase("iteration 1", `"request": {"n": 3}`),
		"fuzz/rejected-s1-i1-2.json":   kase("iteration 1", `"request": {"n": 4}`),
	})
	first, r := merge(t, a, b, c)
	if len(r.Renamed) != 2 {
		t.Errorf("renamed %v; want two cases renamed", r.Renamed)
	}
	want := readTree(t, first)
	for _, p := range []string{"check-code-x-s1-i3-2/case.json", "fuzz/rejected-s1-i1-3.json"} {
		if _, ok := want[p]; !ok {
			t.Errorf("no %s in %v", p, want)
		}
	}
	for _, order := range [][]string{{c, b, a}, {b, a, c}, {c, a, b}} {
		out, _ := merge(t, order...)
		if diff := cmp.Diff(want, readTree(t, out)); diff != "" {
			t.Errorf("inputs in another order (-first +this):\n%s", diff)
		}
	}
	again, r := merge(t, first)
	if diff := cmp.Diff(want, readTree(t, again)); diff != "" {
		t.Errorf("merging the merged folder again (-first +again):\n%s", diff)
	}
	if len(r.Duplicates)+len(r.Renamed)+len(r.Skipped) != 0 {
		t.Errorf("merging the merged folder again: %+v", r)
	}
}

// TestMergeNeverFollowsLinks: a symbolic link below an input, to a file
// or a folder, is skipped and reported, never read; an input that is a
// link is refused.
func TestMergeNeverFollowsLinks(t *testing.T) {
	t.Parallel()
	outside := writeTree(t, map[string]string{"secret.json": kase("outside", `"x": 1`), "d/case.json": kase("outside", `"x": 2`)})
	in := writeTree(t, map[string]string{"a/case.json": kase("in", `"x": 3`)})
	for link, target := range map[string]string{"b.json": "secret.json", "c": "d"} {
		if err := os.Symlink(filepath.Join(outside, target), filepath.Join(in, link)); err != nil {
			t.Skip("no symbolic links here:", err)
		}
	}
	out, r := merge(t, in)
	if got := readTree(t, out); len(got) != 2 || got["a/case.json"] == "" {
		t.Errorf("merged %v; want a/case.json only", got)
	}
	if len(r.Skipped) != 2 || !strings.Contains(r.Skipped[0], "symbolic link") {
		t.Errorf("skipped %q; want the two links", r.Skipped)
	}
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(in, link); err != nil {
		t.Fatal(err)
	}
	if _, err := Merge(filepath.Join(t.TempDir(), "m"), []string{link}); err == nil || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("an input that is a link: %v; want it refused", err)
	}
}

// TestMergeRefusesItsInputs: the output may not be an input, lie inside
// one or hold one, nor be a folder with something in it; nothing is
// written then.
func TestMergeRefusesItsInputs(t *testing.T) {
	t.Parallel()
	in := writeTree(t, map[string]string{"a/case.json": kase("in", `"x": 1`)})
	full := writeTree(t, map[string]string{"old.json": "{}"})
	parent := t.TempDir()
	inner := filepath.Join(parent, "shard")
	if err := os.Mkdir(inner, 0o755); err != nil {
		t.Fatal(err)
	}
	alias := filepath.Join(t.TempDir(), "alias")
	if err := os.Symlink(in, alias); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, out string
		inputs    []string
		want      string
	}{
		{"the input itself", in, []string{in}, "overlap"},
		{"inside the input", filepath.Join(in, "merged"), []string{in}, "overlap"},
		{"a link to the input, one level down", filepath.Join(alias, "merged"), []string{in}, "overlap"},
		{"holding the input", parent, []string{inner}, "overlap"},
		{"a folder with files", full, []string{in}, "not empty"},
		{"no inputs", filepath.Join(t.TempDir(), "m"), nil, "at least one input"},
		{"an input twice", filepath.Join(t.TempDir(), "m"), []string{in, in}, "inputs"},
		{"an input inside another", filepath.Join(t.TempDir(), "m"), []string{parent, inner}, "inputs"},
		{"a missing input", filepath.Join(t.TempDir(), "m"), []string{filepath.Join(parent, "nothing")}, "no such file"},
	} {
		before := readTree(t, filepath.Dir(in))
		_, err := Merge(tc.out, tc.inputs)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: %v; want an error saying %q", tc.name, err, tc.want)
		}
		if diff := cmp.Diff(before, readTree(t, filepath.Dir(in))); diff != "" {
			t.Errorf("%s: the input changed (-before +after):\n%s", tc.name, diff)
		}
	}
}

// TestCaseKey: what counts as the same case.
func TestCaseKey(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		name string
		a, b string
		same bool
	}{
		{"only the description differs", `{"description": "i3", "x": [1, {"y": null}]}`, `{"x":[1,{"y":null}],"description":"i9"}`, true},
		{"layout differs", "{\n  \"x\": true\n}\n", `{"x":true}`, true},
		{"no description on one side", `{"x": 1}`, `{"description": "", "x": 1}`, true},
		{"a nested description counts", `{"x": {"description": "a"}}`, `{"x": {"description": "b"}}`, false},
		{"member order counts", `{"x": 1, "y": 2}`, `{"y": 2, "x": 1}`, false},
		{"number spelling counts", `{"x": 1}`, `{"x": 1.0}`, false},
		{"a duplicate member counts", `{"x": 1, "x": 2}`, `{"x": 2}`, false},
		{"a string is not a number", `{"x": "1"}`, `{"x": 1}`, false},
		{"invalid UTF-8 compares as bytes", "{\"x\": \"\xff\"}", "{\"x\": \"\xfe\"}", false},
		{"trailing data compares as bytes", `{"description": "a", "x": 1} x`, `{"description": "b", "x": 1} x`, false},
		{"not an object compares as bytes", `["description", 1]`, `["description",1]`, false},
	} {
		if got := caseKey([]byte(tc.a)) == caseKey([]byte(tc.b)); got != tc.same {
			t.Errorf("%s: same = %v, want %v", tc.name, got, tc.same)
		}
	}
}

// TestMergeCommand: merge as a subcommand of a campaign command.
func TestMergeCommand(t *testing.T) {
	t.Parallel()
	a, b := shards(t)
	c := Command{Name: "x-fuzz", Usage: "usage: NAME\n" + MergeUsage}
	out := filepath.Join(t.TempDir(), "merged")
	var stdout, stderr bytes.Buffer
	if code := c.Main(t.Context(), []string{"merge", "--out", out, a, b}, &stdout, &stderr); code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if !strings.Contains(stdout.String(), "4 written to "+out) {
		t.Errorf("stdout:\n%s", stdout.String())
	}
	for _, args := range [][]string{{"merge", a}, {"merge", "--out", out}, {"merge", "--out", out, a}, {"merge", "--bogus"}} {
		stdout.Reset()
		stderr.Reset()
		if code := c.Main(t.Context(), args, &stdout, &stderr); code != 2 || !strings.HasPrefix(stderr.String(), "x-fuzz merge: ") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and an x-fuzz merge: message", args, code, stderr.String())
		}
	}
}
