package fuzz

import (
	"context"
	"flag"
	"fmt"
	"io"
	"os"
	"regexp"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// The planted-bug benchmark (Magma-style): every hand-written mutant of
// internal/mutants, a realistic implementer mistake, is built as the
// mutant campaign builds it and run against the reference at a fixed seed,
// iteration after iteration as one campaign worker runs them, until the
// first disagreement. Iterations are exact and reproducible; seconds
// depend on the machine and its load.

// BenchSeed is the benchmark's fixed seed, and BenchLimit the iterations
// after which a mutant counts as not found (issue 28's bound).
const (
	BenchSeed  = 20251202
	BenchLimit = 1000
)

// Bench is one run of the planted-bug benchmark.
type Bench struct {
	Seed uint64
	// Limit is the number of iterations tried per mutant.
	Limit int64
	// Run selects mutants by name; nil is all.
	Run *regexp.Regexp
	// Parallel is the number of mutants run at once.
	Parallel int
	// Timeout bounds each command.
	Timeout time.Duration
	// TempDir holds the binaries and the work folders.
	TempDir string
	// Log receives one line per mutant as it ends; nil is none.
	Log io.Writer
}

// BenchRow is one mutant's result.
type BenchRow struct {
	Mutant, Mistake string
	// Found says whether a disagreement came up within the limit;
	// Iterations is the number run up to and including the first one (the
	// limit when none did), Elapsed the time they took.
	Found      bool
	Iterations int64
	Elapsed    time.Duration
	// Kind is the first disagreement's step and kind.
	Kind string
}

// RunBench builds every selected hand-written mutant and runs it until its
// first disagreement. Its error is a harness fault (a mutant that no
// longer applies or builds counts as one: the benchmark must cover them
// all).
func RunBench(ctx context.Context, b Bench) ([]BenchRow, error) {
	ms, err := mutants.Hand()
	if err != nil {
		return nil, err
	}
	if b.Run != nil {
		ms = slices.DeleteFunc(ms, func(m mutants.Mutant) bool { return !b.Run.MatchString(m.Name) })
	}
	root, err := mutants.ModuleRoot()
	if err != nil {
		return nil, err
	}
	if b.Limit <= 0 {
		b.Limit = BenchLimit
	}
	dir, err := os.MkdirTemp(b.TempDir, "blockpatch-bench-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	b.TempDir = dir
	builder := &mutants.Builder{Module: root, Dir: dir}
	var (
		mu    sync.Mutex
		rows  []BenchRow
		first error
	)
	builder.Each(ctx, ms, b.Parallel, func(m mutants.Mutant, impl *runner.Command, err error) {
		var row BenchRow
		if err == nil {
			row, err = b.one(ctx, m, impl)
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			if first == nil {
				first = fmt.Errorf("mutant %s: %w", m.Name, err)
			}
			return
		}
		rows = append(rows, row)
		if b.Log != nil {
			fmt.Fprintln(b.Log, row.line())
		}
	})
	if first != nil {
		return nil, first
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(rows, func(a, b BenchRow) int { return strings.Compare(a.Mutant, b.Mutant) })
	return rows, nil
}

// one runs the iterations 0, 1, ... of the seed on one mutant, as a
// campaign with one worker does, until the first disagreement.
func (b Bench) one(ctx context.Context, m mutants.Mutant, impl *runner.Command) (BenchRow, error) {
	cfg := NewConfig(FromRunner(impl))
	cfg.Reference, cfg.TempDir = Reference(), b.TempDir
	if b.Timeout > 0 {
		cfg.Timeout = b.Timeout
	}
	w, err := newWorker(&cfg)
	if err != nil {
		return BenchRow{}, err
	}
	defer w.Close()
	row := BenchRow{Mutant: m.Name, Mistake: m.Mistake}
	start := time.Now()
	for k := range b.Limit {
		o, err := w.Run(ctx, gen.Random(gen.NewRand(b.Seed, uint64(k)), cfg.Options))
		if err != nil {
			return row, err
		}
		row.Iterations = k + 1
		if d := o.Differences(); len(d) > 0 {
			row.Found, row.Kind = true, d[0].Key()
			break
		}
	}
	row.Elapsed = time.Since(start)
	return row, nil
}

func (r BenchRow) line() string {
	if !r.Found {
		return fmt.Sprintf("%-30s NOT FOUND in %d iterations (%.1f s)", r.Mutant, r.Iterations, r.Elapsed.Seconds())
	}
	return fmt.Sprintf("%-30s found at iteration %d (%.1f s): %s", r.Mutant, r.Iterations, r.Elapsed.Seconds(), r.Kind)
}

// BenchMedian is the median of the iterations to the first disagreement,
// a mutant not found counting as its limit.
func BenchMedian(rows []BenchRow) float64 {
	if len(rows) == 0 {
		return 0
	}
	its := make([]int64, len(rows))
	for i, r := range rows {
		its[i] = r.Iterations
	}
	slices.Sort(its)
	n := len(its)
	if n%2 == 1 {
		return float64(its[n/2])
	}
	return float64(its[n/2-1]+its[n/2]) / 2
}

// BenchTable renders rows as the markdown table of fuzz/README.md: one
// row per mutant, then the counts and the median.
func BenchTable(rows []BenchRow, limit int64) string {
	var b strings.Builder
	b.WriteString("| mutant | found | iterations | seconds | first disagreement |\n| --- | --- | ---: | ---: | --- |\n")
	found, over := 0, 0
	for _, r := range rows {
		f, kind := "yes", strings.ReplaceAll(r.Kind, "|", "\\|")
		if !r.Found {
			f, kind = "**no**", "none in "+fmt.Sprint(limit)
		} else {
			found++
		}
		if r.Iterations > 100 {
			over++
		}
		fmt.Fprintf(&b, "| `%s` | %s | %d | %.1f | %s |\n", r.Mutant, f, r.Iterations, r.Elapsed.Seconds(), kind)
	}
	fmt.Fprintf(&b, "\n%d of %d found within %d iterations; median %.1f iterations; %d above 100.\n",
		found, len(rows), limit, BenchMedian(rows), over)
	return b.String()
}

// BenchTableMutants lists the mutant names of a table BenchTable wrote,
// in order.
func BenchTableMutants(table string) []string {
	var out []string
	for _, l := range strings.Split(table, "\n") {
		if rest, ok := strings.CutPrefix(l, "| `"); ok {
			if name, _, ok := strings.Cut(rest, "`"); ok {
				out = append(out, name)
			}
		}
	}
	return out
}

const benchUsage = `usage: NAME bench-mutants [flags]

The planted-bug benchmark: builds every hand-written mutant of
internal/mutants (run it inside the module's checkout) and runs each
against the reference at a fixed seed, one iteration after another, until
the first disagreement. Prints a markdown table: per mutant, found or not,
the iterations and the seconds to the first disagreement, and the median.
Iterations are exact; seconds depend on the machine's load.

Flags:
  --seed N        the seed (default 20251202)
  --limit N       iterations tried per mutant (default 1000)
  --run REGEXP    only the mutants whose names match
  --parallel N    mutants built and run at once (default 2)
  --timeout D     limit for one command (default 10s)
`

// benchMain is the bench-mutants subcommand: exit 0 when every mutant is
// found, 1 when one is not, 2 on a usage or harness error.
func benchMain(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	usage := strings.ReplaceAll(benchUsage, "NAME", name)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	seed := fs.Uint64("seed", BenchSeed, "")
	limit := fs.Int64("limit", BenchLimit, "")
	run := fs.String("run", "", "")
	parallel := fs.Int("parallel", 2, "")
	timeout := fs.Duration("timeout", 10*time.Second, "")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		fmt.Fprintf(stderr, "%s bench-mutants: bad arguments %q\n\n%s", name, args, usage)
		return 2
	}
	b := Bench{Seed: *seed, Limit: *limit, Parallel: *parallel, Timeout: *timeout, Log: stderr}
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintf(stderr, "%s bench-mutants: --run: %v\n", name, err)
			return 2
		}
		b.Run = re
	}
	rows, err := RunBench(ctx, b)
	if err != nil {
		fmt.Fprintf(stderr, "%s bench-mutants: %v\n", name, err)
		return 2
	}
	fmt.Fprintf(stdout, "seed %d, limit %d iterations per mutant, %s\n\n", b.Seed, b.Limit, time.Now().UTC().Format("2006-01-02"))
	fmt.Fprint(stdout, BenchTable(rows, b.Limit))
	for _, r := range rows {
		if !r.Found {
			return 1
		}
	}
	return 0
}
