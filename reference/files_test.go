package reference

import (
	"context"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMapFilesAgreesWithWorkspace: the in-memory tree must name the files a
// Workspace names, however a patch spells them (PATH-016), or the pure core
// and the CLI give two answers to one patch.
func TestMapFilesAgreesWithWorkspace(t *testing.T) {
	t.Parallel()
	insert := func(old, new string) string {
		return section(old, new, sha("ins\n"), "") +
			"@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n x\n+ins\n y\n"
	}
	cross := func(src, dst string) string {
		sum := sha("pay\n")
		return section("a/"+src, "b/"+src, sum, "role=source") +
			"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n x\n-pay\n y\n\n" +
			section("a/"+dst, "b/"+dst, sum, "role=target") +
			"@@ -1,2 +1,3 @@ blockpatch-target id=move-1\n x\n+pay\n y\n"
	}
	tree := map[string]string{"d/f.txt": "x\ny\n", "g.txt": "x\npay\ny\n"}
	for _, tt := range []struct{ name, patch string }{
		{"clean", insert("a/d/f.txt", "b/d/f.txt")},
		{"trailing slash", insert("a/d/f.txt/", "b/d/f.txt/")},
		{"doubled slash", insert("a/d//f.txt", "b/d//f.txt")},
		{"spelled two ways", insert("a/d/f.txt", "b/d//f.txt")},
		{"missing", insert("a/d/e.txt", "b/d/e.txt")},
		{"cross-file, trailing slash", cross("g.txt/", "d/f.txt")},
		{"cross-file, doubled slash", cross("g.txt", "d//f.txt")},
		{"removal, trailing slash", section("a/g.txt/", "/dev/null", sha("x\npay\ny\n"), "") +
			"@@ -1,3 +0,0 @@ blockpatch-source id=move-1\n-x\n-pay\n-y\n"},
		{"creation, doubled slash", section("/dev/null", "b/d//new.txt", sha("new\n"), "") +
			"@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+new\n"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			mem := MapFiles{}
			for name, data := range tree {
				mem[name] = []byte(data)
			}
			memPlan, memErr := Check([]byte(tt.patch), mem, Options{Strip: 1})

			root := t.TempDir()
			writeTree(t, root, tree)
			ws, err := NewWorkspace(root)
			must(t, err)
			defer ws.Close()
			diskPlan, diskErr := Check([]byte(tt.patch), ws, Options{Strip: 1})
			if CodeOf(memErr) != CodeOf(diskErr) {
				t.Fatalf("MapFiles: %v (%s); Workspace: %v (%s)", memErr, CodeOf(memErr), diskErr, CodeOf(diskErr))
			}
			if diskErr != nil {
				return
			}
			must(t, Apply(context.Background(), ws, diskPlan))
			got := map[string]string{}
			for name, data := range mem.Apply(memPlan) {
				got[name] = string(data)
			}
			want := map[string]string{}
			for name, data := range readTree(t, root) {
				if !strings.HasSuffix(name, "/") { // folders
					want[name] = data
				}
			}
			if diff := cmp.Diff(want, got); diff != "" {
				t.Errorf("MapFiles.Apply (-Workspace +MapFiles):\n%s", diff)
			}
		})
	}
}
