// Command coveragegen writes spec/COVERAGE.md, the table of which corpus
// cases check which requirement. It runs through go generate in the cases
// directory:
//
//	go generate ./cases
//
// With -out - it prints the table instead.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/cases/internal/coverage"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

func main() {
	out := flag.String("out", "../spec/COVERAGE.md", "file to write, or - for standard output")
	flag.Parse()
	if err := run(*out); err != nil {
		fmt.Fprintln(os.Stderr, "coveragegen:", err)
		os.Exit(1)
	}
}

func run(out string) error {
	cs, err := cases.LoadCorpus()
	if err != nil {
		return err
	}
	data := coverage.Build(cs, spec.Requirements(), spec.ErrorCodes()).Markdown()
	if out == "-" {
		_, err := os.Stdout.Write(data)
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
