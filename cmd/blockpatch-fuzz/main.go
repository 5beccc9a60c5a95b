// Command blockpatch-fuzz runs a differential campaign of a blockpatch
// implementation against the reference and writes each disagreement,
// shrunk, as a case file. Run it with --help; see package fuzz.
package main

import (
	"context"
	"os"
	"os/signal"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz"
)

func main() {
	// The unprivileged scenarios run the reference as a process: this
	// executable, started again as the reference (embedded.Process).
	embedded.ServeIfReference()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	os.Exit(fuzz.Main(ctx, "blockpatch-fuzz", os.Args[1:], os.Stdout, os.Stderr))
}
