package pdfuzz

import (
	"context"
	"flag"
	"io"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// Main is the command line of Campaign (cmd/patchdiff-fuzz wraps it): it
// parses args, runs the campaign and returns the exit status: 0 no
// disagreement, 1 disagreements found, 2 usage or harness error.
func Main(ctx context.Context, name string, args []string, stdout, stderr io.Writer) int {
	var oneShot, noRecommended *bool
	var refPath *string
	return campaign.Command{
		Name: name, Usage: usage,
		Flags: func(fs *flag.FlagSet) {
			oneShot = fs.Bool("oneshot", false, "")
			noRecommended = fs.Bool("no-recommended", false, "")
			refPath = fs.String("reference", "", "")
		},
		Start: func(argv []string, common campaign.Config, timeout time.Duration) (func(context.Context) (*campaign.Report, error), error) {
			cmd, err := runner.NewCommand(argv)
			if err != nil {
				return nil, err
			}
			cfg := NewConfig(pdrunner.ForCommand(cmd, *oneShot))
			if *refPath != "" {
				ref, err := runner.NewCommand([]string{*refPath})
				if err != nil {
					return nil, err
				}
				cfg.Reference = pdrunner.Stream{Cmd: ref}
			}
			cfg.Config, cfg.Timeout, cfg.NoRecommended = common, timeout, *noRecommended
			return func(ctx context.Context) (*campaign.Report, error) { return Campaign(ctx, cfg) }, nil
		},
	}.Main(ctx, args, stdout, stderr)
}

const usage = `usage: NAME [flags] -- <adapter argv...>
       NAME merge --out DIR IN...

Sends generated PatchDIFF runtime calls (patchdiff-tx/1, /2 and /3 under
every profile; repeated and overlapping text, CRLF and CR, supplementary
characters, combining marks, selectors, spans and span context, scope
bounds, guards, damaged transaction text) to the applier through the
adapter protocol (spec/patchdiff/adapter.md) and to the reference, and
judges the applier's result by the case the reference's result makes.
Each disagreement is shrunk and written as a case file
(cases/patchdiff/README.md) under --out/fuzz, with a one-line summary; a
report grouping the disagreements by kind ends the run.

Exit status: 0 no disagreement, 1 disagreements found, 2 usage or harness
error.

` + campaign.MergeUsage + `
Flags:
` + campaign.FlagsUsage + `  --oneshot            run the adapter once per request (its one-shot mode)
  --no-recommended     ignore differences in what the seed leaves open
  --reference PATH     use this adapter program as the reference, not the
                       built-in one

Example:
  NAME --seed 1 --time 60s --out found -- python3 adapter.py
`
