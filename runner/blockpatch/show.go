package blockpatch

import (
	"fmt"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// This file renders trees for people: compared with go-cmp, with every
// byte that matters visible.

// showTree turns a tree into values go-cmp can diff readably: per path, a
// first line naming the kind (and the mode where want states it; want nil:
// everywhere), then the file's lines or the symlink's target. Folders show
// only when withDirs is set or want states them.
func showTree(t cases.Tree, want cases.Tree, withDirs bool) map[string][]string {
	out := map[string][]string{}
	for p, e := range t {
		if e.Dir && !withDirs {
			if w, ok := want[p]; !ok || !w.Dir {
				continue
			}
		}
		mode := e.Mode
		if want != nil {
			if w, ok := want[p]; !ok || w.Mode == 0 {
				mode = 0
			}
		}
		head := e.Kind()
		if mode != 0 {
			head += fmt.Sprintf(" %04o", mode)
		}
		switch e.Kind() {
		case "symlink":
			out[p] = []string{head, "-> " + runner.Visible([]byte(e.Symlink))}
		case "file":
			out[p] = append([]string{fmt.Sprintf("%s, %d bytes", head, len(e.Data))}, runner.VisibleLines(e.Data)...)
		case "dir":
			out[p] = []string{head}
			if e.Symlink != "" { // the owner of a folder around the work tree
				out[p] = append(out[p], e.Symlink)
			}
		default:
			out[p] = []string{head}
		}
	}
	return out
}

// treeDiff is a go-cmp diff (-want +got) of two trees as showTree renders
// them.
func treeDiff(want, got cases.Tree, withDirs bool) string {
	return cmp.Diff(showTree(want, nil, withDirs), showTree(got, want, withDirs))
}
