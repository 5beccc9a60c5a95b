// Command blockpatch-mutants measures the conformance corpus against
// broken variants of the reference (mutants), each a diff built into its
// own binary with go build -overlay and certified as an external command.
// -suite patchdiff mutates the reference PatchDIFF runtime instead, built
// as cmd/patchdiff and judged as an adapter by the PatchDIFF corpus.
//
// By default it runs the hand-written mutants over the whole corpus and
// prints the kill matrix. With -mechanical it runs a campaign over the
// mutants generated from reference/: each stops at its first failing case,
// and a markdown report lists every survivor with its verdict. For
// blockpatch the campaign goes through mutant schemata (one build holding
// every mutant, switched at run time; per-case coverage of the sites; a
// judge process per mutant running only the cases that reach its site),
// and the results file is rewritten with the mutants judged merged in;
// -per-mutant-build judges the old way, a build per mutant and a process
// per case, appending to the results file so an interrupted run resumes.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"regexp"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
)

func main() {
	var o mutants.Options
	suite := flag.String("suite", "blockpatch", "the reference mutated: blockpatch or patchdiff (mechanical only)")
	flag.BoolVar(&o.Mechanical, "mechanical", false, "run the mechanical campaign instead of the hand-written kill matrix")
	run := flag.String("run", "", "only the mutants whose names match this regexp")
	flag.IntVar(&o.Parallel, "parallel", 2, "mutants built and judged at once")
	flag.IntVar(&o.Sample, "sample", 1, "mechanical: keep about one mutant in N (chosen by name)")
	flag.StringVar(&o.Results, "results", "", "mechanical: results file, appended to; mutants in it are skipped (default: the suite's, in internal/mutants/testdata)")
	flag.StringVar(&o.Report, "report", "", "mechanical: markdown report written at the end (default: the suite's)")
	flag.StringVar(&o.Verdicts, "verdicts", "", "mechanical: hand-reviewed verdicts on survivors (default: the suite's)")
	flag.BoolVar(&o.PerMutantBuild, "per-mutant-build", false, "mechanical, blockpatch: build and judge each mutant on its own (the old path) instead of through the schemata")
	flag.BoolVar(&o.ReportOnly, "report-only", false, "mechanical: rewrite the report from the results file without judging")
	flag.StringVar(&o.CorpusHash, "corpus-hash", "", "mechanical, with -report-only: the corpus hash the results were judged with, when not the current corpus")
	flag.StringVar(&o.Took, "took", "", "mechanical, with -report-only: how long the campaign took, and on what machine")
	flag.StringVar(&o.Opinions, "opinions", "", "mechanical: run the reference's own tests (each file's _test.go twin, or its whole package without one, then the suite's other test packages) on every unreviewed survivor and write what they make of it to this file; the report shows the suite's opinions file (internal/mutants/testdata/*-opinions.txt) beside each unreviewed survivor")
	flag.StringVar(&o.Note, "note", "", "mechanical: a sentence added to the report")
	flag.Parse()
	s, ok := mutants.LookupSuite(*suite)
	if !ok {
		fmt.Fprintf(os.Stderr, "blockpatch-mutants: -suite %q: want blockpatch or patchdiff\n", *suite)
		os.Exit(2)
	}
	o.Suite = s
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintln(os.Stderr, "blockpatch-mutants:", err)
			os.Exit(2)
		}
		o.Run = re
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	o.Stdout, o.Stderr = os.Stdout, os.Stderr
	ok, err := mutants.Main(ctx, o)
	if err != nil {
		fmt.Fprintln(os.Stderr, "blockpatch-mutants:", err)
		os.Exit(2)
	}
	if !ok {
		os.Exit(1)
	}
}
