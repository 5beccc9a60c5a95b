// Command patchdiff-conformance certifies a PatchDIFF core-runtime applier
// against the PatchDIFF cases, through the adapter protocol
// (spec/patchdiff/adapter.md); see usage.go, or run it with -h.
package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	pdfuzz "github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/compare"
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
	sub, settings, status, done := o.Begin(fs, args, usage, stdout, stderr)
	if done {
		return status
	}
	newRunner := func(a patchdiff.Applier, isolate *runner.Command) *patchdiff.Runner {
		r := patchdiff.New(a)
		r.Settings, r.Isolate, r.Generate = settings, isolate, pdfuzz.Generate
		if o.NoCorpus {
			r.Sources = nil
		}
		for _, d := range o.Cases {
			r.Sources = append(r.Sources, patchdiff.Dir(d))
		}
		return r
	}
	switch sub {
	case certcmd.CmdList, certcmd.CmdCopy, certcmd.CmdVersion:
		r := newRunner(nil, nil)
		return o.Export(sub, &r.Settings, fs.Args(), r.Catalog, stdout, stderr)
	case certcmd.CmdCompare:
		return o.Compare(fs.Args(), func(spec string) ([]compare.Impl, error) {
			var r *patchdiff.Runner
			name, argv := "reference", []string(nil)
			if spec != "reference" {
				name, argv = certcmd.ParseImpl(spec)
				cmd, err := runner.NewCommand(argv)
				if err != nil {
					return nil, fmt.Errorf("%s: %w", name, err)
				}
				r = newRunner(patchdiff.ForCommand(cmd, o.oneShot), cmd)
			} else {
				r = newRunner(embedded.PatchDIFF(), nil)
			}
			return []compare.Impl{{Name: name, Profile: r.Profile, Run: r.Run}}, nil
		}, stdout, stderr, tty)
	}
	var r *patchdiff.Runner
	switch argv := fs.Args(); {
	case len(argv) > 0:
		cmd, err := runner.NewCommand(argv)
		if err != nil {
			return o.Fail(stderr, err)
		}
		o.PassEnv(cmd)
		r = newRunner(patchdiff.ForCommand(cmd, o.oneShot), cmd)
	case o.oneShot:
		return o.Fail(stderr, errors.New("--oneshot needs an applier command line after --"))
	default:
		r = newRunner(embedded.PatchDIFF(), nil)
	}
	return o.Certify(&r.Settings, r.Run, stdout, stderr, tty)
}

func flags(o *options) *flag.FlagSet {
	profiles := patchdiff.Suite().Profiles
	fs := certcmd.NewFlagSet("patchdiff-conformance", profiles[len(profiles)-1], &o.Flags)
	fs.BoolVar(&o.oneShot, "oneshot", false, "")
	return fs
}
