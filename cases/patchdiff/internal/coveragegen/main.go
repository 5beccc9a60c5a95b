// Command coveragegen writes cases/patchdiff/COVERAGE.md from the embedded
// corpus.
package main

import (
	"flag"
	"log"
	"os"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
)

func main() {
	out := flag.String("out", "COVERAGE.md", "file to write")
	flag.Parse()
	cs, err := pdcases.LoadCorpus()
	if err != nil {
		log.Fatal(err)
	}
	if err := os.WriteFile(*out, pdcases.Coverage(cs).Markdown(), 0o644); err != nil {
		log.Fatal(err)
	}
}
