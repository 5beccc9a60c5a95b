package cases

import (
	"strings"
	"testing"
)

func TestDerive(t *testing.T) {
	t.Parallel()
	all, err := LoadCorpus()
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, c := range all {
		for _, d := range Derive(c) {
			kinds[d.Name[strings.LastIndexByte(d.Name, '/')+1:]]++
			if d.Expect != Fail || d.ErrorCode == "" || !IsCode(d.ErrorCode) || len(d.Requirements) != 1 {
				t.Errorf("%s: not a well-formed fail case: %+v", d.Name, d)
			}
			if d.Name == c.Name || !strings.HasPrefix(d.Name, "derived/"+c.Name+"/") {
				t.Errorf("%s: derived name does not name its origin %s", d.Name, c.Name)
			}
		}
	}
	for _, k := range []string{"hash", "count", "blank", "missing", "anchor"} {
		if kinds[k] < 10 {
			t.Errorf("only %d %q cases derived from the corpus", kinds[k], k)
		}
	}
	t.Logf("derived: %v", kinds)
}

func TestDeriveEdits(t *testing.T) {
	t.Parallel()
	patch := "diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=move-1 payload-sha256=0\n--- a/f\n+++ b/f\n\n" +
		"@@ -1 +1,2 @@ blockpatch-target id=move-1\n a\n+x\n"
	c := &Case{Name: "n", Protocol: Standard, Expect: Pass, Patch: []byte(patch),
		Files: Tree{"f": {Data: []byte("a\n")}}, ExpectedFiles: Tree{"f": {Data: []byte("a\nx\n")}}}
	got := map[string]*Case{}
	for _, d := range Derive(c) {
		got[d.Name] = d
	}
	checks := []struct{ name, want string }{
		{"derived/n/hash", " a\n+y\n"},
		{"derived/n/count", "@@ -1,2 +1,2 @@"},
		{"derived/n/blank", "blockpatch-target id=move-1\n\n a\n"},
	}
	for _, ck := range checks {
		d := got[ck.name]
		if d == nil || !strings.Contains(string(d.Patch), ck.want) {
			t.Errorf("%s: patch lacks %q", ck.name, ck.want)
		}
	}
	if d := got["derived/n/missing"]; d == nil || len(d.Files) != 0 {
		t.Errorf("missing: want an empty tree")
	}
	if d := got["derived/n/anchor"]; d == nil || string(d.Files["f"].Data) != "a\na\n" {
		t.Errorf("anchor: want the anchor appended")
	}
}
