package reference

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestReadLimitedKeepsOnlyItsBytes: once read, an input's memory is cut
// down to its bytes, so the address space the rest of the run may take
// (RLIMIT_AS) is not held by the unused end of the last doubling.
func TestReadLimitedKeepsOnlyItsBytes(t *testing.T) {
	t.Parallel()
	for _, n := range []int{1, 100, readStep + 1, 3 * readStep / 2} {
		in, err := ReadLimited(bytes.NewReader(make([]byte, n)), 1<<30, "stdin")
		must(t, err)
		if got := len(in.mem.bytes()); got != n {
			t.Errorf("%d bytes read: %d bytes of memory kept, want %d", n, got, n)
		}
		must(t, in.Release())
	}
}

// TestReadLimitedHugeInput: inputs around hugeInput, whose memory asks
// for huge pages and is populated by madvise, read whole, byte for byte,
// from a file (memory of the file's size and one byte) and from a stream
// (memory grown by doubling, then cut down).
func TestReadLimitedHugeInput(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	for _, n := range []int{hugeInput - 2, hugeInput - 1, hugeInput, 3*hugeInput + 5} {
		line := []byte("huge\r\n\xff line\n")
		want := bytes.Repeat(line, n/len(line)+1)[:n]
		path := filepath.Join(dir, strconv.Itoa(n))
		must(t, os.WriteFile(path, want, 0o644))
		f, err := os.Open(path)
		must(t, err)
		for _, r := range []io.Reader{f, bytes.NewReader(want)} {
			in, err := ReadLimited(r, 1<<30, "stdin")
			must(t, err)
			if !bytes.Equal(in.Bytes(), want) || len(in.mem.bytes()) != n {
				t.Errorf("%T of %d bytes: %d bytes read, %d of memory kept, equal: %v",
					r, n, len(in.Bytes()), len(in.mem.bytes()), bytes.Equal(in.Bytes(), want))
			}
			must(t, in.Release())
		}
		f.Close()
	}
}

// processSize is the process's size now, from /proc/self/statm.
func processSize(t *testing.T) int64 {
	t.Helper()
	b, err := os.ReadFile("/proc/self/statm")
	must(t, err)
	pages, err := strconv.ParseInt(strings.Fields(string(b))[0], 10, 64)
	must(t, err)
	return pages * int64(os.Getpagesize())
}

// withAddressLimit runs f with the soft RLIMIT_AS set to cur, and puts the
// old limit back; it skips when the hard limit is lower.
func withAddressLimit(t *testing.T, cur uint64, f func()) {
	t.Helper()
	var old unix.Rlimit
	must(t, unix.Getrlimit(unix.RLIMIT_AS, &old))
	if old.Max != unix.RLIM_INFINITY && old.Max < cur {
		t.Skipf("the hard RLIMIT_AS %d is below %d", old.Max, cur)
	}
	must(t, unix.Setrlimit(unix.RLIMIT_AS, &unix.Rlimit{Cur: cur, Max: old.Max}))
	defer func() { must(t, unix.Setrlimit(unix.RLIMIT_AS, &old)) }()
	f()
}

// TestNewInputBudget: no RLIMIT_AS, or one too large to matter (above
// 2^62 bytes), is no budget; a lower one leaves the limit less the
// process's size. The limits set here are far beyond any address space,
// so the other tests of the process never feel them.
func TestNewInputBudget(t *testing.T) {
	for _, cur := range []uint64{unix.RLIM_INFINITY, 1<<62 + 1<<61, 1<<62 + 1} {
		withAddressLimit(t, cur, func() {
			if b := newInputBudget(); !b.unlimited {
				t.Errorf("RLIMIT_AS %d: budget %+v, want unlimited", cur, b)
			}
		})
	}
	withAddressLimit(t, 1<<62, func() {
		b := newInputBudget()
		size := processSize(t)
		used := int64(1<<62) - b.left
		if b.unlimited || used <= 0 || used%int64(os.Getpagesize()) != 0 || used < size-64<<20 || used > size+64<<20 {
			t.Errorf("RLIMIT_AS 2^62: budget %+v, which counts %d bytes used; the process's size is %d", b, used, size)
		}
	})
}

// TestRoomToWork: a process left with less address space than the
// runtime's reserve (192 MiB) under RLIMIT_AS is refused work with
// io_error, and one left with exactly the reserve is not. The limit is set
// a little above the process's size for a moment, in a test that runs
// alone (not parallel), and is put back at once.
func TestRoomToWork(t *testing.T) {
	const reserve = 192 << 20
	var short, exact error
	for range 5 {
		size := processSize(t)
		withAddressLimit(t, uint64(size+reserve-64<<20), func() { short = RoomToWork() })
		withAddressLimit(t, uint64(size+reserve), func() { exact = RoomToWork() })
		if exact == nil {
			break // the size may have moved between the two measures; retry
		}
	}
	wantCode(t, short, IOError)
	if exact != nil {
		t.Errorf("with exactly the runtime's reserve left: %v, want no error", exact)
	}
}

// TestReadLimitedUnderAddressLimit: under RLIMIT_AS an input is read only
// while it, with five bytes of processing per byte and the runtime's
// reserve, fits in what is left. A regular file is given memory for its
// size and one byte at once, so one of 1.5 MiB is read with 202.5 MiB
// left (where 2 MiB would not fit), and so are it and an empty file with
// exactly their budget left; one of 8 MiB is refused before it is read
// with 200 MiB left; a stream of 3 MiB is refused when its memory cannot
// grow past 1 MiB, rather than read on; and a stream, whose length is not
// known, is given 1 MiB (readStep) at first, so even a short one is
// refused where that does not fit. Each refusal is io_error.
// The limit is set a little above the process's size for a moment, in a
// test that runs alone (not parallel), and put back at once.
func TestReadLimitedUnderAddressLimit(t *testing.T) {
	const mib = 1 << 20
	dir := t.TempDir()
	file := func(n int) func() *os.File {
		return func() *os.File {
			path := filepath.Join(dir, strconv.Itoa(n))
			must(t, os.WriteFile(path, bytes.Repeat([]byte("x"), n), 0o644))
			f, err := os.Open(path)
			must(t, err)
			t.Cleanup(func() { f.Close() })
			return f
		}
	}
	stream := func(n int) func() *os.File {
		return func() *os.File {
			r, w, err := os.Pipe()
			must(t, err)
			go func() {
				w.Write(make([]byte, n)) // ends when r is closed
				w.Close()
			}()
			t.Cleanup(func() { r.Close() })
			return r
		}
	}
	tests := []struct {
		name  string
		left  int64 // the address space left, beyond the process's size
		input func() *os.File
		size  int  // the input's size
		ok    bool // read whole, not refused
	}{
		{"file of 1.5 MiB", 202*mib + mib/2, file(3 * mib / 2), 3 * mib / 2, true},
		{"file of 1.5 MiB, exactly its budget", 6*(3*mib/2+1) + 192*mib, file(3 * mib / 2), 3 * mib / 2, true},
		{"empty file, exactly its budget", 6 + 192*mib, file(0), 0, true},
		{"file of 8 MiB", 200 * mib, file(8 * mib), 8 * mib, false},
		{"stream of 3 MiB", 201 * mib, stream(3 * mib), 3 * mib, false},
		{"stream of 10 bytes, without room for its first 1 MiB", 195 * mib, stream(10), 10, false},
	}
	for _, tt := range tests {
		got := -1
		var err error
		for range 5 { // the process's size may move between the two measures
			f := tt.input()
			withAddressLimit(t, uint64(processSize(t)+tt.left), func() {
				var in *Input
				if in, err = ReadLimited(f, 1<<30, "input"); err == nil {
					got = len(in.Bytes())
					in.Release()
				}
			})
			if (err == nil) == tt.ok {
				break
			}
		}
		if tt.ok && (err != nil || got != tt.size) {
			t.Errorf("%s: %d bytes, %v; want it read whole", tt.name, got, err)
		}
		if !tt.ok {
			wantCode(t, err, IOError)
		}
	}
}

// TestBulk: bulk gives room for its size, empty; from hugeInput on, the
// huge pages within the room are asked for (the "hg" flag of the mapping
// that holds them, in /proc/self/smaps).
func TestBulk(t *testing.T) {
	t.Parallel()
	for _, size := range []int{0, 1, hugeInput - 1, hugeInput, 3*hugeInput + 5} {
		b := bulk(size)
		if len(b) != 0 || cap(b) < size {
			t.Fatalf("bulk(%d): len %d cap %d", size, len(b), cap(b))
		}
		room := b[:size]
		for i := range room {
			room[i] = byte(i)
		}
		if size < hugeInput {
			continue
		}
		addr := uintptr(unsafe.Pointer(&room[0]))
		inside := (addr+hugePage-1)&^(hugePage-1) + hugePage/2
		flags, err := vmFlags(inside)
		if err != nil {
			t.Skip(err)
		}
		if !slices.Contains(flags, "hg") {
			t.Errorf("bulk(%d): the mapping holding its room has flags %v, without hg", size, flags)
		}
	}
}

// vmFlags returns the VmFlags of the mapping of this process that holds
// addr.
func vmFlags(addr uintptr) ([]string, error) {
	data, err := os.ReadFile("/proc/self/smaps")
	if err != nil {
		return nil, err
	}
	in := false
	for line := range strings.Lines(string(data)) {
		fields := strings.Fields(line)
		if len(fields) == 0 {
			continue
		}
		if lo, hi, ok := strings.Cut(fields[0], "-"); ok && !strings.HasSuffix(fields[0], ":") {
			l, err1 := strconv.ParseUint(lo, 16, 64)
			h, err2 := strconv.ParseUint(hi, 16, 64)
			in = err1 == nil && err2 == nil && uint64(addr) >= l && uint64(addr) < h
			continue
		}
		if in && fields[0] == "VmFlags:" {
			return fields[1:], nil
		}
	}
	return nil, errors.New("no mapping holds the address, or it shows no VmFlags")
}
