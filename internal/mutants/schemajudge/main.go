// Command schemajudge is the judge of the mutant schemata: the blockpatch
// corpus's runner with the reference linked in, built by
// internal/mutants with the switched copy of reference/ in a go build
// -overlay, so that one binary holds every mechanical mutant (see
// mutants.JudgeMain). Built without the overlay it judges the reference
// as it is. Started with embedded.AsReferenceEnv=1 it is the reference CLI,
// with the mutant schema.MutantEnv names active: the form the runner runs
// where a case needs a separate process.
package main

import (
	"os"
	"strconv"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants/schema"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

func main() {
	if embedded.AsReference(os.Args[0]) {
		code := embedded.Main(os.Args[1:])
		if err := schema.WriteHits(); err != nil {
			os.Stderr.WriteString("schemajudge: " + err.Error() + "\n")
		}
		os.Exit(code)
	}
	os.Exit(mutants.JudgeMain(os.Args[1:], newImpl, os.Stdin, os.Stdout))
}

// newImpl is the reference in process, whose process form passes the
// active mutant and the hits file on.
func newImpl(mutant int, hitsFile string) runner.Implementation {
	env := []string{embedded.AsReferenceEnv + "=1", schema.MutantEnv + "=" + strconv.Itoa(mutant)}
	if hitsFile != "" {
		env = append(env, schema.HitsEnv+"="+hitsFile)
	}
	return impl{embedded.Reference(), env}
}

type impl struct {
	runner.Implementation
	env []string
}

// Command is the reference as a separate process: this executable again.
func (i impl) Command() (*runner.Command, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, err
	}
	return runner.NewCommand([]string{exe}, i.env...)
}
