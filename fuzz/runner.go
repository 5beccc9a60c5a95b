package fuzz

import (
	"context"
	"errors"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// FromRunner adapts an implementation of the conformance runner
// (runner.Command for an external program, embedded.Reference,
// runner.InProcess for a Go variant) to a campaign's Impl, so a campaign
// runs commands exactly as the runner does: in their own process group,
// with bounded output, killed at the deadline.
func FromRunner(impl runner.Implementation) Impl { return runnerImpl{impl} }

type runnerImpl struct{ impl runner.Implementation }

func (r runnerImpl) Exec(ctx context.Context, args []string, dir string, stdin []byte) (int, []byte, []byte, error) {
	o := r.impl.Exec(ctx, runner.Invocation{Args: args, Dir: dir, Stdin: stdin})
	if o.Err != nil && !errors.Is(o.Err, context.Canceled) {
		return -1, o.Stdout, o.Stderr, o.Err
	}
	return o.Exit, o.Stdout, o.Stderr, nil
}

// keeping returns impl keeping n bytes of each stream of a command it
// runs as a process; impl itself when it runs none, or n is not positive.
func keeping(impl Impl, n int) Impl {
	r, ok := impl.(runnerImpl)
	if !ok || n <= 0 {
		return impl
	}
	c, ok := r.impl.(*runner.Command)
	if !ok {
		return impl
	}
	k := *c
	k.MaxOutput = n
	return runnerImpl{&k}
}

// unprivileged returns impl as the certifier runs it for an unprivileged
// case (blockpatch.Unprivileged, no isolation), or nil and the reason it
// cannot be.
func unprivileged(impl Impl) (Impl, string) {
	r, ok := impl.(runnerImpl)
	if !ok {
		return nil, "not a runner implementation"
	}
	u, why := blockpatch.Unprivileged(r.impl, nil)
	if u == nil {
		return nil, why
	}
	return runnerImpl{u}, ""
}
