package reference

import "context"

// Apply is the one way a plan reaches disk: it commits the plan's changes
// to ws (WRITE-003 to WRITE-008) and marks the result written. A plan with
// no changes writes nothing (WRITE-009). Ending ctx stops the write before
// its first rename, leaving the tree as it was.
func Apply(ctx context.Context, ws *Workspace, plan *Plan) error {
	if len(plan.Changes) == 0 {
		return nil
	}
	if err := ws.CommitContext(ctx, plan.Changes); err != nil {
		return err
	}
	plan.Result.Written = true
	return nil
}
