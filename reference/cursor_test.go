package reference

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime/debug"
	"testing"

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
