// Package schema is the run-time switch of the mutant schemata: the copy
// of reference/ that internal/mutants writes into a go build -overlay
// holds every mechanical mutant at once, each behind a test of Active, and
// calls Hit before each statement that holds a mutation site. The committed
// reference never imports this package; only the overlay does.
//
// The active mutant is read once, at start, from the environment variable
// MutantEnv (0 or unset: none, the reference as it is). Recording of the
// sites reached starts with Record; a process started as the reference
// with HitsEnv set appends the sites it reached to that file when it ends
// (WriteHits), so the cases that run the reference as a separate process
// are covered too.
package schema

import (
	"cmp"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
)

// MutantEnv names the environment variable that selects the active
// mutant by its number in the schemata.
const MutantEnv = "BLOCKPATCH_MUTANT"

// HitsEnv names the environment variable of a file a process appends the
// sites it reached to (see WriteHits).
const HitsEnv = "BLOCKPATCH_MUTANT_HITS"

// MaxSites bounds the site numbers: the schemata number sites from 1.
const MaxSites = 1 << 14

var (
	active    int
	recording atomic.Bool
	hits      [MaxSites]atomic.Bool
)

func init() {
	active, _ = strconv.Atoi(os.Getenv(MutantEnv))
	if os.Getenv(HitsEnv) != "" {
		recording.Store(true)
	}
}

// Active returns the number of the active mutant; 0 is none.
func Active() int { return active }

// SetActive makes mutant n active; only for a process that runs no
// reference code yet (the judge, before its first case).
func SetActive(n int) { active = n }

// Hit records that the statement holding site n was reached, while
// recording.
func Hit(n int) {
	if recording.Load() {
		hits[n].Store(true)
	}
}

// Record turns recording of the sites reached on or off.
func Record(on bool) { recording.Store(on) }

// TakeHits returns the sites reached since the last call, sorted, and
// forgets them.
func TakeHits() []int {
	var out []int
	for i := range hits {
		if hits[i].Load() {
			hits[i].Store(false)
			out = append(out, i)
		}
	}
	return out
}

// WriteHits appends the sites reached, one line of numbers, to the file
// HitsEnv names; without it, it does nothing.
func WriteHits() error {
	name := os.Getenv(HitsEnv)
	if name == "" {
		return nil
	}
	var b strings.Builder
	for _, n := range TakeHits() {
		fmt.Fprintf(&b, "%d ", n)
	}
	f, err := os.OpenFile(name, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o666)
	if err != nil {
		return err
	}
	_, err = f.WriteString(b.String() + "\n")
	return cmp.Or(err, f.Close())
}

// ReadHits reads and empties a hits file: every site number in it.
func ReadHits(name string) ([]int, error) {
	data, err := os.ReadFile(name)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if err := os.Truncate(name, 0); err != nil {
		return nil, err
	}
	var out []int
	for _, f := range strings.Fields(string(data)) {
		n, err := strconv.Atoi(f)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		out = append(out, n)
	}
	slices.Sort(out)
	return slices.Compact(out), nil
}
