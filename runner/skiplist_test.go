package runner

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestStale: an entry is stale when it matches no loaded case or when
// every case it lists passed; not when one of its cases still fails, nor
// when the run did not judge its cases.
func TestStale(t *testing.T) {
	t.Parallel()
	list, err := ParseSkipList([]byte("gone/case  renamed\nfixed/*  was broken\nmixed/*  half fixed\nunjudged/a  not run here\nfuzz/kind  a fuzzing disagreement\n"))
	if err != nil {
		t.Fatal(err)
	}
	names := []string{"fixed/a", "fixed/b", "mixed/a", "mixed/b", "unjudged/a"}
	results := []*Result{
		{Name: "fixed/a", Verdict: UnexpectedPass}, {Name: "fixed/b", Verdict: UnexpectedPass},
		{Name: "mixed/a", Verdict: UnexpectedPass}, {Name: "mixed/b", Verdict: Skip},
		{Name: "unjudged/a", Verdict: Unsupported},
	}
	var got []string
	for _, e := range list.Stale(names, results) {
		got = append(got, e.Pattern+": "+e.Why)
	}
	want := []string{"gone/case: it matches no case: the case was renamed or removed", "fixed/*: every case it lists passed (2)"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("stale entries (-want +got):\n%s", diff)
	}
}

// TestSkipListText: the list written from results holds every failure
// once, the listed ones with their list's reason, names escaped for
// path.Match, reasons on one line with control bytes visible; it parses,
// and each entry matches its own case only.
func TestSkipListText(t *testing.T) {
	t.Parallel()
	results := []*Result{
		{Name: "a/pass", Verdict: Pass},
		{Name: "a/fail", Verdict: Fail, Reason: "apply: exit status 0\nsecond line"},
		{Name: "a/listed", Verdict: Skip, Reason: "apply: differs", SkipReason: "known deviation"},
		{Name: "a/star*", Verdict: Crash, Reason: "bell \a"},
		{Name: "a/stale", Verdict: UnexpectedPass},
		{Name: "a/other", Verdict: Unsupported, Reason: "level cli"},
	}
	text := SkipListText("header line\nsecond", results)
	want := "# header line\n# second\na/fail fail: apply: exit status 0\na/listed known deviation\na/star\\* crash: bell \\x07\n"
	if diff := cmp.Diff(want, string(text)); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	list, err := ParseSkipList(text)
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := list.Reason("a/starX"); ok {
		t.Error("an escaped * still matches other names")
	}
	if r, ok := list.Reason("a/star*"); !ok || r != `crash: bell \x07` {
		t.Errorf("a/star*: %q %v", r, ok)
	}
}

// TestPrune removes exactly the stale entries' lines.
func TestPrune(t *testing.T) {
	t.Parallel()
	file := filepath.Join(t.TempDir(), "list")
	os.WriteFile(file, []byte("# keep me\na/one  reason\n\nb/two  reason\nc/three  reason"), 0o600)
	list, err := ReadSkipList(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := list.Prune([]StaleEntry{{SkipEntry: list.Entries[1]}, {SkipEntry: list.Entries[2]}}); err != nil {
		t.Fatal(err)
	}
	got, _ := os.ReadFile(file)
	if string(got) != "# keep me\na/one  reason\n\n" {
		t.Errorf("after pruning: %q", got)
	}
	if info, _ := os.Stat(file); info.Mode().Perm() != 0o600 {
		t.Errorf("mode %v, want the file's own 0600", info.Mode().Perm())
	}
}
