package fuzz

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// largeOutput is the output kept of a command in a --large campaign: plan's
// JSON of a move of most of a 4 MiB pad, with room to spare.
const largeOutput = 64 << 20

// Main is the command line of Campaign: it parses args (the arguments
// after the command's name, which is name in messages and usage), runs the
// campaign (or, given bench-mutants first, the planted-bug benchmark)
// and returns the exit status: 0 no disagreement, 1 disagreements
// found, 2 usage or harness error. cmd/blockpatch-fuzz is a thin wrapper;
// another command can offer it as a subcommand.
func Main(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "bench-mutants" {
		return benchMain(ctx, name, args[1:], stdout, stderr)
	}
	if len(args) == 1 && args[0] == "coverage" {
		io.WriteString(stdout, Coverage())
		return 0
	}
	var casesFormat, large *bool
	var refPath *string
	return campaign.Command{
		Name: name, Usage: usage,
		Flags: func(fs *flag.FlagSet) {
			casesFormat = fs.Bool("cases-format", false, "")
			large = fs.Bool("large", false, "")
			refPath = fs.String("reference", "", "")
		},
		Start: func(argv []string, common campaign.Config, timeout time.Duration) (func(context.Context) (*Report, error), error) {
			impl, err := runner.NewCommand(argv)
			if err != nil {
				return nil, err
			}
			cfg := NewConfig(FromRunner(impl))
			if *refPath != "" {
				ref, err := runner.NewCommand([]string{*refPath})
				if err != nil {
					return nil, err
				}
				cfg.Reference = FromRunner(ref)
			}
			if *large {
				cfg.Options.Large, cfg.MaxOutput = true, largeOutput
			}
			cfg.Config, cfg.Timeout, cfg.CasesFormat = common, timeout, *casesFormat
			return func(ctx context.Context) (*Report, error) { return Campaign(ctx, cfg) }, nil
		},
	}.Main(ctx, args, stdout, stderr)
}
