package runner

import (
	"fmt"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

// This file holds the comparisons: trees against expectations, and the
// success JSON against what the trees say it must report.

// changedPaths lists the paths whose bytes differ between a tree read from
// disk and the tree expected after a command: created, removed, or with
// other bytes or another symlink target. Folders do not count.
func changedPaths(before, after cases.Tree) []string {
	var out []string
	seen := map[string]bool{}
	for _, t := range []cases.Tree{before, after} {
		for p := range t {
			if seen[p] {
				continue
			}
			seen[p] = true
			b, bok := before[p]
			a, aok := after[p]
			bok, aok = bok && !b.Dir, aok && !a.Dir
			switch {
			case !bok && !aok:
			case bok != aok, b.Kind() != a.Kind(), b.Symlink != a.Symlink, string(b.Data) != string(a.Data):
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

// treeCheck is the outcome of comparing a tree with an expectation.
type treeCheck struct {
	problems []string
	// strayOnly is set when the only differences are entries nobody
	// expected that did not exist before: files left behind.
	strayOnly bool
	// warnings are differences the documentation allows but that are
	// worth reporting.
	warnings []string
}

// compareAfter compares the tree after a successful command with want:
// the whole tree (DiffTree), expected_absent, and the modes want leaves
// unstated: a file that existed before keeps its mode (WRITE-011) and, from
// profile 1.1, a created file gets 0644 (WRITE-010).
func compareAfter(want, before, got cases.Tree, work string, absent []string, profile string) treeCheck {
	var tc treeCheck
	modes := modeProblems(want, before, got, profile)
	if d := cases.DiffTree(want, got); d != "" {
		extra := strays(want, before, got)
		rest := got.Clone()
		for _, p := range extra {
			delete(rest, p)
		}
		tc.strayOnly = len(extra) > 0 && cases.DiffTree(want, rest) == "" && len(modes) == 0
		msg := "the tree differs from the expected tree (-want +got):\n" + treeDiff(want, got, false)
		if tc.strayOnly {
			msg = fmt.Sprintf("stray files left in the work tree: %s (WRITE-008)\n", strings.Join(quoteAll(extra), ", ")) + msg
		}
		tc.problems = append(tc.problems, msg)
	}
	tc.problems = append(tc.problems, modes...)
	for _, p := range absent {
		if _, err := os.Lstat(filepath.Join(work, filepath.FromSlash(p))); err == nil {
			tc.problems = append(tc.problems, fmt.Sprintf("%q exists, but the case says it must be absent", p))
			tc.strayOnly = false
		}
	}
	return tc
}

// strays lists the files and symlinks of got that want does not expect and
// that were not there before the command.
func strays(want, before, got cases.Tree) []string {
	var out []string
	for _, p := range got.Paths() {
		if got[p].Dir {
			continue
		}
		if _, ok := want[p]; ok {
			continue
		}
		if _, ok := before[p]; ok {
			continue
		}
		out = append(out, p)
	}
	return out
}

func modeProblems(want, before, got cases.Tree, profile string) []string {
	var out []string
	for _, p := range got.Paths() {
		g := got[p]
		w, ok := want[p]
		if !ok || g.Kind() != "file" || w.Kind() != "file" || w.Mode != 0 {
			continue
		}
		if b, ok := before[p]; ok && b.Kind() == "file" {
			if g.Mode != b.Mode {
				out = append(out, fmt.Sprintf("%q: mode %04o, but it was %04o before and a replaced file keeps its mode (WRITE-011)", p, g.Mode, b.Mode))
			}
			continue
		}
		if profileIncludes(profile, "1.1") && g.Mode != cases.DefaultFileMode {
			out = append(out, fmt.Sprintf("%q: created with mode %04o, want %04o (WRITE-010)", p, g.Mode, cases.DefaultFileMode))
		}
	}
	return out
}

// compareSame checks that a command left the tree exactly as it was:
// every file, symlink and folder, with bytes and modes.
func compareSame(before, after cases.Tree, req string) treeCheck {
	var tc treeCheck
	var extraFiles, extraDirs int
	same := true
	for _, p := range after.Paths() {
		a := after[p]
		b, ok := before[p]
		switch {
		case !ok && a.Dir:
			extraDirs++
		case !ok:
			extraFiles++
		case !sameEntry(a, b):
			same = false
		}
	}
	for p := range before {
		if _, ok := after[p]; !ok {
			same = false
		}
	}
	if same && extraFiles == 0 && extraDirs == 0 {
		return tc
	}
	if same && extraFiles == 0 {
		// 1.1.0 leaves the folders it made for a failed creation; the
		// documentation promises only that files are not modified.
		tc.warnings = append(tc.warnings, fmt.Sprintf("empty folders were created and left behind: %s", strings.Join(quoteAll(newDirs(before, after)), ", ")))
		return tc
	}
	tc.strayOnly = same && extraFiles > 0
	msg := fmt.Sprintf("the tree changed, but this command must leave it as it was (%s) (-before +after):\n%s", req, treeDiff(before, after, true))
	if tc.strayOnly {
		msg = fmt.Sprintf("stray files left in the work tree: %s (WRITE-008)\n", strings.Join(quoteAll(strays(nil, before, after)), ", ")) + msg
	}
	tc.problems = append(tc.problems, msg)
	return tc
}

func newDirs(before, after cases.Tree) []string {
	var out []string
	for _, p := range after.Paths() {
		if _, ok := before[p]; !ok && after[p].Dir {
			out = append(out, p)
		}
	}
	return out
}

func sameEntry(a, b cases.Entry) bool {
	return a.Kind() == b.Kind() && a.Mode == b.Mode && a.Symlink == b.Symlink && string(a.Data) == string(b.Data)
}

func quoteAll(ps []string) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = fmt.Sprintf("%q", p)
	}
	return out
}

// successWant is what a successful check, apply, plan or move must show.
type successWant struct {
	// after is the tree the command leaves, or would leave when dry.
	after  cases.Tree
	absent []string
	// dry commands (check, plan) must not change the tree.
	dry bool
	// result is the case's expected subset of the success JSON, or nil.
	result map[string]any
	// strip is the strip count the JSON must report, -1 when none.
	strip int
	// plan commands must return the rendered patch; wantPatch, when not
	// nil, is the exact patch.
	plan      bool
	wantPatch []byte
	// writeOrder lists files the command must replace by rename, in order.
	writeOrder []string
}

// successMembers are the members every success object holds (OUT-003).
var successMembers = []string{"ok", "changed", "affected", "written", "noop", "status", "moves"}

// checkSuccessJSON compares a success object with what the trees say it
// must report (OUT-003 to OUT-011), then with the case's own result.
func checkSuccessJSON(doc map[string]any, raw []byte, before cases.Tree, w successWant) []string {
	var out []string
	add := func(format string, args ...any) { out = append(out, fmt.Sprintf(format, args...)) }
	var missing []string
	for _, m := range successMembers {
		if _, ok := doc[m]; !ok {
			missing = append(missing, m)
		}
	}
	if len(missing) > 0 {
		add("the success JSON lacks %s (OUT-003)", strings.Join(missing, ", "))
	}
	if ok, _ := doc["ok"].(bool); !ok {
		add("ok is %s, want true", member(doc, "ok"))
	}
	want := changedPaths(before, w.after)
	changed, isList := stringList(doc["changed"])
	cleanPaths(changed)
	if _, present := doc["changed"]; present && !isList {
		add("changed is %s, want a list of paths", jsonText(doc["changed"]))
	} else if isList {
		got := slices.Sorted(slices.Values(changed))
		if !slices.Equal(got, want) {
			add("changed lists %s, but the paths whose bytes change are %s (OUT-005)", jsonText(changed), jsonText(want))
		}
	}
	if v, present := doc["written"]; present {
		wantWritten := !w.dry && len(want) > 0
		if b, ok := v.(bool); !ok || b != wantWritten {
			add("written is %s, want %v (OUT-007)", jsonText(v), wantWritten)
		}
	}
	if v, present := doc["noop"]; present {
		if b, ok := v.(bool); !ok || b != (len(want) == 0) {
			add("noop is %s, want %v: noop is true exactly when nothing changes (OUT-008)", jsonText(v), len(want) == 0)
		}
	}
	if v, present := doc["status"]; present {
		s, _ := v.(string)
		switch {
		case len(want) > 0 && s != "applied":
			add("status is %s, want \"applied\" since bytes change (OUT-009)", jsonText(v))
		case len(want) == 0 && s != "noop" && s != "already_applied":
			add("status is %s, want \"noop\" or \"already_applied\" since no bytes change (OUT-009)", jsonText(v))
		}
	}
	if affected, ok := stringList(doc["affected"]); ok {
		cleanPaths(affected)
		for _, p := range changed {
			if !slices.Contains(affected, p) {
				add("changed path %q is missing from affected %s (OUT-006)", p, jsonText(affected))
			}
		}
	}
	if w.strip >= 0 {
		if n, ok := doc["strip_components"].(float64); !ok || int(n) != w.strip {
			add("strip_components is %s, want %d (OUT-010)", member(doc, "strip_components"), w.strip)
		}
	}
	if w.plan {
		p, ok := doc["patch"].(string)
		switch {
		case !ok:
			add("the JSON has no patch member holding the rendered patch (OUT-011)")
		case w.wantPatch != nil && p != string(w.wantPatch):
			add("the rendered patch differs from expected_patch (-want +got):\n%s", linesDiff(w.wantPatch, []byte(p)))
		}
	}
	if w.result != nil {
		if d := cases.MatchSubset(w.result, raw); d != "" {
			add("the success JSON differs from the case's result (-want +got):\n%s", d)
		}
	}
	return out
}

// cleanPaths reads dir//f and f/, which a patch may write, as the paths
// they name.
func cleanPaths(ps []string) {
	for i, p := range ps {
		ps[i] = path.Clean(p)
	}
}

func stringList(v any) ([]string, bool) {
	l, ok := v.([]any)
	if !ok {
		return nil, false
	}
	out := make([]string, 0, len(l))
	for _, x := range l {
		s, ok := x.(string)
		if !ok {
			return nil, false
		}
		out = append(out, s)
	}
	return out, true
}

// withoutWritten returns the case's apply result for a dry command, which
// reports the same move but writes nothing.
func withoutWritten(m map[string]any) map[string]any {
	if m == nil {
		return nil
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if k != "written" {
			out[k] = v
		}
	}
	return out
}

// effectiveStrip is the strip count a check or apply with these arguments
// uses: the case's strip, a -pN/--strip in args, or the default 1.
func effectiveStrip(c *cases.Case, args []string) int {
	if c.Strip != nil {
		return *c.Strip
	}
	n := 1
	for i := 0; i < len(args); i++ {
		a := args[i]
		var v string
		switch {
		case a == "-p" || a == "--strip":
			if i+1 < len(args) {
				v = args[i+1]
				i++
			}
		case strings.HasPrefix(a, "--strip="):
			v = strings.TrimPrefix(a, "--strip=")
		case strings.HasPrefix(a, "-p"):
			v = a[2:]
		default:
			continue
		}
		if _, err := fmt.Sscanf(v, "%d", &n); err != nil {
			return -1
		}
	}
	return n
}

func profileIncludes(profile, version string) bool {
	return slices.Index(cases.Versions, version) <= slices.Index(cases.Versions, profile)
}

// member renders a member of a JSON object for a message.
func member(doc map[string]any, name string) string {
	v, ok := doc[name]
	if !ok {
		return "absent"
	}
	return jsonText(v)
}
