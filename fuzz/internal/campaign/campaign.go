package campaign

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
)

// Difference is one way an implementation's answer differs from the
// reference's.
type Difference struct {
	// Step is the protocol step: check, apply, retry, reverse, plan,
	// apply planned patch, move (blockpatch); apply (PatchDIFF).
	Step string
	// Kind classifies the difference for grouping and for shrinking:
	// "exit 0 -> exit 1 source_not_found", "code source_ambiguous ->
	// source_not_found", "failure_reason match_ambiguous ->
	// disambiguation_invalid", "change_facts".
	Kind string
	// Detail shows both sides.
	Detail string
}

// Key is the difference's group: step and kind.
func (d Difference) Key() string { return d.Step + ": " + d.Kind }

func (d Difference) String() string { return d.Key() + " (" + d.Detail + ")" }

// Config is the protocol-neutral part of a campaign's settings.
type Config struct {
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
	// Workers run iterations in parallel; 0 means 1.
	Workers int
	// ShrinkBudget is the number of candidate scenarios tried to shrink
	// one disagreement; MaxCasesPerKind the number of disagreements of one
	// kind that are shrunk and written (the rest are counted).
	ShrinkBudget, MaxCasesPerKind int
	// ShrinkTime bounds the time spent shrinking one disagreement; 0
	// means no bound. A campaign with a Duration also stops shrinking when
	// that time is up, so a slow implementation cannot stretch the run.
	ShrinkTime time.Duration
	// Progress receives a live progress line, rewritten in place with
	// "\r"; nil shows none. Log receives one line per written case.
	Progress, Log io.Writer
}

// Defaults are the settings NewConfig of each suite starts from.
func Defaults() Config {
	return Config{Shards: 1, Workers: 1, ShrinkBudget: 250, MaxCasesPerKind: 3, ShrinkTime: 10 * time.Second}
}

// Suite is what a suite brings to a campaign over scenarios of type S.
type Suite[S any] struct {
	// Random draws iteration k's scenario from the seed alone.
	Random func(seed uint64, k int64) S
	// Shrink lists smaller scenarios, the most promising first; each must
	// be strictly smaller in some measure, so repeated shrinking ends.
	Shrink func(S) []S
	// NewTrial prepares one worker (its folders, its sessions).
	NewTrial func() (Trial[S], error)
}

// Trial runs scenarios for one worker.
type Trial[S any] interface {
	// Run runs s on the reference and the implementation and compares
	// them. Its error is a harness fault; disagreements are the Outcome's.
	Run(ctx context.Context, s S) (Outcome, error)
	// Close releases the worker's folders and sessions.
	Close() error
}

// Outcome is one scenario run on both sides.
type Outcome interface {
	// Differences lists what differed, the first difference first.
	Differences() []Difference
	// Scenario shows the scenario for people.
	Scenario() string
	// CaseFile renders the case of a disagreement named name, found at
	// iteration k of seed: its path below the output folder and its bytes,
	// checked to load as the suite's runner will load them.
	CaseFile(name string, seed uint64, k int64) (path string, data []byte, err error)
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

// Name is the kind as a name a known-deviation list can match
// (cases/known): "fuzz/" and the slug of its key, such as
// "fuzz/plan-code-target-overlaps-source".
func (k *Kind) Name() string { return "fuzz/" + Slug(k.Key) }

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

// campaign is a running Run.
type campaign[S any] struct {
	cfg   Config
	suite Suite[S]
	mu    sync.Mutex
	kinds map[string]*Kind
	// reserved counts the cases being shrunk or written per kind.
	reserved map[string]int
	ran      []int64
	iters    atomic.Int64
	found    atomic.Int64
	errs     []error
	// end is when a campaign with a Duration is over (zero without one).
	end time.Time
}

// Run runs a differential campaign. Its error is a harness fault (an
// implementation that cannot be run, a folder that cannot be written, an
// invalid configuration); disagreements are in the Report.
func Run[S any](ctx context.Context, cfg Config, suite Suite[S]) (*Report, error) {
	cfg.Shards = max(cfg.Shards, 1)
	if cfg.Shard < 0 || cfg.Shard >= cfg.Shards {
		return nil, fmt.Errorf("shard %d/%d: want 0 <= i < n", cfg.Shard, cfg.Shards)
	}
	if cfg.Iterations <= 0 && cfg.Duration <= 0 && len(cfg.Replay) == 0 {
		return nil, errors.New("set a number of iterations or a duration")
	}
	cfg.Workers = max(cfg.Workers, 1)
	if cfg.Out != "" {
		if err := os.MkdirAll(cfg.Out, 0o755); err != nil {
			return nil, err
		}
	}
	c := &campaign[S]{cfg: cfg, suite: suite, kinds: map[string]*Kind{}, reserved: map[string]int{}}
	start := time.Now()
	if cfg.Duration > 0 {
		c.end = start.Add(cfg.Duration)
	}
	indices := make(chan int64)
	stopProducing := make(chan struct{})
	var stopOnce sync.Once
	stop := func() { stopOnce.Do(func() { close(stopProducing) }) }
	go c.produce(ctx, indices, stopProducing)

	progressDone := make(chan struct{})
	if cfg.Progress != nil {
		go c.progress(start, progressDone)
	}
	var wg sync.WaitGroup
	for range cfg.Workers {
		wg.Go(func() {
			if err := c.work(ctx, indices); err != nil {
				c.mu.Lock()
				c.errs = append(c.errs, err)
				c.mu.Unlock()
				stop()
				for range indices { // drain
				}
			}
		})
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

// produce sends the iterations of this shard, or the replayed ones, until
// the space, the time or the context ends, or stop closes.
func (c *campaign[S]) produce(ctx context.Context, indices chan<- int64, stop <-chan struct{}) {
	defer close(indices)
	cfg := &c.cfg
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
		case <-stop:
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
}

func (c *campaign[S]) progress(start time.Time, done <-chan struct{}) {
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

func (c *campaign[S]) work(ctx context.Context, indices <-chan int64) (err error) {
	tr, err := c.suite.NewTrial()
	if err != nil {
		return err
	}
	defer func() {
		if cerr := tr.Close(); err == nil {
			err = cerr
		}
	}()
	for k := range indices {
		if err := c.iteration(ctx, tr, k); err != nil {
			if ctx.Err() != nil {
				return nil
			}
			return fmt.Errorf("iteration %d: %w", k, err)
		}
	}
	return nil
}

func (c *campaign[S]) iteration(ctx context.Context, tr Trial[S], k int64) error {
	s := c.suite.Random(c.cfg.Seed, k)
	o, err := tr.Run(ctx, s)
	if err != nil {
		return err
	}
	c.iters.Add(1)
	c.mu.Lock()
	if c.cfg.Iterations > 0 || len(c.cfg.Replay) > 0 {
		c.ran = append(c.ran, k)
	}
	diffs := o.Differences()
	if len(diffs) == 0 {
		c.mu.Unlock()
		return nil
	}
	c.found.Add(1)
	key := diffs[0].Key()
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
	var until time.Time
	if c.cfg.ShrinkTime > 0 {
		until = time.Now().Add(c.cfg.ShrinkTime)
	}
	if !c.end.IsZero() && (until.IsZero() || c.end.Before(until)) {
		until = c.end
	}
	small, tried := Minimize(s, c.suite.Shrink, c.cfg.ShrinkBudget, until, func(s S) bool {
		if failure != nil {
			return false
		}
		o, err := tr.Run(ctx, s)
		if err != nil {
			failure = err
			return false
		}
		d := o.Differences()
		return len(d) > 0 && d[0].Key() == key
	})
	if failure != nil {
		return failure
	}
	final, err := tr.Run(ctx, small)
	if err != nil {
		return err
	}
	if d := final.Differences(); len(d) == 0 || d[0].Key() != key {
		final = o // the disagreement is not deterministic: keep the original
	}
	f := &Found{Iteration: k, Difference: final.Differences()[0], Scenario: final.Scenario(), Tried: tried}
	if c.cfg.Out != "" {
		if f.Case, err = c.write(k, final, f.Difference); err != nil {
			return err
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	kind.Cases = append(kind.Cases, f)
	if c.cfg.Log != nil {
		where := f.Case
		if where == "" {
			where = "iteration " + fmt.Sprint(k)
		}
		fmt.Fprintf(c.cfg.Log, "%s: %s\n", where, f.Difference)
	}
	return nil
}

// write writes the case of a disagreement below Out and returns its path.
func (c *campaign[S]) write(k int64, o Outcome, d Difference) (string, error) {
	name := fmt.Sprintf("%s-s%d-i%d", Slug(d.Key()), c.cfg.Seed, k)
	rel, data, err := o.CaseFile(name, c.cfg.Seed, k)
	if err != nil {
		return "", fmt.Errorf("case %s: %w", name, err)
	}
	path := filepath.Join(c.cfg.Out, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return "", err
	}
	return path, os.WriteFile(path, data, 0o644)
}

// Minimize shrinks s greedily while keep holds, trying at most budget
// candidates from shrink and none after until (zero: no time bound), and
// returns the smallest scenario found and the number of candidates tried.
func Minimize[S any](s S, shrink func(S) []S, budget int, until time.Time, keep func(S) bool) (S, int) {
	tried := 0
	for {
		progress := false
		for _, c := range shrink(s) {
			if tried >= budget || (!until.IsZero() && time.Now().After(until)) {
				return s, tried
			}
			tried++
			if keep(c) {
				s, progress = c, true
				break
			}
		}
		if !progress {
			return s, tried
		}
	}
}

var unsafe = regexp.MustCompile(`[^a-z0-9]+`)

// Slug makes a file name of a difference key: lower-case words joined by
// "-", at most 80 bytes.
func Slug(s string) string {
	s = strings.ReplaceAll(strings.ToLower(s), "->", " to ")
	s = strings.Trim(unsafe.ReplaceAllString(s, "-"), "-")
	if len(s) > 80 {
		s = strings.TrimRight(s[:80], "-")
	}
	return s
}

// String is the Summary.
func (r *Report) String() string {
	var b strings.Builder
	r.Summary(&b)
	return b.String()
}
