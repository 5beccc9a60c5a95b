// Command blockpatch-mutants measures the conformance corpus against
// broken variants of the reference (mutants), each a diff built into its
// own binary with go build -overlay and certified as an external command.
//
// By default it runs the hand-written mutants over the whole corpus and
// prints the kill matrix. With -mechanical it runs a campaign over the
// mutants generated from reference/: each stops at its first failing case,
// results are appended to a file so an interrupted campaign resumes, and a
// markdown report lists every survivor with its verdict.
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
	flag.BoolVar(&o.Mechanical, "mechanical", false, "run the mechanical campaign instead of the hand-written kill matrix")
	run := flag.String("run", "", "only the mutants whose names match this regexp")
	flag.IntVar(&o.Parallel, "parallel", 2, "mutants built and judged at once")
	flag.IntVar(&o.Sample, "sample", 1, "mechanical: keep about one mutant in N (chosen by name)")
	flag.StringVar(&o.Results, "results", "internal/mutants/testdata/mechanical-results.jsonl", "mechanical: results file, appended to; mutants in it are skipped")
	flag.StringVar(&o.Report, "report", "internal/mutants/testdata/mechanical-report.md", "mechanical: markdown report written at the end")
	flag.StringVar(&o.Verdicts, "verdicts", "internal/mutants/testdata/mechanical-verdicts.txt", "mechanical: hand-reviewed verdicts on survivors")
	flag.BoolVar(&o.ReportOnly, "report-only", false, "mechanical: rewrite the report from the results file without judging")
	flag.StringVar(&o.CorpusHash, "corpus-hash", "", "mechanical, with -report-only: the corpus hash the results were judged with, when not the current corpus")
	flag.StringVar(&o.Note, "note", "", "mechanical: a sentence added to the report")
	flag.Parse()
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
