package runner

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"
	"strings"
)

// CorpusHash gathers the cases a run loads from its sources: it refuses a
// name loaded from two sources and sums every case file with its name, so
// the certificate names exactly the corpus it ran.
type CorpusHash struct {
	from  map[string]string
	lines []string
}

// Add records the case name, loaded from source with the case file data.
func (h *CorpusHash) Add(name, source string, data []byte) error {
	if h.from == nil {
		h.from = map[string]string{}
	}
	if other, dup := h.from[name]; dup {
		return fmt.Errorf("case %s is in both %s and %s", name, other, source)
	}
	h.from[name] = source
	sum := sha256.Sum256(data)
	h.lines = append(h.lines, hex.EncodeToString(sum[:])+" "+name+"\n")
	return nil
}

// Sum is the SHA-256 over the sorted lines "<file sha256> <name>".
func (h *CorpusHash) Sum() string {
	lines := slices.Clone(h.lines)
	slices.SortFunc(lines, func(a, b string) int {
		return strings.Compare(a[65:], b[65:])
	})
	sum := sha256.New()
	for _, l := range lines {
		sum.Write([]byte(l))
	}
	return hex.EncodeToString(sum.Sum(nil))
}
