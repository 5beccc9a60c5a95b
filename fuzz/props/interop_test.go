package props

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/leanovate/gopter"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/proptest"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

// This file checks that a planned .blockpatch is an ordinary unified diff
// for every move a unified diff can say: GNU patch and git apply, given
// the rendered patch, write the bytes blockpatch apply writes.
//
// A unified diff is made of whole lines, its hunks come in file order and
// never share a line, and strict GNU patch reads missing context as a
// file edge. A blockpatch hunk is bytes: its context is the anchor the
// request gave, whatever its length, and a move may cut lines. So each
// generated move is first classified, and the moves a tool cannot read
// the way blockpatch does are counted and skipped, each kind for a reason
// given where it is recognised (unsaid for both tools, then each tool's
// refuses). Every kind skipped was seen to fail; the kinds kept were seen
// to pass over thousands of cases: cross-file moves (two ordinary
// sections), creation and removal of a file with content, CRLF and bare
// CR bytes, invalid UTF-8 outside the hunks, and a missing final newline
// shown by a marker on a hunk's last line at the end of the file.

// TestInteropGNUPatch: GNU patch -p1 --fuzz=0 applies every planned patch
// that a unified diff can say exactly as blockpatch apply does.
func TestInteropGNUPatch(t *testing.T) { interop(t, gnuPatch) }

// TestInteropGitApply: git apply applies every planned patch that a
// unified diff can say exactly as blockpatch apply does, once the blank
// line after each file header is dropped (see forGit).
func TestInteropGitApply(t *testing.T) { interop(t, gitApply) }

// foreign is a patch tool other than blockpatch.
type foreign struct {
	name string // the program looked up on PATH
	// args apply the patch file to the working directory and nothing else.
	args func(patch string) []string
	// env is the whole environment the tool runs in; dir is the sandbox.
	env func(dir string) []string
	// feed turns the rendered document into the text the tool reads.
	feed func([]byte) []byte
	// refuses names a move this tool reads otherwise than blockpatch, or "".
	refuses func(*plannedMove) string
	// offsetOK reports whether the tool may find a hunk away from the line
	// its header names; otherwise an offset is a numbering mistake.
	offsetOK func(*plannedMove) bool
}

// gnuPatch is GNU patch, strict: --fuzz=0 (every context line must match),
// --forward (never guesses that the patch is reversed), --binary (never
// strips CRs: the bytes after the prefix are the bytes of the line),
// --batch (no questions), no backup and no reject files. It finds a hunk
// from its old line number, which is exact, so an offset is a mistake.
var gnuPatch = foreign{
	name: "patch",
	args: func(patch string) []string {
		return []string{"-p1", "--fuzz=0", "--forward", "--binary", "--batch",
			"--no-backup-if-mismatch", "--reject-file=-", "-i", patch}
	},
	env: func(string) []string {
		return []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C"}
	},
	feed:     func(doc []byte) []byte { return doc },
	refuses:  gnuRefuses,
	offsetOK: func(*plannedMove) bool { return false },
}

// gitApply is git apply outside any repository, so it patches the files
// of its working directory as patch(1) does; neither the user's nor the
// system's git config is read. --unidiff-zero because a blockpatch hunk's
// context is its anchor, not a file edge: without it git pins a hunk with
// no context after it to the end of the file, as GNU patch does.
// --whitespace=nowarn keeps git from touching trailing blanks and CRs.
var gitApply = foreign{
	name: "git",
	args: func(patch string) []string {
		return []string{"apply", "-v", "-p1", "--unidiff-zero", "--whitespace=nowarn", patch}
	},
	env: func(dir string) []string {
		return []string{"PATH=" + os.Getenv("PATH"), "LC_ALL=C", "HOME=" + dir,
			"GIT_CEILING_DIRECTORIES=" + dir, "GIT_CONFIG_NOSYSTEM=1", "GIT_CONFIG_GLOBAL=/dev/null"}
	},
	feed:    forGit,
	refuses: func(*plannedMove) string { return "" },
	// git starts looking for a hunk at its new line number, counted as if
	// the hunks before it in the file had been applied. When the target
	// hunk comes first in the file but second in the patch, the source
	// hunk is looked for before the payload is inserted above it, and is
	// found exactly that many lines up.
	offsetOK: func(mv *plannedMove) bool { return mv.targetFirst() },
}

// forGit drops the blank line between each section's +++ header and its
// first hunk. blockpatch requires it; git apply only takes a --- +++ pair
// as a file header when "@@ -" follows at once, and otherwise stops with
// "patch fragment without header". Nothing else is changed.
func forGit(doc []byte) []byte {
	lines := bytes.SplitAfter(doc, []byte("\n"))
	var out []byte
	for i, l := range lines {
		if i > 0 && bytes.HasPrefix(lines[i-1], []byte("+++ ")) && string(l) == "\n" {
			continue
		}
		out = append(out, l...)
	}
	return out
}

// interopOptions are planned requests as a careful user sends them: no
// hash errors, no damage, forward, not yet applied; relocations, the point
// of blockpatch, are drawn most often.
var interopOptions = gen.Options{
	Protocols: []int{gen.ProtoRequest}, MutationRate: -1,
	NoHashErrors: true, NoStrip: true, NoReverse: true, NoDone: true, NoDryRun: true,
	Shapes: []int{gen.ShapeRelocate, gen.ShapeRelocate, gen.ShapeRelocate, gen.ShapeRelocate, gen.ShapeRelocate,
		gen.ShapeCross, gen.ShapeCross, gen.ShapeInsert, gen.ShapeDelete, gen.ShapeCreate, gen.ShapeRemove},
}

// interop is the property for one tool: plan a generated request, apply
// the rendered patch with blockpatch apply and with the tool, each on its
// own copy of the tree, and require the tool to succeed without offsets,
// to carry the payload and to leave the same files with the same bytes.
func interop(t *testing.T, tool foreign) {
	if _, err := exec.LookPath(tool.name); err != nil {
		t.Skipf("%s is not on PATH: %v", tool.name, err)
	}
	t.Parallel()
	st := &stats{}
	check(t, 300, 60, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		if sc.Patch == nil {
			st.Add("planner refused: " + planRefusal(sc.Request, sc.Files))
			return ""
		}
		mv, err := locate(sc.Patch, sc.Files)
		if err != nil {
			return failure(sc, "check refuses the planned patch: %v", err)
		}
		if why := unsaid(mv); why != "" {
			st.Add("skipped: " + why)
			return ""
		}
		if why := tool.refuses(mv); why != "" {
			st.Add("skipped: " + why)
			return ""
		}
		c, err := newInteropCase(t, sc.Files, sc.Patch)
		if err != nil {
			return "sandbox: " + err.Error()
		}
		want, err := c.reference()
		if err != nil {
			return "blockpatch apply: " + err.Error()
		}
		if want.exit != 0 {
			return failure(sc, "blockpatch apply exited %d:\n%s", want.exit, want.out)
		}
		got, err := c.run(tool, sc.Patch)
		if err != nil {
			return tool.name + ": " + err.Error()
		}
		fed := "\n" + tool.name + " read:\n" + gen.ShowText(tool.feed(sc.Patch), "  | ")
		switch {
		case got.exit != 0:
			return failure(sc, "%s exited %d:\n%s", tool.name, got.exit, got.out) + fed
		case strings.Contains(got.out, "offset") && !tool.offsetOK(mv):
			return failure(sc, "%s found a hunk away from its line number:\n%s", tool.name, got.out) + fed
		}
		if d := fstree.Diff(want.tree, got.tree); d != "" {
			return failure(sc, "%s and blockpatch apply disagree on %s:\n%s", tool.name, d, showTrees(want.tree, got.tree)) + fed
		}
		// Implied by the comparison while the reference is right, but it
		// is what a dropped target hunk looks like, so it is said outright.
		if mv.m.Target != nil && !bytes.Contains(got.tree.Files[mv.m.Dst], mv.m.Payload()) {
			return failure(sc, "%s left %s without the payload", tool.name, mv.m.Dst) + fed
		}
		st.Add(mv.kind())
		st.Add("decided")
		return ""
	}, interopScenarios())
	// Same-file relocations are where the hunks of one section must both
	// apply; a drop in them would hide a dropped target hunk.
	if want := int(8 * *proptest.Scale); !t.Failed() && st.Get("relocate") < want {
		t.Errorf("only %d same-file relocations were decided, want at least %d", st.Get("relocate"), want)
	}
}

// interopScenarios draws from interopOptions, and three times in four moves
// the payload and the target anchors to line boundaries chosen at
// random: left alone, the generator's byte offsets make most relocations
// ones that no unified diff can say, or that the planner refuses.
func interopScenarios() gopter.Gen {
	return func(gp *gopter.GenParameters) *gopter.GenResult {
		r := gen.NewRand(gp.Rng.Uint64(), 0)
		s := gen.Random(r, interopOptions)
		if r.IntN(4) != 0 {
			s = wholeLines(r, s)
		}
		return gopter.NewGenResult(s, proptest.Shrinker(gen.Shrink))
	}
}

// wholeLines puts a Spec's payload on one to three whole lines of its
// source (src_start all of it but the last byte, src_end that byte), the
// insertion point on a line start, with zero to two whole lines of
// target_before and of target_after, outside the payload, widened until
// they occur once. Payloads and anchors that occur once are what a user
// asks for and what the planner accepts.
func wholeLines(r *rand.Rand, s gen.Spec) gen.Spec {
	sc := gen.Build(s)
	m := sc.Move
	if m == nil {
		return s
	}
	// a and b are the payload's first and end line boundaries.
	a, b := -1, -1
	if m.Source != nil && m.Shape != reference.ShapeRemove {
		bs := lineBoundaries(sc.Files[m.Src])
		lines := len(bs) - 1
		if m.Shape == reference.ShapeRelocate && m.Same() {
			lines-- // leave a line to move it past
		}
		if lines < 1 {
			return s
		}
		src := sc.Files[m.Src]
		for range 5 { // a payload that occurs once, if one comes up
			a = r.IntN(lines)
			b = a + 1 + r.IntN(min(3, lines-a))
			if reference.Find(src, src[bs[a]:bs[b]]).Unique() {
				break
			}
		}
		p := bs[b] - bs[a]
		s.PS, s.PL = bs[a], p-1
		if p >= 2 {
			s.SK, s.EK = p-2, 0 // src_end is the payload's last byte
		}
	}
	if m.Target != nil && m.Shape != reference.ShapeCreate {
		bs := lineBoundaries(sc.Files[m.Dst])
		same := a >= 0 && m.Shape == reference.ShapeRelocate && m.Same()
		// In one file the insertion point is outside the payload and, if
		// there is room, a line away from it, so that the hunks do not
		// meet: the source hunk shows a line on each side of the payload.
		var far, near []int
		for i := range bs {
			switch {
			case !same || i <= a-2 || i >= b+2:
				far = append(far, i)
			case i < a || i > b:
				near = append(near, i)
			}
		}
		at := far
		if len(at) == 0 {
			at = near
		}
		if len(at) == 0 {
			return s
		}
		i := at[r.IntN(len(at))]
		lo, hi := 0, len(bs)-1 // the anchors stay within bs[lo:hi+1]
		switch {
		case same && i <= a-2:
			hi = a - 1
		case same && i < a:
			hi = a
		case same && i >= b+2:
			lo = b + 1
		case same:
			lo = b
		}
		x, y := max(lo, i-r.IntN(3)), min(hi, i+r.IntN(3))
		// Widen the anchors, a line at a time, until they occur once.
		dst := sc.Files[m.Dst]
		for (x == i && y == i || !reference.Find(dst, dst[bs[x]:bs[y]]).Unique()) && (x > lo || y < hi) {
			if y < hi && (r.IntN(2) == 0 || x == lo) {
				y++
			} else {
				x--
			}
		}
		s.IP, s.TB, s.TA = bs[i], bs[i]-bs[x], bs[y]-bs[i]
	}
	return s
}

// lineBoundaries lists the offsets of data where a line starts or ends: 0,
// every offset after a newline, and len(data).
func lineBoundaries(data []byte) []int {
	out := []int{0}
	for i, c := range data {
		if c == '\n' {
			out = append(out, i+1)
		}
	}
	if out[len(out)-1] != len(data) {
		out = append(out, len(data))
	}
	return out
}

// planRefusal is the error code the planner gives a request.
func planRefusal(request []byte, files reference.MapFiles) string {
	req, err := reference.DecodeRequest(request)
	if err == nil {
		_, err = reference.PlanRequest(req, files)
	}
	return codeOf(err)
}

// plannedMove is a planned patch with its hunks placed in the files before the
// move, as check places them.
type plannedMove struct {
	m      *reference.Move
	status reference.Status
	src    []byte // the source file
	dst    []byte // the destination file (the same one in a same-file move)
	ps, pe int    // the payload in src
	ip     int    // the insertion point in dst
}

func locate(patch []byte, files reference.MapFiles) (*plannedMove, error) {
	p, err := reference.Parse(patch)
	if err != nil {
		return nil, err
	}
	m, err := p.Resolve(1)
	if err != nil {
		return nil, err
	}
	plan, err := reference.Check(patch, files, reference.Options{Strip: 1})
	if err != nil {
		return nil, err
	}
	r := plan.Result.Moves[0]
	mv := &plannedMove{m: m, status: plan.Result.Status, src: files[m.Src], dst: files[m.Dst]}
	if r.SourceRange != nil {
		mv.ps, mv.pe = r.SourceRange.Start, r.SourceRange.End
	}
	if r.InsertIndex != nil {
		mv.ip = *r.InsertIndex
	}
	return mv, nil
}

// kind labels the move for the statistics.
func (mv *plannedMove) kind() string {
	if mv.m.Shape == reference.ShapeRelocate && !mv.m.Same() {
		return "cross-file"
	}
	return mv.m.Shape.String()
}

// sourceSpan and targetSpan are the bytes each hunk shows of the file
// before the move: context, and the payload for the source.
func (mv *plannedMove) sourceSpan() (int, int) {
	h := mv.m.Source
	return mv.ps - len(h.Before), mv.pe + len(h.After)
}

func (mv *plannedMove) targetSpan() (int, int) {
	h := mv.m.Target
	return mv.ip - len(h.Before), mv.ip + len(h.After)
}

// sameFile reports whether both hunks are in one file (one section).
func (mv *plannedMove) sameFile() bool {
	return mv.m.Shape == reference.ShapeRelocate && mv.m.Same()
}

// targetFirst reports whether, in one file, the target hunk comes before
// the source hunk, which the patch always writes first.
func (mv *plannedMove) targetFirst() bool {
	if !mv.sameFile() {
		return false
	}
	s0, _ := mv.sourceSpan()
	_, t1 := mv.targetSpan()
	return t1 <= s0
}

// unsaid names what no unified diff tool reads the way blockpatch does in
// a planned move, or "" when the move is whole lines in hunks that do not
// meet.
func unsaid(mv *plannedMove) string {
	m := mv.m
	if mv.status != reference.StatusApplied {
		// An already applied insertion renders the hunk that made the
		// file; blockpatch reports already_applied, the tools a reversed
		// or failed hunk. A no-op relocation puts the payload back beside
		// itself, so its hunks share lines (see below).
		return "not applied (" + string(mv.status) + ")"
	}
	if m.Shape == reference.ShapeCreate || m.Shape == reference.ShapeRemove {
		if len(m.Payload()) == 0 {
			// The hunk is "@@ -0,0 +0,0 @@" over one blank line: GNU patch
			// calls it malformed, git apply corrupt. A unified diff has
			// no hunk for an empty file.
			return "empty whole-file payload"
		}
		return ""
	}
	// Line tools match, remove and add whole lines. A hunk body line that
	// is part of a line in the file (a payload or anchor edge mid-line,
	// shown with a "\ No newline at end of file" marker inside the hunk
	// or, at offset 1, with no context at all) is compared with the
	// whole line and fails, or is read as a line of its own.
	if h := m.Source; h != nil {
		x, y := mv.sourceSpan()
		switch {
		case !atLineStart(mv.src, mv.ps):
			return "payload starts mid-line"
		case !atLineStart(mv.src, mv.pe) && mv.pe != len(mv.src):
			return "payload ends mid-line"
		case !atLineStart(mv.src, x) || !atLineEnd(mv.src, y):
			return "source context mid-line"
		}
	}
	if m.Target != nil {
		x, y := mv.targetSpan()
		switch {
		case !atLineStart(mv.dst, x) || !atLineEnd(mv.dst, y):
			return "anchor mid-line"
		case !atLineStart(mv.dst, mv.ip) && mv.ip != len(mv.dst):
			// target_before ends mid-line, and target_after goes on
			// with the rest of that line.
			return "insertion point mid-line"
		}
	}
	if mv.sameFile() {
		s0, s1 := mv.sourceSpan()
		t0, t1 := mv.targetSpan()
		if s0 < t1 && t0 < s1 {
			// Both hunks show the same line (the target anchor is the
			// source's context, or the payload sits next to the anchor).
			// diff would write one hunk. The tools apply hunks one after
			// the other: GNU patch has already written the shared line
			// when the second hunk needs it, and git refuses to match a
			// line the first hunk produced.
			return "hunks share a line"
		}
	}
	return ""
}

// gnuRefuses names what strict GNU patch reads otherwise in a move that a
// unified diff can say, or "".
func gnuRefuses(mv *plannedMove) string {
	if t := mv.m.Target; t != nil && mv.m.Shape != reference.ShapeCreate {
		// A marker inside the new side of a hunk joins two lines. git
		// apply builds the new side as bytes, so it continues an
		// unterminated last line with the payload, and joins a payload
		// without a final newline to the line after it, as blockpatch
		// does; GNU patch reads every body line as a line of its own
		// and rejects the hunk.
		p := t.Payload
		switch {
		case !atLineStart(mv.dst, mv.ip):
			return "GNU patch: insertion after an unterminated last line"
		case p[len(p)-1] != '\n' && mv.ip != len(mv.dst):
			return "GNU patch: payload ends mid-line"
		}
	}
	if mv.targetFirst() {
		// GNU patch applies hunks in one pass down the file; a hunk above
		// the previous one is "misordered hunks! output would be garbled".
		return "GNU patch: target hunk above the source hunk"
	}
	// With --fuzz=0, a hunk with fewer context lines after the change than
	// before it can only match at the end of the file: diff trims context
	// only there. A target hunk shows the anchors as given, so anchors of
	// two lines before and one after make such a hunk. (The mirror rule,
	// less context before, binds only a hunk at line 1, which starts the
	// file anyway.)
	for _, h := range []*reference.Hunk{mv.m.Source, mv.m.Target} {
		if h == nil || mv.m.Shape == reference.ShapeCreate || mv.m.Shape == reference.ShapeRemove {
			continue
		}
		data, y := mv.src, 0
		if h == mv.m.Source {
			_, y = mv.sourceSpan()
		} else {
			data = mv.dst
			_, y = mv.targetSpan()
		}
		if gen.BodyLines(h.After) < gen.BodyLines(h.Before) && y != len(data) {
			return "GNU patch: less context after than before, not at the end"
		}
	}
	return ""
}

// atLineStart reports whether a line can start at offset i of data.
func atLineStart(data []byte, i int) bool { return i == 0 || i <= len(data) && data[i-1] == '\n' }

// atLineEnd reports whether a line can end at offset i of data.
func atLineEnd(data []byte, i int) bool { return i == len(data) || atLineStart(data, i) }

// applyResult is what one tool left in its copy of the tree.
type applyResult struct {
	exit int
	out  string
	tree fstree.Tree
}

// interopCase is a scenario laid out for the tools: the patch file, and
// one fresh copy of the tree per tool.
type interopCase struct {
	dir   string
	patch string
	files reference.MapFiles
}

func newInteropCase(t *testing.T, files reference.MapFiles, patch []byte) (*interopCase, error) {
	dir, err := os.MkdirTemp(t.TempDir(), "interop")
	if err != nil {
		return nil, err
	}
	c := &interopCase{dir: dir, patch: filepath.Join(dir, "move.blockpatch"), files: files}
	return c, os.WriteFile(c.patch, patch, 0o644)
}

// copyFor writes a fresh copy of the tree for one tool.
func (c *interopCase) copyFor(name string) (string, error) {
	work := filepath.Join(c.dir, name)
	if err := os.Mkdir(work, 0o755); err != nil {
		return "", err
	}
	return work, fstree.Write(work, c.files)
}

// reference applies the patch with blockpatch apply, in process.
func (c *interopCase) reference() (applyResult, error) {
	work, err := c.copyFor("blockpatch")
	if err != nil {
		return applyResult{}, err
	}
	var stdout, stderr bytes.Buffer
	exit := cli.Run([]string{"apply", c.patch, "--cwd", work}, cli.Env{Stdout: &stdout, Stderr: &stderr, Dir: c.dir})
	tree, err := fstree.Read(work)
	return applyResult{exit: exit, out: stdout.String() + stderr.String(), tree: tree}, err
}

// run applies the patch with a foreign tool.
func (c *interopCase) run(tool foreign, doc []byte) (applyResult, error) {
	work, err := c.copyFor(tool.name)
	if err != nil {
		return applyResult{}, err
	}
	patch := filepath.Join(c.dir, tool.name+".patch")
	if err := os.WriteFile(patch, tool.feed(doc), 0o644); err != nil {
		return applyResult{}, err
	}
	cmd := exec.Command(tool.name, tool.args(patch)...)
	cmd.Dir, cmd.Env = work, tool.env(c.dir)
	out, err := cmd.CombinedOutput()
	a := applyResult{out: string(out)}
	if x, ok := err.(*exec.ExitError); ok {
		a.exit = x.ExitCode()
	} else if err != nil {
		return a, err
	}
	a.tree, err = fstree.Read(work)
	return a, err
}

func showTrees(want, got fstree.Tree) string {
	var b strings.Builder
	for _, p := range union(want.Files, got.Files) {
		fmt.Fprintf(&b, "  %s: blockpatch %q, tool %q\n", p, want.Files[p], got.Files[p])
	}
	return b.String()
}
