// Command patchdiff-conformance certifies a PatchDIFF core-runtime applier
// against the PatchDIFF cases, through the adapter protocol
// (spec/patchdiff/adapter.md); see usage.go, or run it with -h.
package main

import (
	"errors"
	"flag"
	"io"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, certcmd.IsTerminal(os.Stderr)))
}

// options are the command line's settings: the shared ones, then
// PatchDIFF's own; usage.go describes every flag.
type options struct {
	certcmd.Flags
	oneShot bool
}

func run(args []string, stdout, stderr io.Writer, tty bool) int {
	var o options
	fs := flags(&o)
	if status, done := o.Parse(fs, args, usage, stdout, stderr); done {
		return status
	}
	var r *patchdiff.Runner
	switch argv := fs.Args(); {
	case len(argv) > 0:
		cmd, err := runner.NewCommand(argv)
		if err != nil {
			return o.Fail(stderr, err)
		}
		o.PassEnv(cmd)
		r = patchdiff.New(patchdiff.ForCommand(cmd, o.oneShot))
		r.Isolate = cmd
	case o.oneShot:
		return o.Fail(stderr, errors.New("--oneshot needs an applier command line after --"))
	default:
		r = patchdiff.New(embedded.PatchDIFF())
	}
	var err error
	if r.Settings, err = o.Settings(args, fs.Args()); err != nil {
		return o.Fail(stderr, err)
	}
	if o.NoCorpus {
		r.Sources = nil
	}
	for _, d := range o.Cases {
		r.Sources = append(r.Sources, patchdiff.Dir(d))
	}
	return o.Certify(&r.Settings, r.Run, stdout, stderr, tty)
}

func flags(o *options) *flag.FlagSet {
	profiles := patchdiff.Suite().Profiles
	fs := certcmd.NewFlagSet("patchdiff-conformance", profiles[len(profiles)-1], &o.Flags)
	fs.BoolVar(&o.oneShot, "oneshot", false, "")
	return fs
}
