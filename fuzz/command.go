package fuzz

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

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Main is the command line of Campaign: it parses args (the arguments
// after the command's name, which is name in messages and usage), runs the
// campaign and returns the exit status: 0 no disagreement, 1 disagreements
// found, 2 usage or harness error. cmd/blockpatch-fuzz is a thin wrapper;
// another command can offer it as a subcommand.
func Main(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	usage := strings.ReplaceAll(usage, "blockpatch-fuzz", name)
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	seed := fs.Uint64("seed", 0, "")
	iterations := fs.Int64("iterations", 0, "")
	duration := fs.Duration("time", 0, "")
	shard := fs.String("shard", "0/1", "")
	replay := fs.String("replay", "", "")
	out := fs.String("out", "blockpatch-fuzz-out", "")
	casesFormat := fs.Bool("cases-format", false, "")
	workers := fs.Int("workers", runtime.GOMAXPROCS(0), "")
	timeout := fs.Duration("timeout", 10*time.Second, "")
	budget := fs.Int("shrink-budget", 250, "")
	perKind := fs.Int("max-cases-per-kind", 3, "")
	refPath := fs.String("reference", "", "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, name+": "+format+"\n", a...)
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
	impl, err := runner.NewCommand(argv)
	if err != nil {
		return fail("%v", err)
	}
	cfg := NewConfig(FromRunner(impl))
	if *refPath != "" {
		ref, err := runner.NewCommand([]string{*refPath})
		if err != nil {
			return fail("%v", err)
		}
		cfg.Reference = FromRunner(ref)
	}
	if cfg.Shard, cfg.Shards, err = parseShard(*shard); err != nil {
		return fail("%v", err)
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
	cfg.Iterations, cfg.Duration = *iterations, *duration
	cfg.Out, cfg.CasesFormat = *out, *casesFormat
	cfg.Workers, cfg.Timeout = *workers, *timeout
	cfg.ShrinkBudget, cfg.MaxCasesPerKind = *budget, *perKind
	cfg.Log = stdout
	if isTerminal(stderr) {
		cfg.Progress = stderr
	}
	fmt.Fprintf(stdout, "%s: seed %d, shard %d/%d, implementation %s\n", name, cfg.Seed, cfg.Shard, cfg.Shards, strings.Join(argv, " "))
	report, err := Campaign(ctx, cfg)
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

// parseShard reads "i/n".
func parseShard(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("--shard %q: want i/n with 0 <= i < n", s)
	}
	return i, n, nil
}

func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
