package campaign

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// FlagsUsage documents the flags every campaign command has, for its
// usage text.
const FlagsUsage = `  --seed N             seed of the campaign (default: the clock; printed)
  --iterations N       run the iterations 0..N-1 (those of this shard)
  --time D             run for the duration D, such as 60s or 10m
  --shard i/n          run the iterations k with k mod n = i (default 0/1);
                       every shard needs the same --seed
  --replay K[,K...]    run just these iterations of the seed
  --out DIR            write case files under DIR (default NAME-out)
  --workers N          iterations run in parallel (default: the CPUs)
  --timeout D          limit for one command or request (default 10s)
  --shrink-budget N    scenarios tried to shrink one disagreement (250)
  --shrink-time D      time spent shrinking one disagreement (10s; 0: no
                       bound); with --time, shrinking also ends with the run
  --max-cases-per-kind N
                       disagreements of one kind shrunk and written (3)
`

// Command is the command line of a campaign: the flags above, the
// implementation's command line after --, and the suite's own flags.
type Command struct {
	// Name is the command's name in messages; Usage its help text, in
	// which "NAME" is replaced by Name.
	Name, Usage string
	// Flags registers the suite's own flags.
	Flags func(fs *flag.FlagSet)
	// Start builds the campaign once the flags are parsed: argv is the
	// implementation's command line, timeout the --timeout. It returns the
	// run, or an error that is reported as a usage error.
	Start func(argv []string, cfg Config, timeout time.Duration) (func(context.Context) (*Report, error), error)
}

// MergeUsage documents the merge subcommand (MergeMain), for the usage
// text of every campaign command, which names it in its synopsis as
// "NAME merge --out DIR IN...".
const MergeUsage = `merge writes the case files of the --out folders of several runs (the
shards of one campaign, say) into DIR, a new or empty folder, each case
once: files equal but for their description are one case, and the one
with the smallest path is kept. It never follows symbolic links in the
inputs and refuses a DIR that overlaps one. Exit status 0, or 2.
`

// Main parses args (the arguments after the command's name), runs the
// campaign and returns the exit status: 0 no disagreement, 1
// disagreements found, 2 usage or harness error. "merge" as the first
// argument runs MergeMain instead.
func (c Command) Main(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	usage := strings.ReplaceAll(c.Usage, "NAME", c.Name)
	if len(args) > 0 && args[0] == "merge" {
		return MergeMain(c.Name, usage, args[1:], stdout, stderr)
	}
	fs := flag.NewFlagSet(c.Name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	seed := fs.Uint64("seed", 0, "")
	iterations := fs.Int64("iterations", 0, "")
	duration := fs.Duration("time", 0, "")
	shard := fs.String("shard", "0/1", "")
	replay := fs.String("replay", "", "")
	out := fs.String("out", c.Name+"-out", "")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "")
	timeout := fs.Duration("timeout", 10*time.Second, "")
	budget := fs.Int("shrink-budget", 250, "")
	perKind := fs.Int("max-cases-per-kind", 3, "")
	shrinkTime := fs.Duration("shrink-time", Defaults().ShrinkTime, "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	if c.Flags != nil {
		c.Flags(fs)
	}
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, c.Name+": "+format+"\n", a...)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return fail("%v\n\n%s", err, usage)
	}
	if *help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	argv := fs.Args()
	if len(argv) == 0 {
		return fail("no implementation given: put its command line after --\n\n%s", usage)
	}
	cfg := Defaults()
	var err error
	if cfg.Shard, cfg.Shards, err = ParseShard(*shard); err != nil {
		return fail("%v", err)
	}
	if cfg.Shards > 1 && *seed == 0 {
		// A seed from each shard's clock would give every shard its own
		// iteration space: the shards would no longer split one campaign.
		return fail("--shard %s needs --seed N (not 0), the same in every shard, so that the shards split one campaign", *shard)
	}
	if *replay != "" {
		for _, f := range strings.Split(*replay, ",") {
			k, err := strconv.ParseInt(strings.TrimSpace(f), 10, 64)
			if err != nil || k < 0 {
				return fail("--replay: %q is not an iteration number", f)
			}
			cfg.Replay = append(cfg.Replay, k)
		}
	}
	if *iterations <= 0 && *duration <= 0 && len(cfg.Replay) == 0 {
		return fail("give --iterations N or --time D")
	}
	cfg.Seed = *seed
	if cfg.Seed == 0 {
		cfg.Seed = uint64(time.Now().UnixNano())
	}
	cfg.Iterations, cfg.Duration, cfg.Out = *iterations, *duration, *out
	cfg.Workers, cfg.ShrinkBudget, cfg.MaxCasesPerKind, cfg.ShrinkTime = *workers, *budget, *perKind, *shrinkTime
	cfg.Log = stdout
	if isTerminal(stderr) {
		cfg.Progress = stderr
	}
	run, err := c.Start(argv, cfg, *timeout)
	if err != nil {
		return fail("%v", err)
	}
	fmt.Fprintf(stdout, "%s: seed %d, shard %d/%d, implementation %s\n", c.Name, cfg.Seed, cfg.Shard, cfg.Shards, strings.Join(argv, " "))
	report, err := run(ctx)
	if report != nil {
		report.Summary(stdout)
	}
	switch {
	case err != nil && !errors.Is(err, context.Canceled):
		return fail("%v", err)
	case report.Disagreements > 0:
		return 1
	}
	return 0
}

// ParseShard reads a shard spec "i/n": two decimal numbers, digits only
// (no sign, no blanks), with 0 <= i < n. Shard i of n takes the
// iterations k with k mod n = i, so the n shards of one seed run every
// iteration of the unsharded campaign exactly once.
func ParseShard(s string) (i, n int, err error) {
	a, b, ok := strings.Cut(s, "/")
	if ok && digits(a) && digits(b) {
		i, err1 := strconv.Atoi(a)
		n, err2 := strconv.Atoi(b)
		if err1 == nil && err2 == nil && n >= 1 && i < n {
			return i, n, nil
		}
	}
	return 0, 0, fmt.Errorf("--shard %q: want i/n, two numbers with 0 <= i < n (shard i of n, counted from 0), such as 0/4", s)
}

func digits(s string) bool {
	return s != "" && strings.Trim(s, "0123456789") == ""
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
