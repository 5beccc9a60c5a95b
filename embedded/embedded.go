// Package embedded wires the reference implementations into the
// certifiers, so that the runner packages link none: the reference
// blockpatch CLI (reference/cli) as a runner.Implementation, in process for
// speed or as a separate process, and the reference PatchDIFF runtime
// (reference/patchdiff) as an applier behind the adapter protocol
// (patchdiff.go). Each is certified like any other, through the same
// protocol.
package embedded

import (
	"os"
	"path/filepath"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// AsReferenceEnv is the environment variable that makes a program linking
// this package act as the reference CLI (see AsReference).
const AsReferenceEnv = "BLOCKPATCH_CONFORMANCE_AS_REFERENCE"

// AsReference reports whether the running program should act as the
// reference blockpatch CLI rather than as itself: when AsReferenceEnv is
// "1", or when it was started under the name blockpatch (argv0's base
// name). A main that offers Process checks it first and then calls Main.
func AsReference(argv0 string) bool {
	if os.Getenv(AsReferenceEnv) == "1" {
		return true
	}
	return strings.TrimSuffix(filepath.Base(argv0), ".exe") == "blockpatch"
}

// Main runs the reference CLI on the process's own streams and returns its
// exit status.
func Main(args []string) int { return cli.Main(args) }

// ServeIfReference runs the reference CLI and exits when AsReference holds
// for this process, and returns otherwise. Every main and TestMain whose
// executable Process may start again calls it first.
func ServeIfReference() {
	if AsReference(os.Args[0]) {
		os.Exit(Main(os.Args[1:]))
	}
}

// reproduce runs the reference CLI from the module, the durable way to
// rerun a command by hand.
var reproduce = []string{"go", "run", "github.com/blockpatch-conformance/blockpatch-conformance/cmd/blockpatch"}

// Reference returns the reference CLI run in the certifier's process. It
// is also a runner.Commander: where a case needs a real process, it runs
// as Process.
func Reference() runner.Implementation {
	return inProcess{runner.InProcess{
		Name:      "embedded reference blockpatch " + cli.Version + " (in process)",
		Main:      run,
		Reproduce: reproduce,
	}}
}

// run adapts the CLI's entry point to runner.InProcess.
func run(args []string, env runner.Env) int {
	return cli.Run(args, cli.Env{Stdin: env.Stdin, Stdout: env.Stdout, Stderr: env.Stderr, Dir: env.Dir, Getenv: env.Getenv})
}

type inProcess struct{ runner.InProcess }

// Command runs the reference as Process does.
func (inProcess) Command() (*runner.Command, error) { return Process() }

// Process returns the reference run as a separate process: the running
// executable started again with AsReferenceEnv=1, which goes through the
// same process protocol as any external implementation. The executable's
// main must honour AsReference.
func Process() (*runner.Command, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	c, err := runner.NewCommand([]string{exe}, AsReferenceEnv+"=1")
	if err != nil {
		return nil, err
	}
	c.Name = "embedded reference blockpatch " + cli.Version + " (re-executed as a process)"
	return c, nil
}
