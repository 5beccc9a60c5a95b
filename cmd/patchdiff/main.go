// Command patchdiff is the reference PatchDIFF core runtime as a program:
// it answers the adapter protocol (spec/patchdiff/adapter.md) on its
// standard streams, so that patchdiff-conformance, or anything else, can
// drive it; see usage.go, or run it with -h.
package main

import (
	"fmt"
	"io"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

func run(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	command := "serve"
	if len(args) > 0 {
		command = args[0]
	}
	switch command {
	case "record":
		return record(args[1:], stdin, stdout, stderr)
	case "replay":
		return replayCmd(args[1:], stdout, stderr)
	}
	if len(args) > 1 {
		fmt.Fprintf(stderr, "patchdiff: %s takes no arguments (run with -h for help)\n", command)
		return 2
	}
	switch command {
	case "serve":
		if err := pdrunner.ServeOps(stdin, stdout, embedded.PatchDIFFHello(), embedded.PatchDIFFOperations()); err != nil {
			fmt.Fprintf(stderr, "patchdiff: %v\n", err)
			return 1
		}
		return 0
	case "apply":
		request, err := io.ReadAll(io.LimitReader(stdin, pdrunner.MaxLine+1))
		if err == nil && len(request) > pdrunner.MaxLine {
			err = fmt.Errorf("the request is larger than %d bytes", pdrunner.MaxLine)
		}
		var result []byte
		if err == nil {
			result, err = embedded.ApplyPatchDIFF(request)
		}
		if err != nil {
			fmt.Fprintf(stderr, "patchdiff: %v\n", err)
			return 1
		}
		stdout.Write(append(result, '\n'))
		return 0
	case "version":
		h := embedded.PatchDIFFHello()
		fmt.Fprintf(stdout, "patchdiff %s (%s)\n", h.Version, h.Name)
		return 0
	case "-h", "-help", "--help", "help":
		fmt.Fprint(stdout, usage)
		return 0
	}
	fmt.Fprintf(stderr, "patchdiff: unknown command %q (run with -h for help)\n", command)
	return 2
}
