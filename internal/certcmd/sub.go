package certcmd

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/compare"
)

// The subcommands every certifier takes as its first argument. Without
// one it certifies; "--" before an implementation named like a
// subcommand keeps it from being read as one.
const (
	CmdList    = "list"    // list the cases: name, profile, tags (and levels), requirements
	CmdCopy    = "copy"    // copy DIR: the cases as plain files
	CmdVersion = "version" // the module version and the corpus hash
	CmdCompare = "compare" // run several implementations into one matrix
)

// Subcommand splits a subcommand off the front of args; "" means certify.
func Subcommand(args []string) (string, []string) {
	if len(args) > 0 {
		switch args[0] {
		case CmdList, CmdCopy, CmdVersion, CmdCompare:
			return args[0], args[1:]
		}
	}
	return "", args
}

// Export runs list, copy or version over the catalog of the cases the
// flags load; rest are the arguments after the flags (copy's DIR).
func (f *Flags) Export(sub string, s *runner.Settings, rest []string, catalog func() (*runner.Catalog, error), stdout, stderr io.Writer) int {
	want := 0
	if sub == CmdCopy {
		want = 1
	}
	if len(rest) != want {
		if sub == CmdCopy {
			return f.Fail(stderr, errors.New("copy takes one folder: copy [flags] DIR"))
		}
		return f.Fail(stderr, fmt.Errorf("%s takes flags only, not %q", sub, strings.Join(rest, " ")))
	}
	if f.JSON && sub != CmdList {
		return f.Fail(stderr, fmt.Errorf("-json is for list"))
	}
	cat, err := catalog()
	if err != nil {
		return f.Fail(stderr, err)
	}
	switch sub {
	case CmdVersion:
		fmt.Fprintf(stdout, "%s %s\n", f.Name, runner.ModuleVersion())
		fmt.Fprintf(stdout, "corpus sha256:%s (%d cases from %s)\n", cat.Corpus.SHA256, cat.Corpus.Cases, strings.Join(cat.Corpus.Sources, ", "))
		return ExitOK
	case CmdList:
		if err := runner.WriteList(stdout, s.Selected(cat), f.JSON); err != nil {
			return f.Fail(stderr, err)
		}
		return ExitOK
	}
	sel := s.Selected(cat)
	if len(sel) == 0 {
		return f.Fail(stderr, fmt.Errorf("%w: %d cases loaded, none matches the -run/-skip selection", runner.ErrNoCases, len(cat.Cases)))
	}
	if err := cat.Copy(rest[0], sel); err != nil {
		return f.Fail(stderr, err)
	}
	counts := map[string]int{}
	for _, ci := range sel {
		counts[ci.Format]++
	}
	var parts []string
	for _, fm := range cat.Formats {
		if counts[fm.Name] > 0 {
			parts = append(parts, fmt.Sprintf("%d in %s format", counts[fm.Name], fm.Name))
		}
	}
	fmt.Fprintf(stdout, "copied %d cases to %s: %s\n", len(sel), rest[0], strings.Join(parts, ", "))
	return ExitOK
}

// ParseImpl reads an implementation named on compare's command line:
// "NAME=COMMAND LINE" or a command line alone (named by itself), split
// into words at spaces.
func ParseImpl(spec string) (name string, argv []string) {
	name, line, ok := strings.Cut(spec, "=")
	if !ok || strings.ContainsAny(name, " /") {
		name, line = spec, spec
	}
	return name, strings.Fields(line)
}

// Compare runs every implementation the arguments name, as resolve turns
// each into runs, and writes the matrix: Markdown to --markdown or
// stdout, the page to --html. It returns ExitOK once the matrix is
// written, whatever the implementations did.
func (f *Flags) Compare(specs []string, resolve func(spec string) ([]compare.Impl, error), stdout, stderr io.Writer, tty bool) int {
	if len(specs) == 0 {
		return f.Fail(stderr, errors.New("compare needs the implementations to compare (run with -h for help)"))
	}
	if f.WriteSkipFile != "" || f.PruneSkipFile {
		return f.Fail(stderr, errors.New("--write-skip-file and --prune-skip-file are for one implementation's run, not compare"))
	}
	var impls []compare.Impl
	for _, spec := range specs {
		im, err := resolve(spec)
		if err != nil {
			return f.Fail(stderr, err)
		}
		impls = append(impls, im...)
	}
	if len(impls) == 0 {
		return f.Fail(stderr, errors.New("no implementation to compare"))
	}
	ctx, stop := signal.NotifyContext(context.Background(), stopSignals...)
	defer stop()
	for i := range impls {
		run, name := impls[i].Run, impls[i].Name
		impls[i].Run = func(ctx context.Context) (*runner.Report, error) {
			fmt.Fprintf(stderr, "%s: running %s\n", f.Name, name)
			rep, err := run(ctx)
			if err == nil {
				c := rep.Certificate
				fmt.Fprintf(stderr, "%s: %s: %d passed, %d failed, %d skipped\n", f.Name, name, c.Passed, c.Failed, c.Skipped)
			}
			return rep, err
		}
	}
	m, err := compare.Run(ctx, impls)
	if err != nil {
		return f.Fail(stderr, err)
	}
	if f.Markdown == "" {
		if err := m.WriteMarkdown(stdout); err != nil {
			return f.Fail(stderr, err)
		}
	}
	if err := f.writeMatrix(m); err != nil {
		return f.Fail(stderr, err)
	}
	return ExitOK
}

// writeMatrix writes the --markdown and --html files, when asked for.
func (f *Flags) writeMatrix(m *compare.Matrix) error {
	for _, out := range []struct {
		file  string
		write func(io.Writer) error
	}{{f.Markdown, m.WriteMarkdown}, {f.HTML, m.WriteHTML}} {
		if out.file == "" {
			continue
		}
		file, err := os.Create(out.file)
		if err != nil {
			return err
		}
		err = out.write(file)
		if cerr := file.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// CheckChangelog reports whether the changelog's first section (the
// corpora of this checkout) names the corpus hash of suite, as its first
// twelve hex digits in a code span: a corpus that changed without an entry
// saying how is an error that says what to write.
func CheckChangelog(changelog []byte, suite, hash string) error {
	text := string(changelog)
	_, rest, ok := strings.Cut(text, "\n## ")
	if !ok {
		return errors.New("CHANGELOG.md has no section")
	}
	first, _, _ := strings.Cut(rest, "\n## ")
	if !strings.Contains(first, "`sha256:"+hash[:12]+"`") {
		return fmt.Errorf("the %s corpus is now sha256:%s, which CHANGELOG.md's first section does not name: say there what changed, with `sha256:%s`", suite, hash, hash[:12])
	}
	return nil
}

// Begin reads a certifier's command line: its subcommand, if any, then
// the flags of fs (which set f), then the runner's settings. When done is
// set the command ends with status: help was printed, or the command line
// was wrong (the error was printed).
func (f *Flags) Begin(fs *flag.FlagSet, args []string, usage string, stdout, stderr io.Writer) (sub string, s runner.Settings, status int, done bool) {
	sub, args = Subcommand(args)
	if status, done := f.Parse(fs, args, usage, stdout, stderr); done {
		return sub, s, status, true
	}
	s, err := f.Settings(args, fs.Args())
	if err != nil {
		return sub, s, f.Fail(stderr, err), true
	}
	return sub, s, 0, false
}
