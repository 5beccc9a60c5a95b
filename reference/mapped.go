package reference

import (
	"io"
	"io/fs"
	"os"
	"runtime/debug"
	"slices"
	"sync"
	"unsafe"

	"github.com/zeebo/xxh3"
)

// mapThreshold is the size from which Workspace maps a file into memory
// instead of copying it: the pages are the system's file cache, so a large
// file costs neither a copy nor fresh memory, which on some machines costs
// more than reading it.
//
// A mapped file is no private copy: its bytes are what the file holds at
// each moment. The Workspace therefore keeps, for Commit's re-check
// (WRITE-006), a checksum of the bytes, taken before any of them is used
// or, for a file read through buffers, as the first pass over it reads
// them (firstSum), and compares it, with the stat and the inode's change
// time, with the file as it is after staging. A file that shrinks while
// mapped makes reading beyond its new end fault; see MappedFault.
const mapThreshold = 256 << 10

// copyThreshold is the length from which a stretch of a mapped file is
// staged by the system's copy from the file itself; a shorter one costs
// less written from memory than the two system calls of a copy.
const copyThreshold = 64 << 10

// mapping is a file the Workspace mapped, held open until Close so that
// staging can copy stretches of it without passing through memory.
type mapping struct {
	data []byte
	file *os.File
	// buffered says data is read through buffers instead of in place
	// (see mappedWhole and cursor).
	buffered bool
	// summed says sum is the checksum of data when it was read (not in a
	// ReadOnly Workspace).
	summed bool
	sum    checksum
	// first, for a file read through buffers, takes sum as the first
	// pass over it reads it; nil when sum is not wanted or taken at once.
	first *firstSum
	// texts is what scanText learnt of stretches of a file read through
	// buffers, by offset and length.
	texts struct {
		sync.Mutex
		known map[[2]int]text
	}
}

// scanned returns what scanText learnt of the n bytes of m's file from
// off; false when m is nil.
func (m *mapping) scanned(off, n int) (text, bool) {
	if m == nil {
		return text{}, false
	}
	m.texts.Lock()
	defer m.texts.Unlock()
	t, ok := m.texts.known[[2]int{off, n}]
	return t, ok
}

// remember keeps what scanText learnt of the n bytes of m's file from
// off, when m is not nil.
func (m *mapping) remember(off, n int, t text) {
	if m == nil {
		return
	}
	m.texts.Lock()
	defer m.texts.Unlock()
	if m.texts.known == nil {
		m.texts.known = map[[2]int]text{}
	}
	m.texts.known[[2]int{off, n}] = t
}

// checksum is the XXH3 checksums (64 bits, vectorised: a small fraction of
// the cost of copying the file) of a mapped file's two halves, taken at
// once on two goroutines as findShort searches them, or of the whole
// below splitMin.
type checksum [2]uint64

// checksum returns the checksum of m's file as it is now. A file read
// through buffers (see mappedWhole) is read so, by halves, each
// bufferStretch bytes from a half's start hashed by XXH3 seeded with the
// hash of the ones before; ok is false when the file holds fewer bytes
// than were mapped, having shrunk.
func (m *mapping) checksum() (sum checksum, ok bool) {
	if !m.buffered {
		return checksumOf(m.data)
	}
	var halves [2]bool
	take := func(h int) {
		from, to := m.half(h)
		sum[h], halves[h] = m.chainOn(from, to, 0)
	}
	parallel(func() { take(0) }, func() { take(1) })
	return sum, halves[0] && halves[1]
}

// half returns where half h of m's file starts and ends.
func (m *mapping) half(h int) (from, to int) {
	mid := len(m.data) / 2
	if h == 0 {
		return 0, mid
	}
	return mid, len(m.data)
}

// chainOn goes on with sum, the checksum of a half up to at, through the
// half's end to, a stretch at a time.
func (m *mapping) chainOn(at, to int, sum uint64) (uint64, bool) {
	buf := bufferPool.Get().(*[]byte)
	defer bufferPool.Put(buf)
	for ; at < to; at += bufferStretch {
		n := min(bufferStretch, to-at)
		if k, _ := m.file.ReadAt((*buf)[:n], int64(at)); k < n {
			return 0, false
		}
		sum = xxh3.HashSeed((*buf)[:n], sum)
	}
	return sum, true
}

// firstSum takes the checksum of a file read through buffers from the
// first pass over it, which reads each half of it a stretch at a time from
// the half's start (findShort) into a buffer: each stretch it reads in
// turn is hashed there, while in the cache, instead of the whole file
// being read once more beforehand to be hashed (issue 23). What no pass
// read in turn is read when the checksum is wanted (finish), before the
// write stages anything. The checksum is thus of the bytes the plan was
// searched in, as Commit's re-check wants them (WRITE-006).
type firstSum struct {
	halves [2]struct {
		sync.Mutex
		next int    // the file offset the half's checksum has got to
		sum  uint64 // of the half's bytes before next
	}
}

// newFirstSum returns the firstSum of m, none of it yet taken.
func newFirstSum(m *mapping) *firstSum {
	f := &firstSum{}
	for h := range f.halves {
		f.halves[h].next, _ = m.half(h)
	}
	return f
}

// took hashes b, just read from file offset at, when it holds the
// stretch one half's checksum has got to.
func (f *firstSum) took(m *mapping, at int, b []byte) {
	h := 0
	if at >= len(m.data)/2 {
		h = 1
	}
	_, to := m.half(h)
	half := &f.halves[h]
	half.Lock()
	defer half.Unlock()
	if n := min(bufferStretch, to-at); at == half.next && n > 0 && len(b) >= n {
		half.sum = xxh3.HashSeed(b[:n], half.sum)
		half.next += n
	}
}

// finish sets m's checksum: the halves', each taken on from where the
// passes left it.
func (f *firstSum) finish(m *mapping) {
	var ok [2]bool
	take := func(h int) {
		_, to := m.half(h)
		m.sum[h], ok[h] = m.chainOn(f.halves[h].next, to, f.halves[h].sum)
	}
	parallel(func() { take(0) }, func() { take(1) })
	m.summed = ok[0] && ok[1]
}

// takeSums takes the checksums the first passes over the mapped files
// left unfinished (firstSum), before anything is staged.
func (w *Workspace) takeSums() {
	for _, m := range w.maps {
		if m.first != nil {
			m.first.finish(m)
			m.first = nil
		}
	}
}

// checksumOf returns the checksum of a mapped file's bytes; ok is false
// when reading them faults, the file having shrunk.
func checksumOf(data []byte) (sum checksum, ok bool) {
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	if len(data) < splitMin {
		return checksum{xxh3.Hash(data)}, true
	}
	mid := len(data) / 2
	parallel(func() { sum[0] = xxh3.Hash(data[:mid]) }, func() { sum[1] = xxh3.Hash(data[mid:]) })
	return sum, true
}

// MappedFault returns, for a value recovered from a panic, the error to
// report when it is a memory fault: a file the Workspace mapped shrank
// while it was being read, concurrent_modification. It returns nil for any
// other panic. Faults panic only in goroutines that set
// debug.SetPanicOnFault; elsewhere they crash the program.
func MappedFault(p any) *Error {
	if _, ok := p.(interface{ Addr() uintptr }); !ok {
		return nil
	}
	return &Error{Code: ConcurrentModification, Phase: "io",
		Message: "a file shrank while it was being read"}
}

// mapRegular maps f, whose stat is info, when it is large enough, and
// checksums it when sum is set. It returns nil for a file to be copied,
// and concurrent_modification for one that grew or shrank meanwhile.
func mapRegular(f *os.File, info fs.FileInfo, sum bool) (*mapping, error) {
	data, err := mapFile(f, info.Size())
	if data == nil || err != nil {
		return nil, err
	}
	m := &mapping{data: data, file: f, buffered: len(data) >= bufferedMin && !mappedWhole(data)}
	ok := true
	if sum {
		ok = m.startSum()
	}
	if n, _ := f.ReadAt(make([]byte, 1), info.Size()); n != 0 || !ok { // grew or shrank
		unmap(data)
		return nil, &Error{Code: ConcurrentModification, Phase: "io", Message: info.Name() + " changed while being read"}
	}
	if m.buffered { // only now: a mapping refused and unmapped must not be looked up
		m.readThrough()
	}
	return m, nil
}

// startSum takes m's checksum, or for a file read through buffers starts
// taking it as the first pass over it reads it (firstSum); false when
// the file shrank.
func (m *mapping) startSum() bool {
	if m.buffered {
		m.first = newFirstSum(m)
		return true
	}
	m.sum, m.summed = m.checksum()
	return m.summed
}

// readThrough makes m read through buffers: its checksum, and the
// searches given its bytes (mappingOf).
func (m *mapping) readThrough() {
	m.buffered = true
	mappings.Lock()
	mappings.live = append(mappings.live, m)
	mappings.Unlock()
}

// mappings are the files this process's Workspaces hold mapped and read
// through buffers, for a search given a mapping's bytes to read the file
// instead (cursor).
var mappings struct {
	sync.Mutex
	live []*mapping
}

// mappingOf returns the mapping data is a slice of, and where data starts
// in its file; nil when data is no mapped file's.
func mappingOf(data []byte) (*mapping, int) {
	mappings.Lock()
	defer mappings.Unlock()
	for _, m := range mappings.live {
		if off, ok := m.offsetOf(data); ok {
			return m, off
		}
	}
	return nil, 0
}

// release unmaps m and closes its file.
func (m *mapping) release() error {
	mappings.Lock()
	mappings.live = slices.DeleteFunc(mappings.live, func(x *mapping) bool { return x == m })
	mappings.Unlock()
	err := unmap(m.data)
	if cerr := m.file.Close(); err == nil {
		err = cerr
	}
	return err
}

// holds reports whether the file snap saw, now with the stat info, still
// has the bytes read: for a mapped file by its change time and the
// checksum of the mapping, which shows the file as it is now.
func (m *mapping) holds(info, then fs.FileInfo) bool {
	sum, ok := m.checksum()
	return m.summed && sameChangeTime(info, then) && ok && sum == m.sum
}

// offsetOf returns where d starts in the mapped file, when d is a
// non-empty slice of its mapping.
func (m *mapping) offsetOf(d []byte) (int, bool) {
	if len(d) == 0 {
		return 0, false
	}
	// By the addresses, not the capacities: a slice capped to its length
	// is the mapping's too (ReadPatch keeps the lines it found in a file
	// so, and a 16 MB payload hashed or staged from one was read through
	// the mapping in place, not through buffers or the system's copy).
	off := int(uintptr(unsafe.Pointer(unsafe.SliceData(d))) - uintptr(unsafe.Pointer(unsafe.SliceData(m.data))))
	return off, off >= 0 && off+len(d) <= len(m.data)
}

// writeSegment writes d, a slice of a new file's content, to f. A stretch
// of a mapped file is copied from the file itself, by the system where it
// can (copy_file_range, as cp does), without passing through this process;
// a file that shrank since is concurrent_modification.
func (w *Workspace) writeSegment(f *os.File, d []byte) error {
	if len(d) >= copyThreshold {
		for _, m := range w.maps {
			if off, ok := m.offsetOf(d); ok {
				return copyFrom(f, m, off, len(d))
			}
		}
	}
	_, err := f.Write(d)
	return err
}

// copyFrom appends n bytes of m's file from off to f.
func copyFrom(f *os.File, m *mapping, off, n int) error {
	if _, err := m.file.Seek(int64(off), io.SeekStart); err != nil {
		return err
	}
	copied, err := io.Copy(f, &io.LimitedReader{R: m.file, N: int64(n)})
	if err == nil && copied != int64(n) {
		err = &Error{Code: ConcurrentModification, Phase: "io",
			Message: m.file.Name() + " shrank while it was being copied"}
	}
	return err
}
