package reference

import (
	"bytes"
	"os"
	"strconv"
	"unsafe"

	"golang.org/x/sys/unix"
)

// inputMemory is an anonymous private mapping: its pages are taken when it
// is made (MAP_POPULATE: in one system call, where taking them as the
// input fills them faults once per page, a tenth of check's time on an
// 85 MB patch), it grows by mremap, which moves pages instead of copying
// them, and a mapping the address space cannot hold fails with ENOMEM
// instead of ending the program.
type inputMemory struct{ m []byte }

// hugeInput is the size from which an input's memory asks for huge pages
// (MADV_HUGEPAGE) before they are taken: one 2 MiB page costs the system
// far less to hand out than 512 small ones, and the parse and the
// searches that read the input miss the address cache less. On the 89 MB
// patch of the one-line benchmark shape, check takes 75 ms instead of 95.
const hugeInput = 4 << 20

func allocInput(size int) (inputMemory, error) {
	if size < hugeInput {
		m, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS|unix.MAP_POPULATE)
		return inputMemory{m}, err
	}
	m, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err != nil {
		return inputMemory{}, err
	}
	// Both are advice: without huge pages the small ones serve, and a
	// kernel before 5.14 (no MADV_POPULATE_WRITE) hands the pages out as
	// the read fills them. The pages are taken by halves on both cores,
	// split at a huge page's start: the system clears each page as it
	// hands it out, a quarter of check's time on the one-line shape.
	unix.Madvise(m, unix.MADV_HUGEPAGE)
	mid := len(m) / 2 &^ (2<<20 - 1)
	parallel(func() { unix.Madvise(m[:mid], unix.MADV_POPULATE_WRITE) }, func() { unix.Madvise(m[mid:], unix.MADV_POPULATE_WRITE) })
	return inputMemory{m}, nil
}

// hugePage is the size of the huge pages asked for by MADV_HUGEPAGE on
// the machines this tool runs on (x86-64, arm64 with 4 KiB pages).
const hugePage = 2 << 20

// bulk returns an empty slice with room for size bytes, on the Go heap,
// for a copy about to be written whole (Parse's parts of many lines).
// From hugeInput on, the huge pages its room spans are asked for and
// taken at once, by halves on both cores, as allocInput's are: small pages
// taken one at a time as the copy wrote them took half of check's time on
// a patch moving a 12 MB block of short lines (issue 23). Memory the heap
// had touched before is already taken, and the advice changes nothing.
func bulk(size int) []byte {
	b := make([]byte, 0, size)
	if size < hugeInput {
		return b
	}
	room := b[:size]
	addr := uintptr(unsafe.Pointer(unsafe.SliceData(room)))
	lo := int((addr+hugePage-1)&^(hugePage-1) - addr)
	hi := int((addr+uintptr(size))&^(hugePage-1) - addr)
	if hi-lo >= hugePage {
		huge := room[lo:hi]
		unix.Madvise(huge, unix.MADV_HUGEPAGE) // advice: without it, small pages serve
		mid := lo + (hi-lo)/2&^(hugePage-1)
		parallel(func() { unix.Madvise(room[lo:mid], unix.MADV_POPULATE_WRITE) }, func() { unix.Madvise(room[mid:hi], unix.MADV_POPULATE_WRITE) })
	}
	return b
}

// reserveInput maps size bytes whose pages are taken as they are first
// written, in huge pages from hugeInput on: room for text whose length is
// known only to be at most size, such as the lines of a patch that
// ReadPatch keeps, so that keeping few of them costs few pages and keeping
// all of them costs what ReadLimited's would.
func reserveInput(size int) (inputMemory, error) {
	m, err := unix.Mmap(-1, 0, size, unix.PROT_READ|unix.PROT_WRITE, unix.MAP_PRIVATE|unix.MAP_ANONYMOUS)
	if err == nil && size >= hugeInput {
		unix.Madvise(m, unix.MADV_HUGEPAGE) // advice: small pages serve without it
	}
	return inputMemory{m}, err
}

func (m *inputMemory) bytes() []byte { return m.m }

func (m *inputMemory) grow(size int) error {
	b, err := unix.Mremap(m.m, size, unix.MREMAP_MAYMOVE)
	if err == nil {
		m.m = b
	}
	return err
}

// shrink gives back the pages beyond the first n bytes; shrinking in place
// cannot fail for want of memory, and if it fails the mapping stays whole.
func (m *inputMemory) shrink(n int) {
	if n > 0 && n < len(m.m) {
		if b, err := unix.Mremap(m.m, n, 0); err == nil {
			m.m = b
		}
	}
}

func (m *inputMemory) free() error {
	if m.m == nil {
		return nil
	}
	err := unix.Munmap(m.m)
	m.m = nil
	return err
}

// newInputBudget measures the address space left under RLIMIT_AS: the
// soft limit less the process's size now (/proc/self/statm, in pages).
func newInputBudget() inputBudget {
	var lim unix.Rlimit
	if err := unix.Getrlimit(unix.RLIMIT_AS, &lim); err != nil || lim.Cur == unix.RLIM_INFINITY || lim.Cur > 1<<62 {
		return inputBudget{unlimited: true}
	}
	used := int64(0)
	if b, err := os.ReadFile("/proc/self/statm"); err == nil {
		if f := bytes.Fields(b); len(f) > 0 {
			pages, _ := strconv.ParseInt(string(f[0]), 10, 64)
			used = pages * int64(os.Getpagesize())
		}
	}
	return inputBudget{left: int64(lim.Cur) - used}
}
