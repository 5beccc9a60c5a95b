package cli

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"syscall"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// The phases of a run, as signal handling sees them.
const (
	phasePlanning  int32 = iota // only reading and planning: a signal ends the run at once
	phaseFinishing              // writing and printing: a signal stops the write before its first rename
	phaseStopped                // a signal ended the run
)

// handleSignals makes SIGINT, SIGTERM and SIGHUP end the run with io_error:
// at once while it only reads and plans, and through r.ctx once it
// finishes, so that a write first removes its temp files (the write
// itself reports the error) or, past its first rename, completes. It
// returns the function that stops the handling.
func (r *run) handleSignals(args []string) (stop func()) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	ctx, cancel := context.WithCancelCause(r.ctx)
	r.ctx = ctx
	done := make(chan struct{})
	go func() {
		select {
		case sig := <-sigs:
			if r.phase.CompareAndSwap(phasePlanning, phaseStopped) {
				os.Exit(report(r.env, args, &reference.Error{Code: reference.IOError,
					Message: "interrupted (signal " + sig.String() + "); nothing was written"}))
			}
			cancel(errors.New("signal " + sig.String()))
		case <-done:
		}
	}()
	return func() {
		signal.Stop(sigs)
		close(done)
		cancel(nil)
	}
}

// finishing marks the end of planning (or of a run that failed before
// it). When a signal has already ended
// the run, it waits for the signal handler to exit the process.
func (r *run) finishing() {
	if r.env.signals && !r.phase.CompareAndSwap(phasePlanning, phaseFinishing) && r.phase.Load() == phaseStopped {
		select {}
	}
}
