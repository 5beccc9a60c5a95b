package mutants

import (
	"errors"
	"testing"
)

const diffSrc = "one\ntwo\nthree\nfour\nfive\n"

func TestMakeDiffApplies(t *testing.T) {
	for _, tc := range []struct{ name, new string }{
		{"change a middle line", "one\ntwo\nTHREE\nfour\nfive\n"},
		{"remove the first line", "two\nthree\nfour\nfive\n"},
		{"insert after the last line", diffSrc + "six\n"},
		{"replace two lines by three", "one\nA\nB\nC\nfour\nfive\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := MakeDiff("f.go", []byte(diffSrc), []byte(tc.new), 1)
			_, files, err := ParseDiff(append([]byte("a description\n"), d...))
			if err != nil {
				t.Fatalf("%v\n%s", err, d)
			}
			got, err := files[0].Apply([]byte(diffSrc))
			if err != nil || string(got) != tc.new {
				t.Fatalf("Apply = %q, %v; want %q\n%s", got, err, tc.new, d)
			}
		})
	}
	if d := MakeDiff("f.go", []byte(diffSrc), []byte(diffSrc), 2); d != nil {
		t.Errorf("equal files give a diff:\n%s", d)
	}
}

// TestApplyRelocates: a hunk whose lines moved applies where they are now,
// when they are there once; otherwise the mutant is stale.
func TestApplyRelocates(t *testing.T) {
	diff := "desc\n--- a/f.go\n+++ b/f.go\n@@ -2,2 +2,2 @@\n two\n-three\n+THREE\n"
	_, files, err := ParseDiff([]byte(diff))
	if err != nil {
		t.Fatal(err)
	}
	got, err := files[0].Apply([]byte("zero\n" + diffSrc))
	if want := "zero\none\ntwo\nTHREE\nfour\nfive\n"; err != nil || string(got) != want {
		t.Errorf("moved: got %q, %v; want %q", got, err, want)
	}
	for name, src := range map[string]string{
		"gone":  "one\ntwo\n3\n",
		"twice": "two\nthree\nx\ntwo\nthree\n",
	} {
		if _, err := files[0].Apply([]byte(src)); !errors.Is(err, ErrStale) {
			t.Errorf("%s: err = %v; want ErrStale", name, err)
		}
	}
}

func TestParseDiffRejects(t *testing.T) {
	for name, diff := range map[string]string{
		"no file":           "just words\n",
		"header mismatch":   "d\n--- a/f.go\n+++ b/g.go\n@@ -1 +1 @@\n-a\n+b\n",
		"counts too small":  "d\n--- a/f.go\n+++ b/f.go\n@@ -1,1 +1,1 @@\n-a\n-b\n+c\n",
		"ends early":        "d\n--- a/f.go\n+++ b/f.go\n@@ -1,2 +1,2 @@\n-a\n+b\n",
		"no hunk":           "d\n--- a/f.go\n+++ b/f.go\n",
		"no-newline marker": "d\n--- a/f.go\n+++ b/f.go\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n",
	} {
		if _, _, err := ParseDiff([]byte(diff)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
