// Command blockpatch-conformance certifies a blockpatch implementation
// against the conformance cases; see usage.go, or run it with -h.
//
// Started as blockpatch (by that name, or with
// BLOCKPATCH_CONFORMANCE_AS_REFERENCE=1) it is the reference CLI instead,
// which --reference-exec relies on.
package main

import (
	"errors"
	"flag"
	"io"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/cases/known"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/compare"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

func main() {
	embedded.ServeIfReference()
	os.Exit(run(os.Args[1:], os.Stdout, os.Stderr, certcmd.IsTerminal(os.Stderr)))
}

// options are the command line's settings: the shared ones, then
// blockpatch's own; usage.go describes every flag.
type options struct {
	certcmd.Flags
	require          certcmd.List
	derived, refExec bool
	peers            string
}

func flags(o *options) *flag.FlagSet {
	fs := certcmd.NewFlagSet("blockpatch-conformance", spec.Profiles[len(spec.Profiles)-1], &o.Flags)
	fs.BoolVar(&o.derived, "derived", false, "")
	fs.Var(&o.require, "require", "")
	fs.BoolVar(&o.refExec, "reference-exec", false, "")
	fs.StringVar(&o.peers, "peers", known.DefaultPeers, "")
	return fs
}

func run(args []string, stdout, stderr io.Writer, tty bool) int {
	var o options
	fs := flags(&o)
	sub, settings, status, done := o.Begin(fs, args, usage, stdout, stderr)
	if done {
		return status
	}
	// newRunner is a runner for impl with every setting of the command
	// line.
	newRunner := func(impl runner.Implementation) *blockpatch.Runner {
		o.PassEnv(impl)
		r := blockpatch.New(impl)
		r.Settings = settings
		if o.NoCorpus {
			r.Sources = nil
		}
		for _, d := range o.Cases {
			r.Sources = append(r.Sources, blockpatch.Dir(d))
		}
		for _, l := range o.require {
			r.Require = append(r.Require, cases.Level(l))
		}
		r.Derived = o.derived
		r.Generate = fuzz.Generate
		return r
	}
	switch sub {
	case certcmd.CmdList, certcmd.CmdCopy, certcmd.CmdVersion:
		r := newRunner(nil)
		return o.Export(sub, &r.Settings, fs.Args(), r.Catalog, stdout, stderr)
	case certcmd.CmdCompare:
		return o.Compare(fs.Args(), func(spec string) ([]compare.Impl, error) {
			return o.resolve(spec, newRunner, stderr)
		}, stdout, stderr, tty)
	}
	impl, err := implementation(fs.Args(), o.refExec)
	if err != nil {
		return o.Fail(stderr, err)
	}
	r := newRunner(impl)
	return o.Certify(&r.Settings, r.Run, stdout, stderr, tty)
}

// implementation is the command line given, or the embedded reference.
func implementation(argv []string, refExec bool) (runner.Implementation, error) {
	switch {
	case len(argv) > 0 && refExec:
		return nil, errors.New("--reference-exec certifies the embedded reference; give no implementation with it")
	case len(argv) > 0:
		return runner.NewCommand(argv)
	case refExec:
		return embedded.Process()
	}
	return embedded.Reference(), nil
}
