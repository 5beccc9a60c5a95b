// Package proptest runs the gopter properties of both suites (fuzz/props
// for blockpatch, fuzz/patchdiff for PatchDIFF) the same way: a fixed seed
// so CI is reproducible, -seed to override it (0 picks one from the
// clock), -props.n to scale the number of cases, the seed and the rerun
// command printed on failure, and a minimum of cases decided by each
// property's assertion so a generator that stops reaching them fails.
package proptest

import (
	"flag"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/prop"
)

var (
	// Seed is the -seed flag of the test binary.
	Seed = flag.Int64("seed", 20251202, "seed of the properties; 0 picks one from the clock")
	// Scale is the -props.n flag: it multiplies the number of cases.
	Scale = flag.Float64("props.n", 1, "multiplies the number of cases of every property")
)

// Stats counts how a property's cases were decided: Check requires
// enough counted "decided".
type Stats struct {
	mu     sync.Mutex
	counts map[string]int
}

// Add counts one case under label.
func (s *Stats) Add(label string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.counts == nil {
		s.counts = map[string]int{}
	}
	s.counts[label]++
}

// Get returns the count of label.
func (s *Stats) Get(label string) int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.counts[label]
}

// Check runs the property condition over gens with n cases (times
// -props.n), logs its classification, and requires at least minDecided
// cases (times -props.n) counted "decided". pkg is the package path shown
// in the rerun command ("./fuzz/props").
func Check(t *testing.T, pkg string, n, minDecided int, st *Stats, condition any, gens ...gopter.Gen) {
	t.Helper()
	seed := *Seed
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = max(1, int(float64(n)**Scale))
	params.MaxShrinkCount = 400
	props := gopter.NewProperties(params)
	props.Property(t.Name(), prop.ForAll(condition, gens...))
	start := time.Now()
	ok := props.Run(gopter.NewFormatedReporter(true, 100, testWriter{t}))
	st.mu.Lock()
	t.Logf("%d cases in %v, seed %d; %v", params.MinSuccessfulTests, time.Since(start).Round(time.Millisecond), seed, st.counts)
	st.mu.Unlock()
	if !ok {
		t.Errorf("property falsified with seed %d; rerun: go test %s -run '^%s$' -seed %d", seed, pkg, t.Name(), seed)
		return
	}
	if want := int(float64(minDecided) * *Scale); st.Get("decided") < want {
		t.Errorf("only %d of %d cases were decided by the property, want at least %d: the generator no longer reaches them",
			st.Get("decided"), params.MinSuccessfulTests, want)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Helper()
	w.t.Log(strings.TrimRight(string(p), "\n"))
	return len(p), nil
}

// Shrinker is a gopter shrinker that offers the candidates shrink lists,
// in its order.
func Shrinker[S any](shrink func(S) []S) gopter.Shrinker {
	return func(v any) gopter.Shrink {
		cands := shrink(v.(S))
		return func() (any, bool) {
			if len(cands) == 0 {
				return nil, false
			}
			c := cands[0]
			cands = cands[1:]
			return c, true
		}
	}
}
