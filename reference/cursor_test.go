package reference

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// mappedCopy writes data to a file of a new Workspace and returns the
// Workspace's mapping of it, which a search reads through a cursor.
func mappedCopy(t *testing.T, data []byte) ([]byte, string) {
	t.Helper()
	root := t.TempDir()
	path := filepath.Join(root, "big")
	must(t, os.WriteFile(path, data, 0o644))
	ws, err := NewWorkspace(root)
	must(t, err)
	t.Cleanup(func() { ws.Close() })
	mapped, err := ws.ReadFile("big")
	must(t, err)
	if len(ws.maps) != 1 {
		t.Fatalf("a file of %d bytes was not mapped", len(data))
	}
	if !ws.maps[0].buffered { // the system maps it cheaply: read it through buffers all the same
		ws.maps[0].readThrough()
	}
	return mapped, path
}

// TestCursorAgreesInPlace: every search over a mapped file read through
// a buffer (findShort, Find, envelopes, a stepper alongside) answers as
// the same search of a copy of the bytes in memory and as the oracle,
// for needles up to the longest a buffer holds, placed across the
// boundaries of its stretches (from the start and from the middle, where
// the second half's search starts), across the middle, at the ends and in
// numbers past MatchCountLimit.
func TestCursorAgreesInPlace(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 42))
	data := make([]byte, bufferedMin+3*bufferStretch+rng.IntN(bufferStretch))
	for i := range data {
		data[i] = "ab\nxy"[rng.IntN(5)]
	}
	mid := len(data) / 2
	type placed struct {
		needle []byte
		at     []int
	}
	var cases []placed
	for i, n := range []int{1, 2, 7, 31, 32, 64, 100, 4 << 10, joinedMin - 1, joinedMin + 1, bufferedMax} {
		needle := make([]byte, n)
		for j := range needle {
			needle[j] = "abcz\n"[rng.IntN(5)]
		}
		needle[0] = 'A' + byte(i) // its own, so the copies counted are those placed
		var at []int
		for range 1 + rng.IntN(MatchCountLimit+2) {
			edge := []int{0, mid}[rng.IntN(2)] + rng.IntN(8)*bufferStretch
			at = append(at, edge-rng.IntN(n+1)) // ending at, across or starting at a boundary
		}
		// One copy starts at the middle itself, where the second half's
		// search starts, and must be counted by it alone; one at the
		// start of a stretch of its own.
		at = append(at, mid-rng.IntN(n+1), len(data)-n, mid, (2+i)*bufferStretch)
		cases = append(cases, placed{needle, at})
	}
	for _, c := range cases {
		for _, at := range c.at {
			if at >= 0 && at+len(c.needle) <= len(data) {
				copy(data[at:], c.needle)
			}
		}
	}
	mapped, _ := mappedCopy(t, data)
	for i, c := range cases {
		want := indexOracle(data, c.needle)
		if diff := cmp.Diff(want, Find(mapped, c.needle)); diff != "" {
			t.Errorf("needle %d (%d bytes): Find (-oracle +mapped):\n%s", i, len(c.needle), diff)
		}
		if len(c.needle) >= joinedMin { // in parts, found by its longest part's first bytes
			half := len(c.needle) / 2
			if diff := cmp.Diff(want, findJoined(mapped, c.needle[:half], c.needle[half:])); diff != "" {
				t.Errorf("needle %d (%d bytes): findJoined (-oracle +mapped):\n%s", i, len(c.needle), diff)
			}
		}
		other := cases[(i+1)%len(cases)].needle
		got := findShort(mapped, c.needle, other)
		if diff := cmp.Diff(findShort(data, c.needle, other), got); diff != "" {
			t.Errorf("needle %d (%d bytes): findShort (-in memory +mapped):\n%s", i, len(c.needle), diff)
		}
		before, after := c.needle[:max(1, len(c.needle)/2)], other[:rng.IntN(len(other))]
		along := stepper{f: newFinder(mapped, other)}
		if diff := cmp.Diff(envelopes(data, before, after, nil), envelopes(mapped, before, after, &along)); diff != "" {
			t.Errorf("needle %d (%d bytes): envelopes (-in memory +mapped):\n%s", i, len(c.needle), diff)
		}
		if diff := cmp.Diff(indexOracle(data, other), along.m); diff != "" {
			t.Errorf("needle %d (%d bytes): the stepper alongside (-oracle +mapped):\n%s", i, len(other), diff)
		}
	}
	// Newlines counted and the SHA-256, over stretches from short to
	// the whole file, through buffers by halves.
	for i := range 12 {
		from := rng.IntN(len(data))
		to := from + rng.IntN(len(data)-from+1)
		switch i % 3 {
		case 0:
			from, to = rng.IntN(bufferStretch), len(data)-rng.IntN(bufferStretch)
		case 1: // from past the first read, and still more than bufferedMin
			from, to = 2*bufferStretch+rng.IntN(bufferStretch/2), len(data)
		}
		want := bytes.Count(data[from:to], newline)
		if got := countNewlines(mapped, from, to); got != want {
			t.Errorf("countNewlines(%d, %d) = %d, want %d", from, to, got, want)
		}
		if got := countNewlines(data, from, to); got != want {
			t.Errorf("countNewlines(%d, %d) in memory = %d, want %d", from, to, got, want)
		}
		if got, want := sha256Hex(mapped[from:to]), sha256Hex(bytes.Clone(data[from:to])); got != want {
			t.Errorf("sha256Hex of [%d, %d) = %s, want %s", from, to, got, want)
		}
	}
	// equalAt, reading on from where it last read or jumping back, on
	// stretches shorter and longer than the buffer, at the ends too.
	rd := newCursor(mapped, 0, bufferedMax)
	defer rd.close()
	for i := range 200 {
		n := []int{1, 60, bufferStretch, 3 * bufferStretch}[rng.IntN(4)]
		at := rng.IntN(len(data)+2) - 1
		b := bytes.Clone(data[max(0, min(at, len(data)-n)):][:min(n, len(data))])
		if rng.IntN(3) == 0 {
			b[rng.IntN(len(b))] ^= 1
		}
		want := at >= 0 && bytes.HasPrefix(data[min(at, len(data)):], b)
		if got := rd.equalAt(at, b); got != want {
			t.Fatalf("equalAt %d: %d bytes at %d: %v, want %v", i, len(b), at, got, want)
		}
	}
}

// TestCursorReadsTheFile: a search of a mapped file reads its bytes from
// the file, not from the mapping (the two are the same but for the cost of
// touching it), and a file under bufferedMin or a needle too long for the
// buffer is searched in place.
func TestCursorReadsTheFile(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a line of the file\n"), (bufferedMin+2*bufferStretch)/19)
	mapped, _ := mappedCopy(t, data)
	for _, tc := range []struct {
		name     string
		data     []byte
		longest  int
		buffered bool
	}{
		{"mapped", mapped, 64, true},
		{"mapped, longest needle a buffer holds", mapped, bufferedMax, true},
		{"mapped, longer needle", mapped, bufferedMax + 1, false},
		{"a slice of the mapping", mapped[bufferStretch:], 64, true},
		{"a slice of the mapping capped to its length", mapped[1 : 1+bufferedMin : 1+bufferedMin], 64, true},
		{"mapped, too short", mapped[:bufferedMin-1], 64, false},
		{"in memory", data, 64, false},
	} {
		c := newCursor(tc.data, 0, tc.longest)
		if got := c.src != nil; got != tc.buffered {
			t.Errorf("%s: read through a buffer %v, want %v", tc.name, got, tc.buffered)
		}
		c.close()
	}
}

// TestCursorFaultsOnShrunkFile: a mapped file cut short while a search
// reads it through a buffer faults as reading the mapping would, in
// either half, so the CLI reports concurrent_modification; a checksum of
// it reports the file short.
func TestCursorFaultsOnShrunkFile(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a line of the file\n"), 2*bufferedMin/19)
	mapped, path := mappedCopy(t, data)
	src, _ := mappingOf(mapped)
	if _, ok := src.checksum(); !ok {
		t.Fatal("checksum of the whole file: short")
	}
	must(t, os.Truncate(path, int64(len(data)*3/4)))
	if _, ok := src.checksum(); ok {
		t.Error("checksum of a file cut short: ok, want it reported short")
	}
	// A needle of one byte takes no sample of the file: the search's
	// own reading faults.
	for _, needle := range []string{"absent", "\x00"} {
		got := func() (e *Error) {
			defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
			defer func() { e = MappedFault(recover()) }()
			Find(mapped, []byte(needle))
			return nil
		}()
		if got == nil || got.Code != ConcurrentModification {
			t.Errorf("searching the file cut short for %q: %v, want concurrent_modification", needle, got)
		}
	}
}

// TestMappingsForgetReleased: a released mapping is no longer looked up.
func TestMappingsForgetReleased(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "big"), bytes.Repeat([]byte("x\n"), bufferedMin/2), 0o644))
	ws, err := NewWorkspace(root)
	must(t, err)
	mapped, err := ws.ReadFile("big")
	must(t, err)
	if !ws.maps[0].buffered {
		ws.maps[0].readThrough()
	}
	if src, _ := mappingOf(mapped); src == nil {
		t.Fatal("the mapped file is not looked up")
	}
	must(t, ws.Close())
	if src, _ := mappingOf(mapped); src != nil {
		t.Error("the released mapping is still looked up")
	}
}

// TestMappedWholeProbesSafely: the probe of how the system maps a file
// says no for a mapping too short to probe, and for one whose file was cut
// short, whose touch faults, instead of ending the process.
func TestMappedWholeProbesSafely(t *testing.T) {
	t.Parallel()
	mapped, path := mapTemp(t, bytes.Repeat([]byte("a line of the file\n"), (hugeProbes+2)*hugePiece/19))
	if mappedWhole(mapped[:hugeProbes*hugePiece-1]) {
		t.Error("a mapping shorter than its probes: mapped whole")
	}
	t.Logf("a file written in one write: mapped whole %v", mappedWhole(mapped))
	must(t, os.Truncate(path, 0))
	if mappedWhole(mapped) {
		t.Error("a mapping whose file was cut short: mapped whole")
	}
}

// TestChecksumThroughBuffers: the checksum of a file read through buffers
// changes with a byte changed in either half, and a half whose last read
// is of one byte is read whole, not taken for a file cut short.
func TestChecksumThroughBuffers(t *testing.T) {
	t.Parallel()
	room := bufferStretch + bufferedMax // the bytes one read takes
	data := bytes.Repeat([]byte{'x'}, 2*(2*room+1))
	mapped, path := mappedCopy(t, data)
	src, _ := mappingOf(mapped)
	same, ok := src.checksum()
	if !ok {
		t.Fatal("checksum of a file whose halves end one byte past a read: reported short")
	}
	f, err := os.OpenFile(path, os.O_WRONLY, 0)
	must(t, err)
	defer f.Close()
	for _, at := range []int64{0, int64(room), int64(len(data)/2 - 1), int64(len(data) / 2), int64(len(data) - 1)} {
		_, err := f.WriteAt([]byte{'y'}, at)
		must(t, err)
		if sum, _ := src.checksum(); sum == same {
			t.Errorf("a byte changed at %d of %d: the checksum is the same", at, len(data))
		}
		_, err = f.WriteAt([]byte{'x'}, at)
		must(t, err)
	}
	if sum, _ := src.checksum(); sum != same {
		t.Error("the bytes written back: the checksum differs")
	}
}

// TestCountNewlinesHalves: a count of bufferedMin bytes or more, made by
// halves at once, is the whole count wherever it starts in the data.
func TestCountNewlinesHalves(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a line\n\n"), (2*bufferedMin)/8)
	for _, r := range [][2]int{{0, len(data)}, {3, bufferedMin + 5}, {len(data) - bufferedMin - 7, len(data)}} {
		if got, want := countNewlines(data, r[0], r[1]), bytes.Count(data[r[0]:r[1]], newline); got != want {
			t.Errorf("countNewlines(%d, %d) = %d, want %d", r[0], r[1], got, want)
		}
	}
}

// TestTextThroughBuffers: newlines counted and UTF-8 checked through
// buffers, by halves, answer as bytes.Count and utf8.Valid of the bytes in
// memory, on text whose runes of two to four bytes fall across every
// boundary of a read and of the halves, and with an invalid byte put on or
// next to those boundaries; a stretch scanned once is remembered by its
// mapping, but read again to be checked for UTF-8 when it was only
// counted.
func TestTextThroughBuffers(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 23))
	var text []byte
	for len(text) < bufferedMin+3*bufferStretch {
		text = append(text, []string{"a", "\n", "é", "€", "😀"}[rng.IntN(5)]...)
	}
	mid := len(text) / 2
	for trial := range 6 {
		data := bytes.Clone(text)
		if trial > 0 { // one bad byte: a lone continuation byte, or a cut rune's start
			at := []int{mid, mid - 1, mid + 1, bufferStretch, mid + bufferStretch - 1, len(data) - 1}[trial-1] + rng.IntN(3) - 1
			data[min(at, len(data)-1)] = []byte{0x80, 0xe2, 0xf0}[rng.IntN(3)]
		}
		mapped, _ := mappedCopy(t, data)
		for _, r := range [][2]int{{0, len(data)}, {1, len(data) - 1}, {bufferStretch - 1, len(data)}, {2, bufferedMin + 2}} {
			from, to := r[0], r[1]
			if got, want := isUTF8(mapped[from:to]), utf8.Valid(data[from:to]); got != want {
				t.Errorf("trial %d: isUTF8 of [%d, %d) = %v, want %v", trial, from, to, got, want)
			}
			if got, want := countNewlines(mapped, from, to), bytes.Count(data[from:to], newline); got != want {
				t.Errorf("trial %d: countNewlines(%d, %d) = %d, want %d", trial, from, to, got, want)
			}
		}
	}
	// The halves split before a rune's first byte wherever the middle
	// falls in a rune of four bytes, or just past it, and without looking
	// for one further back than a rune reaches.
	rune4 := bytes.Repeat([]byte("a"), bufferedMin+16)
	p := len(rune4)/2 - 4
	copy(rune4[p:], "😀")
	for j := range 5 {
		if !isUTF8(rune4[:2*(p+j)]) {
			t.Errorf("text whose middle is byte %d of a rune of four: not UTF-8", j)
		}
	}
	if isUTF8(bytes.Repeat([]byte{0x80}, bufferedMin)) { // no rune starts anywhere
		t.Error("continuation bytes alone: UTF-8")
	}
	// Remembered: the file changed under the mapping after a scan shows
	// the scan's answer for the same stretch, and its own for another.
	data := bytes.Repeat([]byte("é\n"), bufferedMin/3+1)
	mapped, path := mappedCopy(t, data)
	counted := scanText(mapped, false)
	must(t, os.WriteFile(path, bytes.Repeat([]byte("\xff"), len(data)), 0o644))
	if got := scanText(mapped, false); got != counted {
		t.Errorf("a stretch counted again: %+v, want %+v as remembered", got, counted)
	}
	if got := scanText(mapped, true); got.lines != 0 || !got.checked || got.valid {
		t.Errorf("the stretch counted, checked for UTF-8 after the rewrite: %+v, want it read again, no newlines, not UTF-8", got)
	}
	if got := scanText(mapped, false); got.lines != 0 || !got.checked || got.valid {
		t.Errorf("the stretch checked, counted again: %+v, want it as remembered", got)
	}
}

// TestLineEdgesThroughBuffers: the start and end of the line holding a
// byte of a mapped file, found in place near it and through buffers
// further, stretch by stretch on two cores, are those of the bytes in
// memory, found the same way and by the oracle, on lines from one byte to
// several reads long (an odd and an even number of stretches), at every
// byte near a line's edges or a read's and at a sample between.
func TestLineEdgesThroughBuffers(t *testing.T) {
	t.Parallel()
	var data []byte
	for _, n := range []int{0, 1, 100, nearLine - 1, nearLine, nearLine + 1, 2 * nearLine, bufferStretch, 3*bufferStretch + 5, bufferedMin} {
		data = append(append(data, bytes.Repeat([]byte("x"), n)...), '\n')
	}
	data = append(data, bytes.Repeat([]byte("y"), bufferStretch+nearLine)...) // no final newline
	mapped, _ := mappedCopy(t, data)
	start, end := 0, bytes.IndexByte(data, '\n')+1 // of the line holding data[i]
	for i := range data {
		if i == end {
			start = end
			if end = bytes.IndexByte(data[i:], '\n') + i + 1; end == i {
				end = len(data)
			}
		}
		near := func(edge int) bool { return (edge%nearLine+2)%nearLine < 5 || (edge%bufferStretch+2)%bufferStretch < 5 }
		if i-start > 3 && end-i > 3 && !near(i-start) && !near(end-i) && i%4099 != 0 {
			continue
		}
		for _, d := range []struct {
			where string
			data  []byte
		}{{"through buffers", mapped}, {"in memory", data}} {
			if got := lineStart(d.data, i); got != start {
				t.Fatalf("%s: lineStart(%d) = %d, want %d", d.where, i, got, start)
			}
			if got := lineEnd(d.data, i); got != end {
				t.Fatalf("%s: lineEnd(%d) = %d, want %d", d.where, i, got, end)
			}
		}
	}
}

// TestWritePatchThroughBuffers: a move planned from a mapped file of one
// long line of runes of two to four bytes, read through buffers, renders
// and writes out the patch planned from the same bytes in memory, and
// WritePatch's writes each end between runes.
func TestWritePatchThroughBuffers(t *testing.T) {
	t.Parallel()
	line := strings.Repeat("é€😀x", bufferedMin/40)
	data := []byte("first\n" + line + "BEGIN moved END" + line + "TARGET" + line)
	root := t.TempDir()
	must(t, os.WriteFile(filepath.Join(root, "big"), data, 0o644))
	ws, err := NewWorkspace(root)
	must(t, err)
	defer ws.Close()
	if _, err := ws.ReadFile("big"); err != nil {
		t.Fatal(err)
	}
	if !ws.maps[0].buffered {
		ws.maps[0].readThrough()
	}
	start, end, target := "BEGIN", "END", "TARGET"
	req := &Request{Src: "big", SrcStart: &start, SrcEnd: &end, TargetBefore: &target}
	_, doc, err := PlanDocument(req, ws)
	must(t, err)
	_, want, err := PlanDocument(req, MapFiles{"big": data})
	must(t, err)
	if got, want := string(Format(doc)), string(Format(want)); got != want {
		t.Fatalf("the patch planned through buffers differs (%d bytes, want %d)", len(got), len(want))
	}
	var rec pieceRecorder
	must(t, WritePatch(&rec, doc))
	if got := bytes.Join(rec.writes, nil); !bytes.Equal(got, Format(want)) {
		t.Fatalf("WritePatch through buffers differs from Format (%d bytes, want %d)", len(got), len(Format(want)))
	}
	for i, w := range rec.writes {
		if !utf8.Valid(w) {
			t.Fatalf("write %d of %d splits a rune (%d bytes)", i, len(rec.writes), len(w))
		}
	}
}
