// Command blockpatch-calibrate rewrites the expectations of a case folder to
// what an implementation does: run it with the canonical release, then
// review the diff against the documentation before committing it.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"path/filepath"
	"regexp"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/calibrate"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

const usage = `usage: blockpatch-calibrate [flags] -- <implementation argv...>

Runs the cases of --cases on the implementation and changes, in place, each
expected result or error detail that differs to the value it printed; a case
is run again after a change, until nothing changes. Error codes change only
with --codes. Differences that are not JSON values (exit status, trees,
patches) are listed for a person to decide.

Use it where the documentation is silent and the implementation is the
canonical release (see spec/README.md), then read the diff.

With --options it runs instead the option matrix (every option of the
spec's table, in every form, on every command) and prints one line per
probe: name, profile, outcome, arguments; diff two runs to compare
implementations. With --option-cases it writes the matrix's cases under
<cases>/cli/options from what the implementation does.

Flags:
`

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet("blockpatch-calibrate", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage); fs.PrintDefaults() }
	dir := fs.String("cases", "cases/testdata/corpus", "the case folder to rewrite")
	runRe := fs.String("run", "", "only the cases whose names match this regular expression")
	codes := fs.Bool("codes", false, "change error codes too")
	dry := fs.Bool("dry-run", false, "list the changes without writing them")
	rounds := fs.Int("rounds", 5, "at most this many runs")
	parallel := fs.Int("parallel", 4, "cases run at once")
	profile := fs.String("profile", "", "the profile certified (default: the newest)")
	options := fs.Bool("options", false, "print the option matrix's outcomes instead")
	optionCases := fs.Bool("option-cases", false, "write the option matrix's cases instead")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() == 0 {
		fs.Usage()
		return 2
	}
	impl, err := runner.NewCommand(fs.Args())
	if err != nil {
		fmt.Fprintln(os.Stderr, "blockpatch-calibrate:", err)
		return 2
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	switch {
	case *options:
		err = printMatrix(ctx, impl, *parallel)
	case *optionCases:
		err = writeOptionCases(ctx, impl, *dir)
	}
	if *options || *optionCases {
		if err != nil {
			fmt.Fprintln(os.Stderr, "blockpatch-calibrate:", err)
			return 1
		}
		return 0
	}
	r := blockpatch.New(impl)
	r.Sources = []blockpatch.Source{{Label: *dir, FS: os.DirFS(*dir), Root: ".", Options: cases.CorpusOptions}}
	r.Parallel = *parallel
	if *profile != "" {
		r.Profile = *profile
	}
	if *runRe != "" {
		if r.RunRegexp, err = regexp.Compile(*runRe); err != nil {
			fmt.Fprintln(os.Stderr, "blockpatch-calibrate: -run:", err)
			return 2
		}
	}
	err = calibrate.Rounds(ctx, r, *dir, calibrate.Options{Codes: *codes, DryRun: *dry}, *rounds, func(round int, edits []calibrate.Edit) {
		fmt.Printf("== round %d: %d entries\n", round, len(edits))
		for _, e := range edits {
			fmt.Println(e)
		}
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "blockpatch-calibrate:", err)
		return 1
	}
	return 0
}

func printMatrix(ctx context.Context, impl runner.Implementation, parallel int) error {
	dir, err := os.MkdirTemp("", "blockpatch-calibrate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	probes := calibrate.Matrix()
	res, err := calibrate.RunMatrix(ctx, impl, dir, probes, parallel)
	for i, p := range probes {
		fmt.Printf("%s\t%s\t%s\t%q\n", p.Name, p.Since, res[i], p.Args)
	}
	return err
}

func writeOptionCases(ctx context.Context, impl runner.Implementation, corpus string) error {
	dir, err := os.MkdirTemp("", "blockpatch-calibrate-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	files, err := calibrate.OptionCases(ctx, impl, dir)
	if err != nil {
		return err
	}
	for name, data := range files {
		path := filepath.Join(corpus, filepath.FromSlash(name), "case.json")
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return err
		}
	}
	fmt.Printf("wrote %d cases under %s\n", len(files), filepath.Join(corpus, calibrate.OptionCasesDir))
	return nil
}
