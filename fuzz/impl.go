package fuzz

import (
	"context"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
)

// Impl is a blockpatch command line under test. Exec runs one command line
// (the arguments after the program name) in dir with stdin, and returns its
// exit status (-1 when it did not exit by itself) and output. err is set
// only when the command could not be run at all; a command that rejects its
// input is an ordinary result.
type Impl interface {
	Exec(ctx context.Context, args []string, dir string, stdin []byte) (exit int, stdout, stderr []byte, err error)
}

// Reference returns the reference CLI run in process, with no process
// start per command. External programs come through FromRunner with a
// runner.Command.
func Reference() Impl { return FromRunner(embedded.Reference()) }
