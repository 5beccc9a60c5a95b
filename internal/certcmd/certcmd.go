// Package certcmd is the command line both certifiers share
// (cmd/blockpatch-conformance and cmd/patchdiff-conformance): the flags
// that set runner.Settings, the run with its progress line, the report in
// the chosen format, the rerun command line and the exit status; and the
// subcommands (list, copy, version, compare) over the suite's catalog and
// runs. Each command adds the flags of its own suite.
package certcmd

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

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/compare"
)

// Exit statuses.
const (
	ExitOK        = 0 // every selected case passed or was skipped
	ExitFailed    = 1 // some case failed
	ExitCannotRun = 2 // bad flags, cases that do not load, nothing selected, no implementation
)

// List is a repeatable string flag.
type List []string

func (l *List) String() string     { return strings.Join(*l, ",") }
func (l *List) Set(s string) error { *l = append(*l, s); return nil }

// Flags are the settings every certifier takes on its command line.
type Flags struct {
	Name                           string // the command's name, for messages
	Run, Skip, SkipFile, Profile   string
	WriteSkipFile                  string
	PruneSkipFile                  bool
	Format                         string
	HTML, Markdown                 string
	JSON                           bool
	Cases, Env                     List
	NoCorpus, Keep, NoIsolation, V bool
	Parallel                       int
	Timeout                        time.Duration
	Seed                           uint64
}

// NewFlagSet returns a flag set named name with the shared flags defined
// on f, the profile defaulting to profile; usage text is the command's own.
func NewFlagSet(name, profile string, f *Flags) *flag.FlagSet {
	f.Name = name
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	fs.StringVar(&f.Run, "run", "", "")
	fs.StringVar(&f.Skip, "skip", "", "")
	fs.StringVar(&f.SkipFile, "skip-file", "", "")
	fs.StringVar(&f.WriteSkipFile, "write-skip-file", "", "")
	fs.BoolVar(&f.PruneSkipFile, "prune-skip-file", false, "")
	fs.StringVar(&f.HTML, "html", "", "")
	fs.StringVar(&f.Markdown, "markdown", "", "")
	fs.BoolVar(&f.JSON, "json", false, "")
	fs.Var(&f.Cases, "cases", "")
	fs.BoolVar(&f.NoCorpus, "no-corpus", false, "")
	fs.StringVar(&f.Profile, "profile", profile, "")
	fs.IntVar(&f.Parallel, "parallel", runtime.NumCPU(), "")
	fs.DurationVar(&f.Timeout, "timeout", runner.DefaultTimeout, "")
	fs.Uint64Var(&f.Seed, "seed", 0, "")
	fs.BoolVar(&f.Keep, "keep", false, "")
	fs.BoolVar(&f.NoIsolation, "no-isolation", false, "")
	fs.Var(&f.Env, "env", "")
	fs.StringVar(&f.Format, "format", "human", "")
	fs.BoolVar(&f.V, "v", false, "")
	return fs
}

// Parse parses args. It returns handled when the command line asked for
// help (usage is printed) or was wrong (the error is printed), with the
// exit status to return.
func (f *Flags) Parse(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (status int, handled bool) {
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, usage)
			return ExitOK, true
		}
		return f.Fail(stderr, fmt.Errorf("%v (run with -h for help)", err)), true
	}
	for _, name := range f.Env {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			return f.Fail(stderr, fmt.Errorf("--env %q: give a variable's name, not NAME=value", name)), true
		}
	}
	if !slices.Contains(runner.Formats, f.Format) {
		return f.Fail(stderr, fmt.Errorf("unknown --format %q: the formats are %s", f.Format, strings.Join(runner.Formats, ", "))), true
	}
	return 0, false
}

// Fail prints err as the command's error and returns ExitCannotRun.
func (f *Flags) Fail(stderr io.Writer, err error) int {
	fmt.Fprintf(stderr, "%s: %v\n", f.Name, err)
	return ExitCannotRun
}

// Settings turns the flags into the runner's settings; args is the whole
// command line and impl the implementation's part of it, for the rerun
// line of each failure.
func (f *Flags) Settings(args, impl []string) (runner.Settings, error) {
	s := runner.Settings{
		Profile: f.Profile, Parallel: f.Parallel, Timeout: f.Timeout, Seed: f.Seed,
		Keep: f.Keep, NoIsolation: f.NoIsolation,
		WriteSkipFile: f.WriteSkipFile, PruneSkipList: f.PruneSkipFile,
	}
	if f.PruneSkipFile && f.SkipFile == "" {
		return s, errors.New("--prune-skip-file needs the --skip-file to prune")
	}
	if f.Parallel < 1 {
		return s, fmt.Errorf("--parallel %d: run at least one case at a time", f.Parallel)
	}
	var err error
	if s.RunRegexp, err = compile("-run", f.Run); err != nil {
		return s, err
	}
	if s.SkipRegexp, err = compile("-skip", f.Skip); err != nil {
		return s, err
	}
	if f.SkipFile != "" {
		if s.SkipList, err = runner.ReadSkipList(f.SkipFile); err != nil {
			return s, err
		}
	}
	s.Rerun = func(name string, seed uint64) string { return rerun(f.Name, args, impl, name, seed) }
	return s, nil
}

// PassEnv lets impl's commands see the variables named with --env, besides
// runner.EnvAllowed; an implementation run in process sees everything.
func (f *Flags) PassEnv(impl runner.Implementation) {
	if c, ok := impl.(*runner.Command); ok {
		c.Pass = append(c.Pass, f.Env...)
	}
}

// Certify runs a suite with a progress line on a terminal, prints the
// report in the chosen format and returns the exit status.
func (f *Flags) Certify(s *runner.Settings, run func(context.Context) (*runner.Report, error), stdout, stderr io.Writer, tty bool) int {
	if tty {
		s.Progress = func(p runner.Progress) { fmt.Fprintf(stderr, "\r\033[K%s", p.Line(100)) }
	}
	// An interrupt, a terminal hung up or a polite kill all end the run
	// the same way: commands killed, the temp root removed, exit 2.
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	rep, err := run(ctx)
	if tty {
		fmt.Fprint(stderr, "\r\033[K")
	}
	if err != nil {
		return f.Fail(stderr, err)
	}
	if err := rep.Write(stdout, f.Format, f.V); err != nil {
		return f.Fail(stderr, err)
	}
	if err := f.writeMatrix(compare.Build([]compare.Column{{Name: rep.Certificate.Implementation.Name}}, []*runner.Report{rep})); err != nil {
		return f.Fail(stderr, err)
	}
	if !rep.OK() {
		return ExitFailed
	}
	return ExitOK
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
func rerun(command string, args, impl []string, name string, seed uint64) string {
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
		case "keep", "prune-skip-file", "":
			continue
		case "write-skip-file", "html", "markdown":
			if !hasValue {
				i++
			}
			continue
		}
		kept = append(kept, a)
	}
	line := []string{command, "-run", "^" + regexp.QuoteMeta(name) + "$", "--seed", fmt.Sprint(seed), "--keep"}
	line = append(line, kept...)
	if len(impl) > 0 {
		line = append(append(line, "--"), impl...)
	}
	return runner.ShellJoin(line)
}

// IsTerminal reports whether f is a terminal, where a progress line helps.
func IsTerminal(f *os.File) bool {
	info, err := f.Stat()
	return err == nil && info.Mode()&os.ModeCharDevice != 0
}

// The parts of the help text that describe the shared flags, for each
// command's usage to include.
const (
	// SelectUsage describes the selection flags.
	SelectUsage = `  -run REGEXP         run only the cases whose names match (partial)
  -skip REGEXP        leave out the cases whose names match (partial)
  --skip-file FILE    cases expected to fail, one "NAME REASON" per line;
                      a listed case that fails counts as skipped; a stale
                      entry (its cases passed, or it matches no case)
                      fails the run
  --prune-skip-file   remove the stale entries from the --skip-file
                      instead, comments and other lines kept
  --write-skip-file F write every case that failed, with its reason, to F
                      as a skip file the next run accepts
`
	// EnvUsage describes --env.
	EnvUsage = `  --env NAME          let the implementation see the variable NAME of this
                      environment (repeatable); it sees only PATH, LANG,
                      LC_ALL, TZ, and HOME and TMPDIR set to a folder of
                      its own
`
	// OutputUsage describes the report flags.
	OutputUsage = `Output:
  --format FORMAT     human, tap, junit or json (default human)
  -v                  list every case, not only the failures, and show
                      warnings
  --html FILE         also write the results as a static HTML page
                      (filters, failures with their diffs); compare: the
                      matrix of every implementation
  --markdown FILE     also write them as a Markdown table (compare: to
                      stdout when not given)
  -json               list: one JSON object per case, one a line
`
	// ExitUsage describes the exit statuses.
	ExitUsage = `Exit status: 0 when no case failed, 1 when some case failed, 2 when the
run could not be done (bad flags, cases that do not load, no case
selected, an implementation that cannot be started).
`
)

// UsageProblems checks a command's help text against its flags: every
// flag described, lines that fit a terminal, no tabs or trailing spaces,
// exactly one final newline.
func UsageProblems(fs *flag.FlagSet, usage string) []string {
	var out []string
	fs.VisitAll(func(f *flag.Flag) {
		dashes := "--"
		if len(f.Name) <= 4 && f.Name != "keep" && f.Name != "seed" && f.Name != "env" && f.Name != "html" {
			dashes = "-" // -run, -skip, -v, as go test spells them
		}
		if !strings.Contains(usage, "  "+dashes+f.Name+" ") && !strings.Contains(usage, "  "+dashes+f.Name+"\n") {
			out = append(out, fmt.Sprintf("usage does not describe %s%s", dashes, f.Name))
		}
	})
	for i, line := range strings.Split(strings.TrimSuffix(usage, "\n"), "\n") {
		if len([]rune(line)) > 80 {
			out = append(out, fmt.Sprintf("line %d is %d columns: %q", i+1, len([]rune(line)), line))
		}
		if strings.Contains(line, "\t") || strings.TrimRight(line, " ") != line {
			out = append(out, fmt.Sprintf("line %d has a tab or trailing space: %q", i+1, line))
		}
	}
	if !strings.HasSuffix(usage, "\n") || strings.HasSuffix(usage, "\n\n") {
		out = append(out, "usage must end with exactly one newline")
	}
	return out
}
