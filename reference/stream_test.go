package reference

import (
	"bytes"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"testing"
	"time"
	"unsafe"

	"github.com/google/go-cmp/cmp"
	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"
)

// sameBytesOpt compares byte slices as bytes.Equal does, nil apart from
// empty: cmp's own comparison goes a byte at a time, for megabytes.
var sameBytesOpt = cmp.Comparer(func(a, b []byte) bool { return bytes.Equal(a, b) && (a == nil) == (b == nil) })

// oneLineFile is a file of one line of about size bytes, as the one-line
// benchmark shape makes it, with a block to move a third of the way in.
func oneLineFile(size int, eol string) []byte {
	var b bytes.Buffer
	n := size / len("item00000000 ")
	for i := 0; b.Len() < size; i++ {
		if i == n/3 {
			b.WriteString("BEGIN-MOVED some words that move END-MOVED ")
		}
		fmt.Fprintf(&b, "item%08d ", i)
		if eol != "" && i%(n/2) == n/2-1 {
			b.WriteString(eol)
		}
	}
	return b.Bytes()
}

// plannedPatch is the patch the planner writes for moving the block of
// oneLineFile past the item at two thirds.
func plannedPatch(t *testing.T, files MapFiles, path string, size int) []byte {
	t.Helper()
	start, end := "BEGIN-MOVED ", "END-MOVED "
	before := fmt.Sprintf("item%08d ", 2*(size/len("item00000000 "))/3)
	_, doc, err := PlanDocument(&Request{Src: path, SrcStart: &start, SrcEnd: &end, TargetBefore: &before}, files)
	if err != nil {
		t.Fatal(err)
	}
	return Format(doc)
}

// within returns f's result, failing t if f runs longer than d: a stream
// that stops making progress fails its test in seconds.
func within[T any](t testing.TB, d time.Duration, f func() T) T {
	t.Helper()
	done := make(chan T, 1)
	go func() { done <- f() }()
	select {
	case v := <-done:
		return v
	case <-time.After(d):
		t.Fatalf("still running after %v", d)
		panic("unreachable")
	}
}

// readPatchFile writes text to a file and reads it back with ReadPatch,
// with a limit of 16 times the text.
func readPatchFile(t *testing.T, text []byte, files Files, strip int) *Input {
	t.Helper()
	name := filepath.Join(t.TempDir(), "p.blockpatch")
	if err := os.WriteFile(name, text, 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	type read struct {
		in  *Input
		err error
	}
	r := within(t, 30*time.Second, func() read {
		in, err := ReadPatch(f, 16*int64(len(text)), "p.blockpatch", files, strip)
		return read{in, err}
	})
	if r.err != nil {
		t.Fatal(r.err)
	}
	t.Cleanup(func() { r.in.Release() })
	return r.in
}

// replaceLine returns text with its line starting with prefix replaced.
func replaceLine(t *testing.T, text []byte, prefix, line string) []byte {
	t.Helper()
	i := bytes.Index(text, []byte("\n"+prefix))
	if i < 0 {
		t.Fatalf("no line starts with %q", prefix)
	}
	return append(append(bytes.Clone(text[:i+1]), line...), text[lineEnd(text, i+1)-1:]...)
}

// TestReadPatchParsesAsWhole: a patch read by ReadPatch parses as Parse
// parses its bytes, whichever of its long lines a file holds: the patch,
// or the error, is the same, and the lines found are left out of memory.
func TestReadPatchParsesAsWhole(t *testing.T) {
	t.Parallel()
	const size = 6 << 20
	line := oneLineFile(size, "")
	lines := oneLineFile(size, "\n")
	crlf := oneLineFile(size, "\r\n")
	planned := plannedPatch(t, MapFiles{"f": line}, "f", size)
	withNewlines := plannedPatch(t, MapFiles{"f": lines}, "f", size)
	n := size / len("item00000000 ")
	item := func(i int) []byte { return fmt.Appendf(nil, "item%08d ", i) }
	longPath := "--- a/" + strings.Repeat("p", 2*longLine)
	longBlock := bytes.Replace(line, []byte("some words that move"), bytes.Repeat([]byte("w"), 3*longLine), 1)
	remove := ModeRemoveFile
	devNull := DevNull
	_, removal, err := PlanDocument(&Request{Src: "f", Dst: &devNull, Mode: &remove}, MapFiles{"f": line})
	if err != nil {
		t.Fatal(err)
	}
	// Each of the one-line patch's long lines is followed by a marker; the
	// first (a third of the file) ends at the block, the second (two
	// thirds) at the file's end, the third (a third) at the file's end.
	tests := []struct {
		name  string
		files MapFiles
		text  []byte
		strip int
		holes int // lines left out
	}{
		{"one line, markers after each long line", MapFiles{"f": line}, planned, 1, 3},
		{"long lines ending in newlines", MapFiles{"f": lines}, withNewlines, 1, 3},
		{"CRLF lines", MapFiles{"f": crlf}, plannedPatch(t, MapFiles{"f": crlf}, "f", size), 1, 3},
		{"no file at the stripped path", MapFiles{"f": line}, planned, 0, 0},
		{"a file other than the one named", MapFiles{"f": bytes.ToUpper(line)}, planned, 1, 0},
		{"a long line changed in its middle", MapFiles{"f": line},
			bytes.Replace(planned, item(n/2), []byte("changed!    "), 1), 1, 2},
		{"a long line changed at its end", MapFiles{"f": line},
			bytes.Replace(planned, append(item(n/3-1), '\n'), []byte("item-changed\n"), 1), 1, 2},
		{"a long line longer than the file", MapFiles{"f": line[:size/2]}, planned, 1, 1},
		{"a long line at a header's place", MapFiles{"f": line}, replaceLine(t, planned, "--- ", longPath), 1, 3},
		{"a long line whose newline the file lacks in place of a hunk header", MapFiles{"f": line},
			bytes.Replace(planned, []byte("\n@@ -1,3"), append(append([]byte("\n "), line[:2*longLine]...), "\n@@ -1,3"...), 1), 1, 3},
		{"a long body line in place of a hunk header", MapFiles{"f": line},
			bytes.Replace(planned, []byte("\n@@ -1,3"), append(append([]byte("\n "), line[:2*longLine]...), "\n\\ No newline at end of file\n@@ -1,3"...), 1), 1, 4},
		{"the patch ends in a long line", MapFiles{"f": line}, bytes.TrimSuffix(planned, []byte("\n\\ No newline at end of file\n")), 1, 3},
		{"the last long line ends in a newline the file lacks", MapFiles{"f": line},
			bytes.TrimSuffix(planned, []byte("\\ No newline at end of file\n")), 1, 2},
		{"the patch ends in a marker without its newline", MapFiles{"f": line}, bytes.TrimSuffix(planned, []byte("\n")), 1, 3},
		{"a long block moved", MapFiles{"f": longBlock}, plannedPatch(t, MapFiles{"f": longBlock}, "f", size), 1, 5},
		{"the file removed, one long line", MapFiles{"f": line}, Format(removal), 1, 1},
		{"a count beyond the patch", MapFiles{"f": line}, bytes.Replace(planned, []byte("@@ -1,3 +1,2 @@"), []byte("@@ -1,99999999 +1,2 @@"), 1), 1, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := readPatchFile(t, tt.text, tt.files, tt.strip)
			if got := len(in.holes); got != tt.holes {
				t.Errorf("%d lines left out, want %d", got, tt.holes)
			}
			if kept := len(in.Bytes()); tt.holes > 0 && kept > len(tt.text)-tt.holes*longLine {
				t.Errorf("%d bytes of %d kept with %d lines left out", kept, len(tt.text), tt.holes)
			}
			parsesAsWhole(t, in, tt.text)
		})
	}
}

// parsesAsWhole fails t unless in parses as Parse parses text, to the
// same patch or error, and without being parsed again whole when text
// parses (the text with its holes left out then parses too); it returns
// the patch.
func parsesAsWhole(t *testing.T, in *Input, text []byte) *Patch {
	t.Helper()
	out := in.holes
	got, gotErr := in.Parse(0)
	want, wantErr := Parse(text)
	if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(gotErr)); diff != "" {
		t.Fatalf("error (-Parse +Input.Parse):\n%s", diff)
	}
	if diff := cmp.Diff(want, got, sameBytesOpt); diff != "" {
		t.Errorf("patch (-Parse +Input.Parse):\n%s", diff)
	}
	if wantErr == nil && len(in.holes) == 0 && len(out) > 0 {
		t.Errorf("parsed again whole: the text without its holes gave an error")
	}
	return got
}

// TestReadPatchChecksAsWhole: check and apply of a patch read by
// ReadPatch from a workspace give the plan Check gives of its bytes, and
// the workspace reads the file once.
func TestReadPatchChecksAsWhole(t *testing.T) {
	t.Parallel()
	const size = 5 << 20
	root := t.TempDir()
	line := oneLineFile(size, "")
	writeTree(t, root, map[string]string{"line.txt": string(line)})
	text := plannedPatch(t, MapFiles{"line.txt": line}, "line.txt", size)
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	in := readPatchFile(t, text, ws, 1)
	if len(in.holes) != 3 {
		t.Fatalf("%d lines left out, want 3", len(in.holes))
	}
	got, err := CheckInput(in, ws, Options{Strip: 1})
	if err != nil {
		t.Fatal(err)
	}
	if len(ws.maps) != 1 {
		t.Errorf("the file was mapped %d times, want once", len(ws.maps))
	}
	want, err := Check(text, MapFiles{"line.txt": line}, Options{Strip: 1})
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Result, got.Result); diff != "" {
		t.Errorf("result (-Check +CheckInput):\n%s", diff)
	}
	if len(got.Changes) != 1 || !bytes.Equal(got.Changes[0].Bytes(), want.Changes[0].Bytes()) {
		t.Errorf("the change differs from Check's")
	}
}

// TestReadPatchFromWhereTheFileStands: a patch file already read in part
// is streamed from where it stands, as ReadLimited would read it.
func TestReadPatchFromWhereTheFileStands(t *testing.T) {
	t.Parallel()
	const size = 5 << 20
	line := oneLineFile(size, "")
	text := plannedPatch(t, MapFiles{"f": line}, "f", size)
	name := filepath.Join(t.TempDir(), "p.blockpatch")
	if err := os.WriteFile(name, append([]byte("read already\n"), text...), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if _, err := f.Seek(int64(len("read already\n")), io.SeekStart); err != nil {
		t.Fatal(err)
	}
	in, err := ReadPatch(f, 16*int64(len(text)), "p.blockpatch", MapFiles{"f": line}, 1)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	if len(in.holes) != 3 {
		t.Errorf("%d lines left out, want 3", len(in.holes))
	}
	parsesAsWhole(t, in, text)
}

// TestReadPatchRecurringLine: a long line whose first bytes recur in its
// file before the place that holds it whole is found there, and one that
// no place holds whole is kept, in time linear in the file (the searches'
// budget).
func TestReadPatchRecurringLine(t *testing.T) {
	t.Parallel()
	// The line's first longLine bytes recur at the file's first 5 bytes.
	run := bytes.Repeat([]byte("a"), longLine)
	file := append(append(bytes.Clone(run), "aaaaXY"...), bytes.Repeat([]byte("b"), streamMin)...)
	header := "diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=m payload-sha256=" + sha("") + "\n--- a/f\n+++ b/f\n\n"
	found := header + "@@ -1,2 +1,1 @@ blockpatch-source id=m\n " + string(run) + "XY" + strings.Repeat("b", streamMin) + "\n\\ No newline at end of file\n-Z\n"
	missing := header + "@@ -1,2 +1,1 @@ blockpatch-source id=m\n " + string(run) + "XZ" + strings.Repeat("b", streamMin) + "\n\\ No newline at end of file\n-Z\n"
	for _, tt := range []struct {
		name  string
		text  string
		holes int
	}{{"found", found, 1}, {"missing", missing, 0}} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in := readPatchFile(t, []byte(tt.text), MapFiles{"f": file}, 1)
			if len(in.holes) != tt.holes {
				t.Fatalf("%d lines left out, want %d", len(in.holes), tt.holes)
			}
			got, gotErr := in.Parse(0)
			want, wantErr := Parse([]byte(tt.text))
			if gotErr != nil || wantErr != nil {
				t.Fatal(gotErr, wantErr)
			}
			if diff := cmp.Diff(want, got, sameBytesOpt); diff != "" {
				t.Errorf("patch (-Parse +Input.Parse):\n%s", diff)
			}
		})
	}
}

// TestReadPatchHeldLineEndsAtItsNewline: a long line its file holds is
// passed a stretch at a time past the window (skipHeld), and ends at its
// newline even where the patch's bytes after it are the file's too: a line
// of spaces has the prefix of a context line.
func TestReadPatchHeldLineEndsAtItsNewline(t *testing.T) {
	t.Parallel()
	const long, window = 16, 64
	as, spaces := strings.Repeat("a", 20*window), strings.Repeat(" ", 20*window)
	file := as + "\n" + spaces + "\n" + "b\n"
	text := "diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=m payload-sha256=" + sha("b\n") +
		"\n--- a/f\n+++ b/f\n\n@@ -1,3 +1,2 @@ blockpatch-source id=m\n " + as + "\n " + spaces + "\n-b\n"
	in, err := readPatch(strings.NewReader(text), int64(len(text)+1), DefaultInputLimit, "p", MapFiles{"f": []byte(file)}, 1, long, window)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	if len(in.holes) != 2 {
		t.Errorf("%d lines left out, want 2", len(in.holes))
	}
	parsesAsWhole(t, in, []byte(text))
}

// TestSkipHeld: the stretches passed beyond the window are the whole ones
// before the first that differs from the file, holds a newline (at any
// of its bytes), or runs past the patch's end; a stretch is compared with
// the file at its own place, not one that repeats elsewhere in the file.
func TestSkipHeld(t *testing.T) {
	t.Parallel()
	const window, stretch, from = 64, 16, 40
	rng := rand.New(rand.NewPCG(23, 12))
	src := make([]byte, from+6*stretch+4)
	for i := range src {
		src[i] = "abcdefgh"[rng.IntN(8)]
	}
	skip := func(patch, src []byte) int {
		s := &patchStream{at: bytes.NewReader(patch), win: make([]byte, window)}
		return s.skipHeld(src, from)
	}
	held := src[from:]
	if got := skip(held, src); got != 6*stretch {
		t.Errorf("the file's bytes: passed %d, want %d", got, 6*stretch)
	}
	for j := range 6 {
		changed := bytes.Clone(held)
		changed[j*stretch+5] ^= 1
		if got := skip(changed, src); got != j*stretch {
			t.Errorf("a byte changed in stretch %d: passed %d, want %d", j, got, j*stretch)
		}
		if got := skip(held[:j*stretch+7], src); got != j*stretch {
			t.Errorf("the patch ending in stretch %d: passed %d, want %d", j, got, j*stretch)
		}
	}
	for at := range stretch {
		withNewline := bytes.Clone(src)
		withNewline[from+2*stretch+at] = '\n'
		if got := skip(withNewline[from:], withNewline); got != 2*stretch {
			t.Errorf("a newline at byte %d of stretch 2: passed %d, want %d", at, got, 2*stretch)
		}
	}
	// Stretches 1 and 2 hold the file's bytes from one and two stretches
	// before the place, not at it.
	elsewhere := slices.Concat(src[from:from+stretch], src[from-stretch:from], src[from-2*stretch:from-stretch], src[from+3*stretch:])
	if got := skip(elsewhere, src); got != stretch {
		t.Errorf("the file's bytes from elsewhere: passed %d, want %d", got, stretch)
	}
}

// TestLineCandidatesSearch: the search for a long line's first bytes
// finds their first occurrence from where it starts, in the piece it
// searches alone or in the pieces both cores search, at and either side
// of where the pieces meet, with a later occurrence in another piece.
func TestLineCandidatesSearch(t *testing.T) {
	t.Parallel()
	src := bytes.Repeat([]byte("abcdefgh"), (4*searchPiece+100)/8)
	probe := []byte("0123456789")
	for _, at := range []int{0, searchPiece - 1, searchPiece, searchPiece + 1, 2*searchPiece - 1, 2*searchPiece + 6, 2*searchPiece + 7, 3*searchPiece - 5, len(src) - len(probe)} {
		for _, from := range []int{0, 7} {
			data := bytes.Clone(src)
			copy(data[at:], probe)
			if later := at + searchPiece + 3; later+len(probe) <= len(data) {
				copy(data[later:], probe)
			}
			s := &patchStream{}
			c := s.candidates(data, probe)
			got, _ := c.search(from, len(data)-len(probe)+1)
			want := bytes.Index(data[from:], probe)
			if want >= 0 {
				want += from
			}
			if got != want {
				t.Errorf("probe at %d, searched from %d: found at %d, want %d", at, from, got, want)
			}
		}
	}
	s := &patchStream{}
	if got, _ := s.candidates(src, probe).search(0, len(src)); got != -1 {
		t.Errorf("no probe: found at %d", got)
	}
}

// TestHeldLines: the lines of a window compared by halves at once are
// those one pass takes, wherever the first line the file does not hold,
// a line of another prefix or an empty line lies, on either side of the
// cut between the halves and right at it.
func TestHeldLines(t *testing.T) {
	t.Parallel()
	s := &patchStream{long: 4}
	for count := 20; count < 60; count++ {
		var src, w []byte
		for i := range count {
			line := fmt.Appendf(nil, "line %d%s\n", i, strings.Repeat("x", i%3))
			src = append(src, line...)
			w = append(append(w, '-'), line...)
		}
		for at := 0; at < len(w); at += bytes.IndexByte(w[at:], '\n') + 1 {
			for _, change := range []struct {
				name string
				edit func(w []byte, at int) []byte
			}{
				{"as is", func(w []byte, _ int) []byte { return w }},
				{"a byte changed", func(w []byte, at int) []byte { w[at+2] ^= 1; return w }},
				{"another prefix", func(w []byte, at int) []byte { w[at] = '+'; return w }},
				{"an empty line", func(w []byte, at int) []byte { return slices.Insert(w, at, '\n') }},
				{"cut short", func(w []byte, at int) []byte { return w[:at+3] }},
			} {
				edited := change.edit(bytes.Clone(w), at)
				one := newCursor(src, 0, bufferedMax)
				n, k, lines, ended := linesHeld(&one, edited, '-', 0)
				n2, k2, lines2, ended2 := s.heldLines(src, edited, '-', 0)
				if n != n2 || k != k2 || lines != lines2 || ended != ended2 {
					t.Errorf("%d lines, %s at %d: by halves %d, %d, %d, %v; in one pass %d, %d, %d, %v",
						count, change.name, at, n2, k2, lines2, ended2, n, k, lines, ended)
				}
			}
		}
	}
}

// streamCase is what gopter generates for TestReadPatchProperty: a file
// of tokens, where the hunks cut it, the thresholds to read with, and
// bytes of the patch to change.
type streamCase struct {
	File                []int
	A, B, C, D, E, F    int // cuts: the source hunk's parts, the target's anchor
	Target              bool
	Long, Window, Strip int
	Edits               []int
	Edit                int // how many of Edits to make: none from 4 on
	Size                int // the room first reserved for the text kept, less than the patch or more
}

// streamTokens make files of lines short and long against thresholds of
// 4 to 40 bytes, with CR, multibyte text and no-newline endings.
var streamTokens = []string{"a", "aaaaaaaa", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbb", "é", "\r", "\n", "\n", " ", "-", "+", "\\", "x"}

// TestReadPatchProperty: patches of random files, some of their bytes
// changed, read with small thresholds and windows (every boundary a line
// can meet: a window's end inside a line, its newline or the marker after
// it), parse as Parse parses their bytes, to the same patch or error.
func TestReadPatchProperty(t *testing.T) {
	t.Parallel()
	params := gopter.DefaultTestParametersWithSeed(*propSeed)
	params.MinSuccessfulTests = 3000
	holes, runs := 0, 0
	props := gopter.NewProperties(params)
	props.Property("Input.Parse is Parse of the bytes", prop.ForAll(func(c streamCase) string {
		file, _, text := c.patch()
		long := 4 + c.Long%37
		window := max(2*long+1, len(NoNewlineMarker)+2) + c.Window%64
		type parsed struct {
			in  *Input
			p   *Patch
			err error
		}
		r := within(t, 10*time.Second, func() parsed {
			in, err := readPatch(bytes.NewReader(text), int64(c.Size%(2*len(text))+1), 16*int64(len(text)), "p", MapFiles{"f": file}, c.Strip%2, long, window)
			if err != nil {
				return parsed{err: fmt.Errorf("readPatch: %w", err)}
			}
			holes += len(in.holes)
			for _, h := range in.holes {
				runs += min(h.run, 1)
			}
			p, err := in.Parse(0)
			return parsed{in, p, err}
		})
		if r.in != nil {
			defer r.in.Release()
		}
		got, gotErr := r.p, r.err
		want, wantErr := Parse(text)
		if fmt.Sprint(gotErr) != fmt.Sprint(wantErr) {
			return fmt.Sprintf("error %v, Parse's %v", gotErr, wantErr)
		}
		return cmp.Diff(want, got, sameBytesOpt)
	}, streamCases()))
	props.TestingRun(t)
	if holes == 0 || runs == 0 {
		t.Errorf("%d lines left out in %d cases, %d of them runs", holes, params.MinSuccessfulTests, runs)
	}
	t.Logf("%d lines left out in %d cases, %d of them runs", holes, params.MinSuccessfulTests, runs)
}

// streamCases generates streamCase values.
func streamCases() gopter.Gen {
	token := gen.IntRange(0, len(streamTokens)-1)
	cut := gen.IntRange(0, 1<<16)
	return gen.Struct(reflect.TypeOf(streamCase{}), map[string]gopter.Gen{
		"File": gen.SliceOf(token), "A": cut, "B": cut, "C": cut, "D": cut, "E": cut, "F": cut,
		"Target": gen.Bool(), "Long": gen.IntRange(0, 1000), "Window": gen.IntRange(0, 1000), "Strip": gen.IntRange(0, 9),
		"Edits": gen.SliceOfN(3, gen.IntRange(0, 1<<20)), "Edit": gen.IntRange(0, 7), "Size": gen.IntRange(0, 1<<20),
	})
}

// patch returns c's file, the payload its source hunk moves, and the
// patch's text with c's edits made: the source hunk cuts the file at A to
// D, the target hunk (when Target) at E and F.
func (c streamCase) patch() (file, payload, text []byte) {
	file = []byte(joinStreamTokens(c.File))
	at := func(i int) int { return i % (len(file) + 1) }
	cuts := []int{at(c.A), at(c.B), at(c.C), at(c.D)}
	slices.Sort(cuts)
	payload = file[cuts[1]:cuts[2]]
	p := &Patch{ID: "m", PayloadSHA256: sha(string(payload)), Sections: []*Section{{OldPath: "a/f", NewPath: "b/f",
		Hunks: []*Hunk{{Role: RoleSource, Before: file[cuts[0]:cuts[1]], Payload: payload, After: file[cuts[2]:cuts[3]]}}}}}
	if c.Target {
		e, f := min(at(c.E), at(c.F)), max(at(c.E), at(c.F))
		p.Sections[0].Hunks = append(p.Sections[0].Hunks, &Hunk{Role: RoleTarget, Before: file[e:f], Payload: payload, After: file[f:]})
	}
	text = Format(p)
	for _, e := range c.Edits[:min(c.edits(), len(c.Edits))] {
		text[e%len(text)] = "x\n \\-+@"[e%7]
	}
	return file, payload, text
}

// edits is how many of c.Edits patch makes: none for Edit from 4 on.
func (c streamCase) edits() int {
	if c.Edit > 3 {
		return 0
	}
	return c.Edit
}

func joinStreamTokens(ts []int) string {
	var b strings.Builder
	for _, t := range ts {
		b.WriteString(streamTokens[t])
	}
	return b.String()
}

// TestReadPatchReadsWhole: a patch that is not a file, a file under
// streamMin, and one above the limit are read as ReadLimited reads them:
// whole, or refused.
func TestReadPatchReadsWhole(t *testing.T) {
	t.Parallel()
	line := oneLineFile(1<<20, "")
	files := MapFiles{"f": line}
	text := plannedPatch(t, files, "f", 1<<20)
	in, err := ReadPatch(bytes.NewReader(text), DefaultInputLimit, "p", files, 1)
	if err != nil || len(in.holes) != 0 || !bytes.Equal(in.Bytes(), text) {
		t.Errorf("a reader: %d lines left out, %d of %d bytes kept, %v", len(in.holes), len(in.Bytes()), len(text), err)
	}
	if in := readPatchFile(t, text, files, 1); len(in.holes) != 0 || !bytes.Equal(in.Bytes(), text) {
		t.Errorf("a file under streamMin: %d lines left out, %d of %d bytes kept", len(in.holes), len(in.Bytes()), len(text))
	}
	name := filepath.Join(t.TempDir(), "p.blockpatch")
	if err := os.WriteFile(name, bytes.Repeat([]byte("x"), streamMin), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	_, err = ReadPatch(f, streamMin-1, "p", files, 1)
	wantCode(t, err, IOError)
}

// TestReadPatchLimit: a stream is refused with io_error once more bytes
// than the limit came, and read when it holds the limit exactly.
func TestReadPatchLimit(t *testing.T) {
	t.Parallel()
	line := oneLineFile(1<<20, "")
	files := MapFiles{"f": line}
	text := plannedPatch(t, files, "f", 1<<20)
	_, err := readPatch(bytes.NewReader(text), int64(len(text)), int64(len(text)-1), "p", files, 1, longLine, streamWindow)
	wantCode(t, err, IOError)
	in, err := readPatch(bytes.NewReader(text), int64(len(text)), int64(len(text)), "p", files, 1, longLine, streamWindow)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	if len(in.holes) != 3 {
		t.Errorf("%d lines left out, want 3", len(in.holes))
	}
}

// TestInputParseGivesTheWholeTextsError: a patch whose one long line, left
// out, stands where a hunk header must: the error quotes the line as the
// whole text has it.
func TestInputParseGivesTheWholeTextsError(t *testing.T) {
	t.Parallel()
	file := []byte(strings.Repeat("abcdefgh", 8))
	text := []byte("diff --blockpatch a/f b/f\nblockpatch version 1\nblockpatch move id=m payload-sha256=" + sha("") +
		"\n--- a/f\n+++ b/f\n\n " + string(file) + "\n\\ No newline at end of file\n")
	in, err := readPatch(bytes.NewReader(text), int64(len(text)), DefaultInputLimit, "p", MapFiles{"f": file}, 1, 16, 64)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	if len(in.holes) != 1 {
		t.Fatalf("%d lines left out, want 1", len(in.holes))
	}
	_, got := in.Parse(0)
	_, want := Parse(text)
	if fmt.Sprint(got) != fmt.Sprint(want) || want == nil {
		t.Errorf("error %v, want %v", got, want)
	}
}

// TestInputParseInPlace: Input.Parse, joining the lines of a part where
// they lie in the input's memory, gives the patch or the error Parse
// gives for a copy of the bytes, and the same again when asked again;
// a payload of many lines lies in the input's memory.
func TestInputParseInPlace(t *testing.T) {
	t.Parallel()
	params := gopter.DefaultTestParametersWithSeed(*propSeed)
	params.MinSuccessfulTests = 3000
	inPlace := 0
	props := gopter.NewProperties(params)
	props.Property("Input.Parse is Parse of a copy", prop.ForAll(func(c streamCase) string {
		_, payload, text := c.patch()
		in, err := ReadLimited(bytes.NewReader(text), 1<<30, "p")
		if err != nil {
			return err.Error()
		}
		defer in.Release()
		got, gotErr := in.Parse(0)
		again, againErr := in.Parse(0)
		want, wantErr := Parse(slices.Clone(text))
		switch {
		case fmt.Sprint(gotErr) != fmt.Sprint(wantErr):
			return fmt.Sprintf("error %v, Parse's %v", gotErr, wantErr)
		case again != got || againErr != gotErr:
			return "a second Parse gave another patch"
		case gotErr != nil:
			return ""
		}
		if mem := in.mem.bytes(); c.edits() == 0 && bytes.Count(payload, newline) > 1 {
			at := uintptr(unsafe.Pointer(&got.Sections[0].Hunks[0].Payload[0]))
			if lo := uintptr(unsafe.Pointer(&mem[0])); at < lo || at >= lo+uintptr(len(mem)) {
				return "a payload of many lines copied out of the input"
			}
			inPlace++
		}
		return cmp.Diff(want, got, sameBytesOpt)
	}, streamCases()))
	props.TestingRun(t)
	if inPlace == 0 {
		t.Errorf("no payload of many lines was joined in place in %d cases", params.MinSuccessfulTests)
	}
}

// logFile is a file of n log lines, each ending in eol, as the block
// benchmark shape makes them.
func logFile(n int, eol string) []byte {
	var b bytes.Buffer
	for i := range n {
		fmt.Fprintf(&b, "2026-12-03 INFO api/server.go:214 request served id=%08d%s", i, eol)
	}
	return b.Bytes()
}

// movedBlock is the patch the planner writes for moving the lines of
// logFile(n) from a quarter to a half before the line at three quarters
// of dst, or of src when dst is "".
func movedBlock(t *testing.T, files MapFiles, src, dst string, n int, eol string) []byte {
	t.Helper()
	line := func(i int) *string {
		s := fmt.Sprintf("request served id=%08d%s", i, eol)
		return &s
	}
	req := &Request{Src: src, SrcStart: line(n / 4), SrcEnd: line(n / 2), TargetBefore: line(3 * n / 4)}
	if dst != "" {
		req.Dst = &dst
	}
	_, doc, err := PlanDocument(req, files)
	if err != nil {
		t.Fatal(err)
	}
	return Format(doc)
}

// TestReadPatchRuns: the runs of body lines of a patch moving a block of
// short lines are left out of memory where a file holds them, as far as it
// does, and the patch parses as Parse parses its bytes; a payload left out
// whole is a slice of its file.
func TestReadPatchRuns(t *testing.T) {
	t.Parallel()
	const n = 40000 // 2.4 MB, a block of 600 KB
	file := logFile(n, "\n")
	crlf := logFile(n, "\r\n")
	other := bytes.ReplaceAll(file, []byte("INFO"), []byte("WARN")) // holds no line of file
	planned := movedBlock(t, MapFiles{"f": file}, "f", "", n, "\n")
	changed := bytes.Replace(planned, []byte("-2026-12-03 INFO api/server.go:214 request served id=00015000\n"),
		[]byte("-2026-12-03 INFO api/server.go:214 request served id=0001500X\n"), 1)
	// The block at the file's end, whose last line lacks a newline there:
	// its last payload line is followed by a marker in both hunks.
	short := file[:bytes.Index(file, []byte("id=00020000"))]
	short = short[:bytes.LastIndexByte(short, '\n')]
	last := string(short[bytes.LastIndexByte(short, '\n')+1:])
	start, before := "request served id=00005000\n", "request served id=00002000\n"
	_, atEnd, err := PlanDocument(&Request{Src: "f", SrcStart: &start, SrcEnd: &last, TargetBefore: &before}, MapFiles{"f": short})
	if err != nil {
		t.Fatal(err)
	}
	// A hunk counting fewer lines than the run holds: the rest of it is
	// not the hunk's, and the whole text decides.
	miscounted := regexp.MustCompile(`@@ -(\d+),\d+ `).ReplaceAll(planned, []byte("@@ -$1,5000 "))
	// The source payload's lines changed, so that no file holds them, and
	// then a line of theirs longer than the window.
	payload := regexp.MustCompile(`(?m)^-2026-12-03 INFO`).ReplaceAll(planned, []byte("-2026-12-03 WARN"))
	longer := bytes.Replace(payload, []byte("\n @@"), []byte("\n-"+strings.Repeat("x", 2*streamWindow)+"\n @@"), 1)
	if bytes.Equal(longer, payload) {
		longer = bytes.Replace(payload, []byte("\n+"), []byte("\n-"+strings.Repeat("x", 2*streamWindow)+"\n+"), 1)
	}
	tests := []struct {
		name  string
		files MapFiles
		text  []byte
		runs  int  // runs left out
		whole bool // the payloads lie in the file
	}{
		{"a block moved within its file", MapFiles{"f": file}, planned, 2, true},
		{"a block moved to another file", MapFiles{"f": file, "g": other},
			movedBlock(t, MapFiles{"f": file, "g": other}, "f", "g", n, "\n"), 2, true},
		{"CRLF lines", MapFiles{"f": crlf}, movedBlock(t, MapFiles{"f": crlf}, "f", "", n, "\r\n"), 2, true},
		{"a line the file does not hold", MapFiles{"f": file}, changed, 3, false},
		{"a file that holds no run", MapFiles{"f": crlf}, planned, 0, false},
		{"no file at the path", MapFiles{"g": file}, planned, 0, false},
		{"the block at the file's end", MapFiles{"f": short}, Format(atEnd), 2, false},
		{"a hunk shorter than its run", MapFiles{"f": file}, miscounted, 2, false},
		{"a run no file holds, then a line longer than the window", MapFiles{"f": file}, longer, 1, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			type read struct {
				in  *Input
				err error
			}
			r := within(t, 30*time.Second, func() read {
				in, err := readPatch(bytes.NewReader(tt.text), int64(len(tt.text)), DefaultInputLimit, "p", tt.files, 1, longLine, streamWindow)
				return read{in, err}
			})
			in, err := r.in, r.err
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			runs, left := 0, 0
			for _, h := range in.holes {
				if h.run > 0 {
					runs++
					left += len(h.line) + h.run
				}
			}
			if runs != tt.runs {
				t.Errorf("%d runs left out, want %d", runs, tt.runs)
			}
			if kept := len(in.Bytes()) - 2*runs; kept+left != len(tt.text) { // a run keeps its prefix and a newline
				t.Errorf("%d bytes kept and %d left out of %d", kept, left, len(tt.text))
			}
			got := parsesAsWhole(t, in, tt.text)
			if !tt.whole {
				return
			}
			for _, s := range got.Sections {
				for _, h := range s.Hunks {
					if !sliceOf(tt.files["f"], h.Payload) {
						t.Errorf("the %s payload is not a slice of f", h.Role)
					}
				}
			}
		})
	}
}

// sliceOf reports whether b is a non-empty slice of data's memory.
func sliceOf(data, b []byte) bool {
	if len(b) == 0 || len(data) == 0 {
		return false
	}
	lo, at := uintptr(unsafe.Pointer(&data[0])), uintptr(unsafe.Pointer(&b[0]))
	return at >= lo && at+uintptr(len(b)) <= lo+uintptr(len(data))
}

// TestReadPatchThroughBuffers: a patch whose long lines and runs a file of
// the Workspace holds, read while the file is read through buffers instead
// of its mapping (see cursor), leaves out what it leaves out when the
// file's bytes are in memory, and parses as Parse parses its bytes; so
// does a line the file does not hold.
func TestReadPatchThroughBuffers(t *testing.T) {
	t.Parallel()
	const n = 80000 // 4.8 MB, a block of 1.2 MB
	file := logFile(n, "\n")
	one := oneLineFile(bufferedMin+bufferStretch, "")
	planned := movedBlock(t, MapFiles{"f": file}, "f", "", n, "\n")
	changed := bytes.Replace(planned, []byte("-2026-12-03 INFO api/server.go:214 request served id=00030000\n"),
		[]byte("-2026-12-03 INFO api/server.go:214 request served id=0003000X\n"), 1)
	for _, tt := range []struct {
		name string
		data []byte
		text []byte
	}{
		{"a block of short lines", file, planned},
		{"a line the file does not hold", file, changed},
		{"a long line", one, plannedPatch(t, MapFiles{"f": one}, "f", len(one))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			must(t, os.WriteFile(filepath.Join(root, "f"), tt.data, 0o644))
			ws, err := NewWorkspace(root)
			must(t, err)
			defer ws.Close()
			if ws.peek("f") == nil || len(ws.maps) != 1 {
				t.Fatal("the file was not mapped")
			}
			if !ws.maps[0].buffered {
				ws.maps[0].readThrough()
			}
			read := func(tree peeker) *Input {
				in, err := readPatch(bytes.NewReader(tt.text), int64(len(tt.text)), DefaultInputLimit, "p", tree, 1, longLine, streamWindow)
				if err != nil {
					t.Fatal(err)
				}
				return in
			}
			want, got := read(MapFiles{"f": tt.data}), read(ws)
			defer want.Release()
			defer got.Release()
			if len(want.holes) == 0 {
				t.Fatal("nothing left out of the text read with the file in memory")
			}
			if diff := cmp.Diff(want.Bytes(), got.Bytes(), sameBytesOpt); diff != "" {
				t.Errorf("text kept (-file in memory +through buffers):\n%s", diff)
			}
			parsesAsWhole(t, got, tt.text)
		})
	}
}

// TestReadPatchLineRunningPastTheFile: a long line whose first bytes end
// its file, the rest running past the file's end, is kept whole, its
// comparing stopped at the end, as is one a file of a single byte is
// named to hold.
func TestReadPatchLineRunningPastTheFile(t *testing.T) {
	t.Parallel()
	line := bytes.Repeat([]byte("a long line "), 3*longLine/12)
	file := append(bytes.Repeat([]byte("filler\n"), 1000), line[:2*longLine]...)
	text := []byte("--- a/f\n+++ b/f\n@@ -1,2 +1,1 @@\n filler\n-" + string(line) + "\n")
	for _, files := range []MapFiles{{"f": file[:len(file):len(file)]}, {"f": []byte("x")}} {
		in, err := readPatch(bytes.NewReader(text), int64(len(text)), DefaultInputLimit, "p", files, 1, longLine, streamWindow)
		if err != nil {
			t.Fatal(err)
		}
		if len(in.holes) != 0 {
			t.Errorf("%d lines left out of a file of %d bytes that does not hold them", len(in.holes), len(files["f"]))
		}
		parsesAsWhole(t, in, text)
		in.Release()
	}
}

// TestReadPatchHashesTheRunEarly: the first run of payload lines of a
// megabyte or more that a file holds is hashed while the patch is read on,
// and check takes that hash for the payload, which is the run's bytes
// themselves: a patch that is right checks as its whole text does, and
// one whose payload-sha256 is wrong is still hash_mismatch. A smaller
// block starts no hash.
func TestReadPatchHashesTheRunEarly(t *testing.T) {
	t.Parallel()
	const n = 80000 // 4.8 MB, a block of 1.2 MB
	file := logFile(n, "\n")
	other := bytes.ReplaceAll(file, []byte("INFO"), []byte("WARN"))
	within := movedBlock(t, MapFiles{"f": file}, "f", "", n, "\n")
	sum := regexp.MustCompile(`payload-sha256=[0-9a-f]{64}`)
	wrong := sum.ReplaceAll(within, []byte("payload-sha256="+zeroSum))
	tests := []struct {
		name  string
		files MapFiles
		text  []byte
		early bool
	}{
		{"a block moved within its file", MapFiles{"f": file}, within, true},
		{"a block moved to another file", MapFiles{"f": file, "g": other}, movedBlock(t, MapFiles{"f": file, "g": other}, "f", "g", n, "\n"), true},
		{"the wrong hash", MapFiles{"f": file}, wrong, true},
		{"a block under a megabyte", MapFiles{"f": file[:len(file)/3]}, movedBlock(t, MapFiles{"f": file[:len(file)/3]}, "f", "", n/3, "\n"), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			in, err := readPatch(bytes.NewReader(tt.text), int64(len(tt.text)), DefaultInputLimit, "p", tt.files, 1, longLine, streamWindow)
			if err != nil {
				t.Fatal(err)
			}
			defer in.Release()
			if (in.early != nil) != tt.early {
				t.Fatalf("hash started early: %v, want %v", in.early != nil, tt.early)
			}
			got, gotErr := CheckInput(in, tt.files, Options{Strip: 1})
			want, wantErr := Check(tt.text, tt.files, Options{Strip: 1})
			if diff := cmp.Diff(fmt.Sprint(wantErr), fmt.Sprint(gotErr)); diff != "" {
				t.Fatalf("error (-Check +CheckInput):\n%s", diff)
			}
			if diff := cmp.Diff(want, got, sameBytesOpt); diff != "" {
				t.Errorf("plan (-Check +CheckInput):\n%s", diff)
			}
			if !tt.early {
				return
			}
			p, err := in.Parse(0)
			must(t, err)
			payload := p.SourceHunk().Payload
			if len(payload) != len(in.early.payload) || &payload[0] != &in.early.payload[0] {
				t.Errorf("the hash was taken of %d bytes other than the payload's %d", len(in.early.payload), len(payload))
			}
		})
	}
}

// TestEarlyHashFaults: a hash taken early of a file that shrank meanwhile
// faults on its goroutine, and whoever wants the sum gets the fault, which
// is concurrent_modification.
func TestEarlyHashFaults(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a line of the file\n"), 2*bufferedMin/19)
	mapped, path := mappedCopy(t, data)
	must(t, os.Truncate(path, int64(len(data)/2)))
	k := startHash(mapped)
	got := func() (e *Error) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { e = MappedFault(recover()) }()
		k.sumOf(mapped)
		return nil
	}()
	if got == nil || got.Code != ConcurrentModification {
		t.Errorf("the sum of a file cut short: %v, want concurrent_modification", got)
	}
}
