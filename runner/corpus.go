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

// Loaded is a case of any suite with the label of the source it came
// from.
type Loaded[C any] struct {
	Case   C
	Source string
}

// Gather loads the cases of n sources: load returns source i's label and
// cases, file a case's name and the bytes of its case file. It refuses a
// name loaded twice and returns the cases sorted by name, with the corpus
// hash.
func Gather[C any](n int, load func(i int) (string, []C, error), file func(i int, c C) (string, []byte, error)) ([]Loaded[C], string, error) {
	var out []Loaded[C]
	var names []string
	var hash CorpusHash
	for i := range n {
		label, cs, err := load(i)
		if err != nil {
			return nil, "", fmt.Errorf("loading cases from %s: %w", label, err)
		}
		for _, c := range cs {
			name, data, err := file(i, c)
			if err != nil {
				return nil, "", err
			}
			if err := hash.Add(name, label, data); err != nil {
				return nil, "", err
			}
			out = append(out, Loaded[C]{c, label})
			names = append(names, name)
		}
	}
	order := make([]int, len(out))
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(names[a], names[b]) })
	sorted := make([]Loaded[C], len(out))
	for i, j := range order {
		sorted[i] = out[j]
	}
	return sorted, hash.Sum(), nil
}

// Merge adds the cases more (generated ones) to all, in name order,
// outside the corpus hash; a name both hold is an error.
func Merge[C any](all, more []Loaded[C], name func(C) string) ([]Loaded[C], error) {
	if len(more) == 0 {
		return all, nil
	}
	out := slices.Concat(all, more)
	slices.SortFunc(out, func(a, b Loaded[C]) int { return strings.Compare(name(a.Case), name(b.Case)) })
	for i := 1; i < len(out); i++ {
		if name(out[i].Case) == name(out[i-1].Case) {
			return nil, fmt.Errorf("case %s is both loaded and generated: rename the loaded one, or generate none", name(out[i].Case))
		}
	}
	return out, nil
}
