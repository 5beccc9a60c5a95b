package reference

import (
	"errors"
	"io"
	"os"
	"strconv"
)

// DefaultInputLimit is the largest patch, move request or tree file, in
// bytes, the reference reads unless told otherwise: 1 GiB. Everything it
// reads is held in memory, so the limit bounds its memory.
const DefaultInputLimit int64 = 1 << 30

// Input is a patch or move request read whole by ReadLimited.
//
// Its bytes live in memory of their own, outside the Go heap where the
// system allows (an anonymous mapping on Linux), for two reasons. Growing
// it needs no copy (the mapping is moved, not copied), so reading costs
// the bytes read and no more; and asking the system for more address space
// can fail with an error, where the Go runtime's own allocations end the
// program with a fatal error that no code can catch. Release returns the
// memory; the bytes must not be used after it.
type Input struct {
	data  []byte // the bytes read, or kept (see ReadPatch)
	holes []hole // the lines ReadPatch left out of data
	// early is the hash of the first large run of payload lines ReadPatch
	// found in a file, taken as it reads on; nil when there is none.
	early *hashed
	mem   inputMemory
	// parsed says Parse ran, and gave patch or err.
	parsed bool
	patch  *Patch
	err    error
}

// Bytes returns the input's bytes, valid until Release: all that was read,
// unless ReadPatch left lines out, and until Parse takes them (see
// Parse).
func (in *Input) Bytes() []byte { return in.data }

// Release returns the input's memory, once the hash ReadPatch may have
// started is taken: it reads a file of the tree, so Release comes before
// the tree's Workspace is closed. It may be called more than once.
func (in *Input) Release() error {
	in.early.settle()
	in.data = nil
	return in.mem.free()
}

// readStep is the smallest amount by which the input's memory grows: its
// first size for a stream of unknown length, and the growth tried when
// doubling does not fit in the address space.
const readStep = 1 << 20

// ReadLimited reads r to its end, failing with io_error (phase io, OUT-023)
// once more than limit bytes came, or when the input, with the memory its
// use takes, cannot fit in the address space the process may still take
// (RLIMIT_AS): that is the same limit, set by the system. what names the
// input in the message.
//
// It reads straight into memory that grows by doubling without copying,
// up to limit+1 bytes, so a stream larger than the limit costs the limit
// plus one page, whatever arrives after, and is refused as soon as its
// limit+1st byte is read; nothing more is read from it. A regular file
// above the limit is refused before it is read.
func ReadLimited(r io.Reader, limit int64, what string) (*Input, error) {
	first := int64(readStep)
	var file *os.File // a regular file, whose halves can be read at once
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() {
			if info.Size() > limit {
				return nil, inputError(tooLarge(what, limit))
			}
			first = max(info.Size()+1, 1) // +1 sees the end, or growth meanwhile
			file = f
		}
	}
	budget := newInputBudget()
	in := &Input{}
	size := min(first, limit+1)
	if err := budget.fits(size); err != nil {
		return nil, tooBig(what, limit, 0, err)
	}
	var err error
	if in.mem, err = allocInput(int(size)); err != nil {
		return nil, tooBig(what, limit, 0, err)
	}
	n := 0
	if file != nil && size-1 >= splitRead {
		n = readHalves(file, in.mem.bytes()[:size-1])
	}
	for {
		buf := in.mem.bytes()
		if n == len(buf) {
			if int64(n) > limit {
				in.Release()
				return nil, inputError(tooLarge(what, limit))
			}
			if err := in.grow(budget, n, limit); err != nil {
				in.Release()
				return nil, tooBig(what, limit, n, err)
			}
			buf = in.mem.bytes()
		}
		k, err := r.Read(buf[n:])
		n += k
		if err == io.EOF {
			break
		}
		if err != nil {
			in.Release()
			return nil, &Error{Code: IOError, Phase: "io", Message: "reading " + what + ": " + err.Error(), Err: err}
		}
	}
	if int64(n) > limit {
		in.Release()
		return nil, inputError(tooLarge(what, limit))
	}
	in.mem.shrink(n)
	in.data = in.mem.bytes()[:n:n]
	return in, nil
}

// splitRead is the size from which ReadLimited reads a regular file's two
// halves at once: copying from the system's file cache into fresh memory
// is most of reading, and it runs on both cores (on the 89 MB patch of
// the one-line benchmark shape, reading takes 6-8 ms instead of 10-12).
const splitRead = 4 << 20

// readHalves reads buf's two halves from f's offset on at once and moves
// the offset past the bytes it returns: how many lead buf without a gap.
// Whatever it leaves, a short read or an error, the caller's reading goes
// on from there and meets it again.
func readHalves(f *os.File, buf []byte) int {
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return 0
	}
	mid := len(buf) / 2
	var first, second int
	parallel(func() { first, _ = f.ReadAt(buf[:mid], off) }, func() { second, _ = f.ReadAt(buf[mid:], off+int64(mid)) })
	n := first
	if first == mid {
		n += second
	}
	if _, err := f.Seek(off+int64(n), io.SeekStart); err != nil {
		return 0 // the offset stays at off: ReadAt does not move it
	}
	return n
}

// grow enlarges the input's memory holding n bytes: it doubles, up to
// limit+1 bytes, or, when doubling does not fit in the address space, it
// takes one readStep more.
func (in *Input) grow(budget inputBudget, n int, limit int64) error {
	next := min(2*int64(n), limit+1)
	if budget.fits(next) != nil {
		next = min(int64(n)+readStep, limit+1)
	}
	if err := budget.fits(next); err != nil {
		return err
	}
	return in.mem.grow(int(next))
}

// errNoRoom says the input does not fit in the address space left.
var errNoRoom = errors.New("no address space left")

// inputBudget is the address space the process may still take when it
// starts reading its input; unlimited when the system sets no limit.
type inputBudget struct {
	left      int64
	unlimited bool
}

// processingFactor is how many bytes of address space the use of each
// byte of input may take at most, beyond the input itself. Measured by
// VmPeak over the runtime's own 1.26 GB, on a 202 MB patch whose 100 MB
// payload is a run of equal lines, check and apply take 1.8 bytes per
// byte beyond the input, down from 4.4 before the search of issue 23 kept
// no table and joined no long needle; the bound keeps a margin for other
// shapes. A move request costs about 3 while it is decoded; what the
// planner takes grows with the files it reads, not with the request, and
// is not counted here.
const processingFactor = 5

// runtimeReserve is the address space kept for the Go runtime beyond the
// input's use: one heap arena (64 MiB on 64-bit Linux) and its metadata,
// the unit in which the runtime takes address space.
const runtimeReserve = 192 << 20

// fits reports whether memory for an input of want bytes, with the heap
// its use takes and the runtime's reserve, fits in what the process could
// take when reading started. Growing the memory takes only the difference
// (the system moves the pages), so want is the whole cost.
func (b inputBudget) fits(want int64) error {
	if b.unlimited || want+processingFactor*want+runtimeReserve <= b.left {
		return nil
	}
	return errNoRoom
}

// RoomToWork returns the io_error of a process left with less address
// space under RLIMIT_AS than the runtime's reserve: one that would start
// (version needs next to nothing) but could not grow its heap for any
// work, where a failed allocation is the runtime's fatal trace, not an
// error. It is asked before a command reads or allocates anything.
func RoomToWork() error {
	if newInputBudget().fits(0) != nil {
		return &Error{Code: IOError, Phase: "io",
			Message: "too little memory left under the limit this process may take (RLIMIT_AS) to work in"}
	}
	return nil
}

// tooLarge is the io_error of an input above the limit.
func tooLarge(what string, limit int64) *Error {
	return &Error{Code: IOError, Phase: "io", Path: what,
		Message: what + " is larger than the input limit of " + strconv.FormatInt(limit, 10) + " bytes"}
}

// inputError leaves the path of an input's error to the caller, which
// knows whether it read a file or stdin.
func inputError(e *Error) *Error {
	e.Path = ""
	return e
}

// tooBig is the io_error of an input that does not fit in memory once n
// bytes of it were read: the limit the system sets (RLIMIT_AS), below the
// input limit.
func tooBig(what string, limit int64, n int, err error) *Error {
	return &Error{Code: IOError, Phase: "io", Err: err,
		Message: what + " does not fit in the memory this process may take (RLIMIT_AS) after " +
			strconv.Itoa(n) + " bytes, below the input limit of " + strconv.FormatInt(limit, 10) + " bytes"}
}
