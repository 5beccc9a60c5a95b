// Command blockpatch-conformance certifies a blockpatch implementation
// against the conformance cases; see usage.go, or run it with -h.
//
// Started as blockpatch (by that name, or with
// BLOCKPATCH_CONFORMANCE_AS_REFERENCE=1) it is the reference CLI instead,
// which --reference-exec relies on.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// Exit statuses.
const (
	exitOK        = 0 // every selected case passed or was skipped
	exitFailed    = 1 // some case failed
	exitCannotRun = 2 // bad flags, cases that do not load, nothing selected, no implementation
)

func main() {
	if embedded.AsReference(os.Args[0]) {
		os.Exit(embedded.Main(os.Args[1:]))
	}
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, isTerminal(os.Stderr)))
}

// list is a repeatable string flag.
type list []string

func (l *list) String() string     { return strings.Join(*l, ",") }
func (l *list) Set(s string) error { *l = append(*l, s); return nil }

// options are the command line's settings.
type options struct {
	run, skip, skipFile, profile, format string
	dirs, require                        list
	noCorpus, derived, keep, refExec     bool
	noIsolation                          bool
	verbose                              bool
	parallel                             int
	timeout                              time.Duration
	seed                                 uint64
}

// flags defines the command line; usage.go describes every flag.
func flags(o *options) *flag.FlagSet {
	fs := flag.NewFlagSet("blockpatch-conformance", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&o.run, "run", "", "")
	fs.StringVar(&o.skip, "skip", "", "")
	fs.StringVar(&o.skipFile, "skip-file", "", "")
	fs.Var(&o.dirs, "cases", "")
	fs.BoolVar(&o.noCorpus, "no-corpus", false, "")
	fs.BoolVar(&o.derived, "derived", false, "")
	fs.StringVar(&o.profile, "profile", spec.Profiles[len(spec.Profiles)-1], "")
	fs.Var(&o.require, "require", "")
	fs.IntVar(&o.parallel, "parallel", runtime.NumCPU(), "")
	fs.DurationVar(&o.timeout, "timeout", runner.DefaultTimeout, "")
	fs.Uint64Var(&o.seed, "seed", 0, "")
	fs.BoolVar(&o.keep, "keep", false, "")
	fs.BoolVar(&o.noIsolation, "no-isolation", false, "")
	fs.BoolVar(&o.refExec, "reference-exec", false, "")
	fs.StringVar(&o.format, "format", "human", "")
	fs.BoolVar(&o.verbose, "v", false, "")
	return fs
}

func run(args []string, stdout, stderr io.Writer, tty bool) int {
	fail := func(err error) int {
		fmt.Fprintf(stderr, "blockpatch-conformance: %v\n", err)
		return exitCannotRun
	}
	var o options
	fs := flags(&o)
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return exitOK
		}
		return fail(fmt.Errorf("%v (run with -h for help)", err))
	}
	if !slices.Contains(runner.Formats, o.format) {
		return fail(fmt.Errorf("unknown --format %q: the formats are %s", o.format, strings.Join(runner.Formats, ", ")))
	}
	impl, err := implementation(fs.Args(), o.refExec)
	if err != nil {
		return fail(err)
	}
	r := blockpatch.New(impl)
	if o.noCorpus {
		r.Sources = nil
	}
	for _, d := range o.dirs {
		r.Sources = append(r.Sources, blockpatch.Dir(d))
	}
	if r.RunRegexp, err = compile("-run", o.run); err != nil {
		return fail(err)
	}
	if r.SkipRegexp, err = compile("-skip", o.skip); err != nil {
		return fail(err)
	}
	if o.skipFile != "" {
		if r.SkipList, err = runner.ReadSkipList(o.skipFile); err != nil {
			return fail(err)
		}
	}
	for _, l := range o.require {
		r.Require = append(r.Require, cases.Level(l))
	}
	r.Profile, r.Parallel, r.Timeout, r.Seed, r.Keep, r.Derived = o.profile, o.parallel, o.timeout, o.seed, o.keep, o.derived
	r.NoIsolation = o.noIsolation
	r.Rerun = func(name string, seed uint64) string { return rerun(args, fs.Args(), name, seed) }
	if tty {
		r.Progress = func(p runner.Progress) { fmt.Fprintf(stderr, "\r\033[K%s", p.Line(100)) }
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	rep, err := r.Run(ctx)
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return fail(err)
	}
	if err := rep.Write(stdout, o.format, o.verbose); err != nil {
		return fail(err)
	}
	if !rep.OK() {
		return exitFailed
	}
	return exitOK
}

// implementation is the command line given, or the embedded reference.
func implementation(argv []string, refExec bool) (runner.Implementation, error) {
	switch {
	case len(argv) > 0 && refExec:
		return nil, errors.New("--reference-exec certifies the embedded reference; give no implementation with it")
	case len(argv) > 0:
		return runner.NewCommand(argv)
	case refExec:
		return embedded.Process()
	}
	return embedded.Reference(), nil
}

func compile(flagName, expr string) (*regexp.Regexp, error) {
	if expr == "" {
		return nil, nil
	}
	re, err := regexp.Compile(expr)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", flagName, err)
	}
	return re, nil
}

// rerun is the command line that runs one case again, in the same order,
// keeping its folder: the original flags without -run/-skip/--seed/--keep.
func rerun(args, impl []string, name string, seed uint64) string {
	flags := args[:len(args)-len(impl)]
	var kept []string
	for i := 0; i < len(flags); i++ {
		a := flags[i]
		name, _, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
		switch name {
		case "run", "skip", "seed":
			if !hasValue {
				i++
			}
			continue
		case "keep", "":
			continue
		}
		kept = append(kept, a)
	}
	line := []string{"blockpatch-conformance", "-run", "^" + regexp.QuoteMeta(name) + "$", "--seed", fmt.Sprint(seed), "--keep"}
	line = append(line, kept...)
	if len(impl) > 0 {
		line = append(append(line, "--"), impl...)
	}
	return runner.ShellJoin(line)
}

func isTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}
