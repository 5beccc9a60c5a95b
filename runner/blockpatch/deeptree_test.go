package blockpatch

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// chainImpl is the reference that, after each apply, leaves a chain of
// folders depth deep in its work tree.
func chainImpl(depth int) runner.Implementation {
	return broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
		if !isApply(inv) {
			return o
		}
		dir, err := os.OpenRoot(cwdOf(inv.Args))
		if err != nil {
			return runner.Outcome{Err: err}
		}
		for range depth {
			next, err := dir.OpenRoot("d")
			if err != nil {
				if err = dir.Mkdir("d", 0o755); err == nil {
					next, err = dir.OpenRoot("d")
				}
			}
			dir.Close()
			if err != nil {
				return runner.Outcome{Err: err}
			}
			dir = next
		}
		dir.Close()
		return o
	})
}

// TestDeepChainEndsAtOnce: a chain of folders 3,000 deep left in the work
// tree ends its case at the read's depth bound, the tree unread (once every
// entry was reached by its path from the root, and such a chain held a
// case for 42 s, far past its --timeout).
func TestDeepChainEndsAtOnce(t *testing.T) {
	t.Parallel()
	r := newRunner(t, chainImpl(3000))
	r.RunRegexp = runner.Select([]string{"plain/relocate"})
	start := time.Now()
	res := run(t, r).Results[0]
	t.Logf("%s: %s in %s (the chain built and removed too): %s", res.Name, res.Verdict, time.Since(start), res.Reason)
	if res.Verdict != runner.Fail || !strings.Contains(res.Reason, "folders nest deeper than 64 levels") {
		t.Errorf("%s: %s (%s), want a failure at the depth bound", res.Name, res.Verdict, res.Reason)
	}
}

// TestTreeReadCountsAgainstTimeout: the read of the tree a command left
// shares the command's --timeout, so a command that returns at its deadline
// times out its case rather than leave the read unbounded in time.
func TestTreeReadCountsAgainstTimeout(t *testing.T) {
	t.Parallel()
	late := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		o := reference().Exec(ctx, inv)
		if isApply(inv) {
			<-ctx.Done() // return when the time is up, as if just in time
		}
		return o
	})
	r := newRunner(t, late)
	r.RunRegexp = runner.Select([]string{"plain/relocate"})
	r.Timeout = 200 * time.Millisecond
	res := run(t, r).Results[0]
	if res.Verdict != runner.Timeout || !strings.Contains(res.Reason, "the read of the tree it left") {
		t.Errorf("%s: %s (%s), want a timeout that counts the read", res.Name, res.Verdict, res.Reason)
	}
}
