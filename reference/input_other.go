//go:build !linux

package reference

// inputMemory is Go memory on systems without mremap: growing copies, and
// the address space is not measured.
type inputMemory struct{ m []byte }

func allocInput(size int) (inputMemory, error) { return inputMemory{make([]byte, size)}, nil }

func reserveInput(size int) (inputMemory, error) { return allocInput(size) }

func (m *inputMemory) bytes() []byte { return m.m }

func (m *inputMemory) grow(size int) error {
	b := make([]byte, size)
	copy(b, m.m)
	m.m = b
	return nil
}

func (m *inputMemory) shrink(int) {}

func (m *inputMemory) free() error {
	m.m = nil
	return nil
}

// bulk returns an empty slice with room for size bytes.
func bulk(size int) []byte { return make([]byte, 0, size) }

func newInputBudget() inputBudget { return inputBudget{unlimited: true} }
