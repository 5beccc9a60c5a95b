// Command blockpatch-mutants measures the conformance corpus against
// deliberately broken variants of the reference (mutants) and prints the
// kill matrix: which cases catch which mutant, which mutants survive, and
// which cases catch nothing.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"regexp"
	"runtime"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

func main() {
	if embedded.AsReference(os.Args[0]) { // the runner re-executes us as the reference for unprivileged cases
		os.Exit(embedded.Main(os.Args[1:]))
	}
	run := flag.String("run", "", "only the mutants whose names match this regexp")
	parallel := flag.Int("parallel", runtime.NumCPU(), "cases run at once")
	flag.Parse()
	selected := mutants.All
	if *run != "" {
		re, err := regexp.Compile(*run)
		if err != nil {
			fmt.Fprintln(os.Stderr, "blockpatch-mutants:", err)
			os.Exit(2)
		}
		selected = nil
		for _, m := range mutants.All {
			if re.MatchString(m.Name) {
				selected = append(selected, m)
			}
		}
	}
	mx, err := mutants.Build(context.Background(), selected, func() *runner.Runner {
		r := runner.New(nil)
		r.Parallel = *parallel
		r.Seed = 1
		return r
	})
	if err != nil {
		fmt.Fprintln(os.Stderr, "blockpatch-mutants:", err)
		os.Exit(2)
	}
	fmt.Print(mx)
	if len(mx.Survivors()) > 0 || len(mx.PassCasesPassed) > 0 {
		os.Exit(1)
	}
}
