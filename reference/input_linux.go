package reference

import (
	"bytes"
	"os"
	"strconv"

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
