package mutants

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Each builds every mutant, at most parallel at once, and calls f with the
// mutant's binary as a runner.Command, or with the build error (wrapping
// ErrStale or ErrBuild) and a nil command. The binary is removed when f
// returns. f is called from several goroutines.
func (b *Builder) Each(ctx context.Context, ms []Mutant, parallel int, f func(m Mutant, impl *runner.Command, err error)) {
	jobs := make(chan Mutant)
	var wg sync.WaitGroup
	for range max(parallel, 1) {
		wg.Go(func() {
			for m := range jobs {
				bin, err := b.Build(ctx, m)
				if err != nil {
					f(m, nil, err)
					continue
				}
				impl, err := runner.NewCommand([]string{bin})
				f(m, impl, err)
				os.RemoveAll(filepath.Dir(bin))
			}
		})
	}
	for _, m := range ms {
		if ctx.Err() != nil {
			break
		}
		jobs <- m
	}
	close(jobs)
	wg.Wait()
}

// Status is what became of a mutant in a campaign.
type Status string

const (
	Killed      Status = "killed"       // a case failed
	TimedOut    Status = "timed-out"    // the first failing case timed out
	Survived    Status = "survived"     // every case passed
	BuildFailed Status = "build-failed" // the mutant does not compile; not counted
	Stale       Status = "stale"        // the diff does not apply
	RunError    Status = "error"        // the runner could not judge it
)

// Record is one mutant's line in a campaign's results file.
type Record struct {
	Name    string  `json:"name"`
	Mistake string  `json:"mistake"`
	DiffSum string  `json:"diff_sha256"`
	Status  Status  `json:"status"`
	Killer  string  `json:"killer,omitempty"`
	Verdict string  `json:"verdict,omitempty"`
	Reason  string  `json:"reason,omitempty"`
	Diff    string  `json:"diff,omitempty"` // kept for survivors and errors
	Seconds float64 `json:"seconds"`
	// Reach is the number of cases reaching the site (schemata only).
	Reach int `json:"reach,omitempty"`
}

func diffSum(m Mutant) string {
	s := sha256.Sum256(m.Diff)
	return hex.EncodeToString(s[:])
}

// Campaign builds and judges mutants in parallel, stopping each at its
// first failing case. It appends a Record per mutant to its results file
// and skips the mutants already recorded there with the same diff, so an
// interrupted campaign resumes where it stopped.
type Campaign struct {
	Builder  *Builder
	Judge    Judge // FailFast is forced on
	Parallel int   // mutants built and judged at once
	// Results is the JSON-lines file of records.
	Results string
	// Progress, when set, receives one line per finished mutant.
	Progress io.Writer
	// Order lists cases to try first, ahead of those that killed mutants
	// in this campaign's results (most kills first).
	Order []string
}

// LoadRecords reads a results file; a missing file holds no record. When
// a mutant appears more than once, the last line counts.
func LoadRecords(path string) ([]Record, error) {
	f, err := os.Open(path)
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Record
	at := map[string]int{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for n := 1; sc.Scan(); n++ {
		var r Record
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			return nil, fmt.Errorf("%s:%d: %w", path, n, err)
		}
		if i, ok := at[r.Name]; ok {
			out[i] = r
			continue
		}
		at[r.Name] = len(out)
		out = append(out, r)
	}
	return out, sc.Err()
}

// Run judges the mutants not yet in the results file and returns the
// records of all of ms, in the order of ms.
func (c *Campaign) Run(ctx context.Context, ms []Mutant) ([]Record, error) {
	old, err := LoadRecords(c.Results)
	if err != nil {
		return nil, err
	}
	done := map[string]Record{}
	kills := map[string]int{}
	for _, r := range old {
		done[r.Name] = r
		if r.Killer != "" {
			kills[r.Killer]++
		}
	}
	var todo []Mutant
	for _, m := range ms {
		if r, ok := done[m.Name]; !ok || r.DiffSum != diffSum(m) {
			todo = append(todo, m)
		}
	}
	// In an order that mixes files and operators, so an interrupted
	// campaign has still sampled the whole of the code.
	slices.SortStableFunc(todo, func(a, b Mutant) int { return cmp.Compare(nameHash(a.Name), nameHash(b.Name)) })
	out, err := os.OpenFile(c.Results, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		return nil, err
	}
	defer out.Close()
	judge := c.Judge
	judge.FailFast = true
	var (
		mu       sync.Mutex
		finished int
		counts   = map[Status]int{}
		start    = time.Now()
		writeErr error
	)
	order := func() []string {
		mu.Lock()
		defer mu.Unlock()
		names := make([]string, 0, len(kills))
		for n := range kills {
			names = append(names, n)
		}
		slices.SortFunc(names, func(a, b string) int {
			if kills[a] != kills[b] {
				return kills[b] - kills[a]
			}
			return strings.Compare(a, b)
		})
		first := slices.Clone(c.Order)
		for _, n := range names {
			if len(first) >= 40 {
				break
			}
			if !slices.Contains(first, n) {
				first = append(first, n)
			}
		}
		return first
	}
	c.Builder.Each(ctx, todo, c.Parallel, func(m Mutant, impl *runner.Command, err error) {
		if ctx.Err() != nil {
			return // interrupted: not recorded, judged again next time
		}
		t0 := time.Now()
		rec := Record{Name: m.Name, Mistake: m.Mistake, DiffSum: diffSum(m)}
		switch {
		case errors.Is(err, ErrStale):
			rec.Status, rec.Reason = Stale, err.Error()
		case errors.Is(err, ErrBuild):
			rec.Status, rec.Reason = BuildFailed, firstLine(err.Error())
		case err != nil:
			rec.Status, rec.Reason = RunError, err.Error()
		default:
			jd, err := judge.Run(ctx, impl, order())
			switch {
			case ctx.Err() != nil:
				return // interrupted: not recorded, judged again next time
			case err != nil:
				rec.Status, rec.Reason = RunError, err.Error()
			case !jd.Killed():
				rec.Status = Survived
			default:
				rec.Status, rec.Killer, rec.Verdict, rec.Reason = Killed, jd.Killers[0], string(jd.Verdict), jd.Reason
				if jd.Verdict == runner.Timeout {
					rec.Status = TimedOut
				}
			}
		}
		if rec.Status == Survived || rec.Status == RunError {
			rec.Diff = string(m.Diff)
		}
		rec.Seconds = time.Since(t0).Round(10 * time.Millisecond).Seconds()
		line, _ := json.Marshal(rec)
		mu.Lock()
		defer mu.Unlock()
		if rec.Killer != "" {
			kills[rec.Killer]++
		}
		if _, err := out.Write(append(line, '\n')); err != nil && writeErr == nil {
			writeErr = err
		}
		done[m.Name] = rec
		finished++
		counts[rec.Status]++
		if c.Progress != nil {
			fmt.Fprintf(c.Progress, "[%d/%d %s] killed %d, timed out %d, survived %d, not compiling %d, errors %d | %s: %s %s\n",
				finished, len(todo), time.Since(start).Round(time.Second), counts[Killed], counts[TimedOut], counts[Survived],
				counts[BuildFailed], counts[RunError]+counts[Stale], m.Name, rec.Status, rec.Killer)
		}
	})
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if writeErr != nil {
		return nil, writeErr
	}
	recs := make([]Record, 0, len(ms))
	for _, m := range ms {
		recs = append(recs, done[m.Name])
	}
	return recs, nil
}

func firstLine(s string) string {
	for i := range len(s) {
		if s[i] == '\n' {
			return s[:i]
		}
	}
	return s
}

// WriteRecords writes recs as a results file, replacing it.
func WriteRecords(path string, recs []Record) error {
	var b bytes.Buffer
	for _, r := range recs {
		line, err := json.Marshal(r)
		if err != nil {
			return err
		}
		b.Write(append(line, '\n'))
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}
