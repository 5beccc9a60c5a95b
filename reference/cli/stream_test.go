package cli

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/google/go-cmp/cmp"
)

// TestPatchOfLongLines: check and apply of a patch file whose long lines
// the file holds (read by reference.ReadPatch) print and write what they
// do for the same patch on stdin, read whole.
func TestPatchOfLongLines(t *testing.T) {
	t.Parallel()
	var line bytes.Buffer
	for i := 0; line.Len() < 6<<20; i++ {
		if i == 150000 {
			line.WriteString("BEGIN-MOVED some words END-MOVED ")
		}
		fmt.Fprintf(&line, "item%08d ", i)
	}
	start, end, before := "BEGIN-MOVED ", "END-MOVED ", "item00300000 "
	_, doc, err := reference.PlanDocument(&reference.Request{Src: "line.txt", SrcStart: &start, SrcEnd: &end, TargetBefore: &before},
		reference.MapFiles{"line.txt": line.Bytes()})
	must(t, err)
	patch := filepath.Join(t.TempDir(), "p.blockpatch")
	must(t, os.WriteFile(patch, reference.Format(doc), 0o644))
	run := func(command, input string) (stdout string, file []byte) {
		work := t.TempDir()
		must(t, os.WriteFile(filepath.Join(work, "line.txt"), line.Bytes(), 0o644))
		var out, errOut bytes.Buffer
		env := Env{Stdout: &out, Stderr: &errOut, Stdin: strings.NewReader("")}
		if input == "-" {
			f, err := os.Open(patch)
			must(t, err)
			defer f.Close()
			env.Stdin = f
		}
		if exit := Run([]string{command, input, "--cwd", work, "--json-output"}, env); exit != 0 {
			t.Fatalf("%s %s: exit %d, stderr %s", command, input, exit, errOut.String())
		}
		file, err := os.ReadFile(filepath.Join(work, "line.txt"))
		must(t, err)
		return out.String(), file
	}
	for _, command := range []string{"check", "apply"} {
		gotOut, gotFile := run(command, patch)
		wantOut, wantFile := run(command, "-")
		if diff := cmp.Diff(wantOut, gotOut); diff != "" {
			t.Errorf("%s: output (-stdin +file):\n%s", command, diff)
		}
		if !bytes.Equal(gotFile, wantFile) {
			t.Errorf("%s: the file differs from the one of the patch on stdin", command)
		}
		if command == "apply" && bytes.Equal(gotFile, line.Bytes()) {
			t.Errorf("apply left the file as it was")
		}
	}
}
