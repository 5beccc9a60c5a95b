package fuzz

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
)

// Config is one campaign.
type Config struct {
	// Impl is the implementation under test; Reference the oracle (nil:
	// the reference run in process).
	Impl, Reference Impl
	// Seed makes the campaign reproducible.
	Seed uint64
	// Iterations bounds the iteration space [0, Iterations) shared by all
	// shards; Duration bounds the run's time. At least one must be set.
	Iterations int64
	Duration   time.Duration
	// Replay, when not empty, runs just these iterations, whatever
	// Iterations, Duration and the shard say.
	Replay []int64
	// Shard and Shards split the iteration space: this run takes the
	// iterations k with k mod Shards = Shard. Shards 0 means 1.
	Shard, Shards int
	// Out is the folder case files are written to; empty writes none.
	Out string
	// CasesFormat adds corpus metadata (requirements, since) to the case
	// files, a guess from the error code for a reviewer to correct, and
	// checks them with cases.CorpusOptions.
	CasesFormat bool
	// Workers run iterations in parallel; 0 means 1.
	Workers int
	// Timeout bounds each command; 0 means 10s.
	Timeout time.Duration
	// ShrinkBudget is the number of candidate scenarios tried to shrink
	// one disagreement; MaxCasesPerKind the number of disagreements of one
	// kind that are shrunk and written (the rest are counted).
	ShrinkBudget, MaxCasesPerKind int
	// Options bias the generator.
	Options gen.Options
	// Progress receives a live progress line, rewritten in place with
	// "\r"; nil shows none. Log receives one line per written case.
	Progress, Log io.Writer
	// TempDir is where the work folders go; empty means os.TempDir().
	TempDir string
}

// NewConfig returns a configuration with the defaults filled in.
func NewConfig(impl Impl) Config {
	return Config{Impl: impl, Shards: 1, Workers: 1, Timeout: 10 * time.Second,
		ShrinkBudget: 250, MaxCasesPerKind: 3}
}

// Report is what a campaign found.
type Report struct {
	Seed          uint64
	Shard, Shards int
	// Iterations counts the iterations run, Disagreements those in which
	// the implementation differed from the reference.
	Iterations, Disagreements int64
	Elapsed                   time.Duration
	// Kinds groups the disagreements by their first difference (step and
	// kind), the most frequent first.
	Kinds []*Kind
	// Ran lists the iterations run, in order, when Config asked for a
	// bounded number (tests use it to check shards).
	Ran []int64
}

// Kind is one group of disagreements.
type Kind struct {
	Key   string
	Count int64
	// First is the lowest iteration that showed it.
	First int64
	// Cases are the shrunk disagreements written for it.
	Cases []*Found
}

// Found is one shrunk disagreement.
type Found struct {
	Iteration int64
	// Difference is the first difference of the shrunk scenario.
	Difference Difference
	// Scenario shows the shrunk scenario.
	Scenario string
	// Case is the case file written, or empty.
	Case string
	// Tried is the number of candidates tried while shrinking.
	Tried int
}

// Rate is the number of iterations per second.
func (r *Report) Rate() float64 {
	if r.Elapsed <= 0 {
		return 0
	}
	return float64(r.Iterations) / r.Elapsed.Seconds()
}

// Summary prints the report: the numbers, then each kind with its count
// and its case files.
func (r *Report) Summary(w io.Writer) {
	fmt.Fprintf(w, "campaign: seed %d, shard %d/%d: %d iterations in %v (%.1f/s), %d with disagreements in %d kinds\n",
		r.Seed, r.Shard, r.Shards, r.Iterations, r.Elapsed.Round(time.Millisecond), r.Rate(), r.Disagreements, len(r.Kinds))
	for _, k := range r.Kinds {
		fmt.Fprintf(w, "%8d  %s  (first: iteration %d)\n", k.Count, k.Key, k.First)
		for _, f := range k.Cases {
			where := f.Case
			if where == "" {
				where = "(not written)"
			}
			fmt.Fprintf(w, "          %s  iteration %d, shrunk in %d tries: %s\n", where, f.Iteration, f.Tried, f.Difference.Detail)
		}
	}
}

// campaign is a running Campaign.
type campaign struct {
	cfg   Config
	mu    sync.Mutex
	kinds map[string]*Kind
	// reserved counts the cases being shrunk or written per kind.
	reserved map[string]int
	ran      []int64
	iters    atomic.Int64
	found    atomic.Int64
	errs     []error
}

// Campaign runs a differential campaign. Its error is a harness fault (an
// implementation that cannot be run, a folder that cannot be written, an
// invalid configuration); disagreements are in the Report.
func Campaign(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Impl == nil {
		return nil, errors.New("no implementation to test")
	}
	if cfg.Reference == nil {
		cfg.Reference = Reference()
	}
	cfg.Shards = max(cfg.Shards, 1)
	if cfg.Shard < 0 || cfg.Shard >= cfg.Shards {
		return nil, fmt.Errorf("shard %d/%d: want 0 <= i < n", cfg.Shard, cfg.Shards)
	}
	if cfg.Iterations <= 0 && cfg.Duration <= 0 && len(cfg.Replay) == 0 {
		return nil, errors.New("set a number of iterations or a duration")
	}
	cfg.Workers = max(cfg.Workers, 1)
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return nil, err
		}
	}
	c := &campaign{cfg: cfg, kinds: map[string]*Kind{}, reserved: map[string]int{}}
	start := time.Now()
	indices := make(chan int64)
	stopProducing := make(chan struct{})
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { close(stopProducing) }) }
	go func() {
		defer close(indices)
		var deadline <-chan time.Time
		if cfg.Duration > 0 {
			t := time.NewTimer(cfg.Duration)
			defer t.Stop()
			deadline = t.C
		}
		send := func(k int64) bool {
			select {
			case indices <- k:
				return true
			case <-deadline:
			case <-stopProducing:
			case <-ctx.Done():
			}
			return false
		}
		if len(cfg.Replay) > 0 {
			for _, k := range cfg.Replay {
				if !send(k) {
					return
				}
			}
			return
		}
		for k := int64(cfg.Shard); cfg.Iterations <= 0 || k < cfg.Iterations; k += int64(cfg.Shards) {
			if !send(k) {
				return
			}
		}
	}()

	progressDone := make(chan struct{})
	if cfg.Progress != nil {
		go c.progress(start, progressDone)
	}
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if err := c.work(ctx, indices); err != nil {
				c.mu.Lock()
				c.errs = append(c.errs, err)
				c.mu.Unlock()
				stop()
				for range indices { // drain
				}
			}
		}()
	}
	wg.Wait()
	if cfg.Progress != nil {
		close(progressDone)
		fmt.Fprintln(cfg.Progress)
	}
	r := &Report{Seed: cfg.Seed, Shard: cfg.Shard, Shards: cfg.Shards, Iterations: c.iters.Load(),
		Disagreements: c.found.Load(), Elapsed: time.Since(start)}
	for _, k := range c.kinds {
		slices.SortFunc(k.Cases, func(a, b *Found) int { return int(a.Iteration - b.Iteration) })
		r.Kinds = append(r.Kinds, k)
	}
	slices.SortFunc(r.Kinds, func(a, b *Kind) int {
		if a.Count != b.Count {
			return int(b.Count - a.Count)
		}
		return strings.Compare(a.Key, b.Key)
	})
	if cfg.Iterations > 0 || len(cfg.Replay) > 0 {
		r.Ran = slices.Sorted(slices.Values(c.ran))
	}
	if len(c.errs) > 0 {
		return r, errors.Join(c.errs...)
	}
	if err := ctx.Err(); err != nil {
		return r, err
	}
	return r, nil
}

func (c *campaign) progress(start time.Time, done <-chan struct{}) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-done:
			return
		case <-t.C:
			n := c.iters.Load()
			c.mu.Lock()
			kinds := len(c.kinds)
			c.mu.Unlock()
			fmt.Fprintf(c.cfg.Progress, "\r%d iterations, %.1f/s, %d disagreements in %d kinds   ",
				n, float64(n)/time.Since(start).Seconds(), c.found.Load(), kinds)
		}
	}
}

// worker holds one worker's folders.
type worker struct {
	c        *campaign
	ref, imp *sandbox
}

func (c *campaign) work(ctx context.Context, indices <-chan int64) error {
	root, err := os.MkdirTemp(c.cfg.TempDir, "blockpatch-fuzz-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(root)
	w := &worker{c: c}
	if w.ref, err = newSandbox(filepath.Join(root, "ref")); err != nil {
		return err
	}
	if w.imp, err = newSandbox(filepath.Join(root, "impl")); err != nil {
		return err
	}
	for k := range indices {
		if err := w.iteration(ctx, k); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("iteration %d: %w", k, err)
		}
	}
	return nil
}

// outcome is one scenario run on both sides.
type outcome struct {
	sc       *gen.Scenario
	ref, imp []Step
	diffs    []Difference
}

// differences runs a Spec on the reference and the implementation.
func (w *worker) differences(ctx context.Context, s gen.Spec) (*outcome, error) {
	cfg := &w.c.cfg
	sc := gen.Build(s)
	steps := plan(sc, true)
	ref, err := run(ctx, cfg.Reference, w.ref, sc, steps, cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	if !fullProtocol(sc, ref) {
		steps = plan(sc, false)
		ref = slices.DeleteFunc(ref, func(s Step) bool { return find(steps, s.Name) == nil })
	}
	imp, err := run(ctx, cfg.Impl, w.imp, sc, steps, cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("implementation: %w", err)
	}
	return &outcome{sc: sc, ref: ref, imp: imp, diffs: compare(ref, imp)}, nil
}

// fullProtocol reports whether the reference passes the scenario, so
// that the passing protocol (retry and reverse, or the planned patch)
// applies.
func fullProtocol(sc *gen.Scenario, ref []Step) bool {
	if sc.Protocol == gen.ProtoRequest {
		return find(ref, StepPlan).Exit == 0
	}
	return find(ref, StepCheck).Exit == 0 && find(ref, StepApply).Exit == 0
}

func (w *worker) iteration(ctx context.Context, k int64) error {
	c := w.c
	spec := gen.Random(gen.NewRand(c.cfg.Seed, uint64(k)), c.cfg.Options)
	o, err := w.differences(ctx, spec)
	if err != nil {
		return err
	}
	c.iters.Add(1)
	c.mu.Lock()
	if c.cfg.Iterations > 0 || len(c.cfg.Replay) > 0 {
		c.ran = append(c.ran, k)
	}
	if len(o.diffs) == 0 {
		c.mu.Unlock()
		return nil
	}
	c.found.Add(1)
	key := o.diffs[0].Key()
	kind := c.kinds[key]
	if kind == nil {
		kind = &Kind{Key: key, First: k}
		c.kinds[key] = kind
	}
	kind.Count++
	kind.First = min(kind.First, k)
	shrink := c.reserved[key] < c.cfg.MaxCasesPerKind
	if shrink {
		c.reserved[key]++
	}
	c.mu.Unlock()
	if !shrink {
		return nil
	}

	var failure error
	small, tried := gen.Minimize(spec, c.cfg.ShrinkBudget, func(s gen.Spec) bool {
		if failure != nil {
			return false
		}
		o, err := w.differences(ctx, s)
		if err != nil {
			failure = err
			return false
		}
		return len(o.diffs) > 0 && o.diffs[0].Key() == key
	})
	if failure != nil {
		return failure
	}
	final, err := w.differences(ctx, small)
	if err != nil {
		return err
	}
	if len(final.diffs) == 0 || final.diffs[0].Key() != key {
		final = o // the disagreement is not deterministic: keep the original
	}
	f := &Found{Iteration: k, Difference: final.diffs[0], Scenario: final.sc.String(), Tried: tried}
	if c.cfg.Out != "" {
		if f.Case, err = c.write(k, final); err != nil {
			return err
		}
	}
	c.mu.Lock()
	kind.Cases = append(kind.Cases, f)
	c.mu.Unlock()
	if c.cfg.Log != nil {
		where := f.Case
		if where == "" {
			where = "iteration " + fmt.Sprint(k)
		}
		c.mu.Lock()
		fmt.Fprintf(c.cfg.Log, "%s: %s\n", where, f.Difference)
		c.mu.Unlock()
	}
	return nil
}

var unsafe = regexp.MustCompile(`[^a-z0-9]+`)

// slug makes a folder name of a difference key.
func slug(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "->", " to ")
	s = strings.Trim(unsafe.ReplaceAllString(s, "-"), "-")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	return s
}

// write writes the case of a disagreement and returns its case.json path.
func (c *campaign) write(k int64, o *outcome) (string, error) {
	d := o.diffs[0]
	name := fmt.Sprintf("%s-s%d-i%d", slug(d.Key()), c.cfg.Seed, k)
	desc := fmt.Sprintf("Found by blockpatch-fuzz (seed %d, iteration %d; %s): an implementation differed from the reference at %s: %s. "+
		"The expectations are the reference's outcomes.", c.cfg.Seed, k, strings.Join(o.sc.Notes, ", "), d.Key(), d.Detail)
	var meta *caseMeta
	if c.cfg.CasesFormat {
		meta = metaFor(o.sc, o.ref)
	}
	data, err := caseFile(o.sc, o.ref, desc, d.Step, meta)
	if err != nil {
		return "", err
	}
	if err := loadable(name, data, c.cfg.CasesFormat); err != nil {
		return "", fmt.Errorf("case %s: %w\n%s", name, err, data)
	}
	dir := filepath.Join(c.cfg.Out, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	path := filepath.Join(dir, "case.json")
	return path, os.WriteFile(path, data, 0o644)
}
