// Command patchdiff-fuzz runs a differential campaign of a PatchDIFF
// applier, through the adapter protocol, against the reference runtime and
// writes each disagreement, shrunk, as a case file. Run it with --help;
// see package fuzz/patchdiff.
package main

import (
	"context"
	"os"
	"os/signal"

	pdfuzz "github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(pdfuzz.Main(ctx, "patchdiff-fuzz", os.Args[1:], os.Stdout, os.Stderr))
}
