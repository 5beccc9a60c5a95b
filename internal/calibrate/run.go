package calibrate

import (
	"context"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// Rounds runs r over its cases, rewrites the failing ones under dir, and
// runs the rewritten cases again, since a case stops at its first failing
// step and a later step may differ too; it stops after max rounds or when a
// round changes nothing. report, when not nil, sees each round's edits.
func Rounds(ctx context.Context, r *blockpatch.Runner, dir string, o Options, max int, report func(round int, edits []Edit)) error {
	for round := 1; round <= max; round++ {
		rep, err := r.Run(ctx)
		if err != nil {
			return err
		}
		edits, err := Apply(dir, rep, o)
		if report != nil {
			report(round, edits)
		}
		if err != nil || o.DryRun {
			return err
		}
		var again []string
		for _, e := range edits {
			if e.Skipped == "" && !slices.Contains(again, e.Case) {
				again = append(again, e.Case)
			}
		}
		if len(again) == 0 {
			return nil
		}
		r.RunRegexp = runner.Select(again)
		r.SkipRegexp = nil
	}
	return nil
}
