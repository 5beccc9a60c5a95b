// Package batch is the reference PatchDIFF observed batch, beside the
// runtime: the seed's immutable internal pair patchdiff-observed-batch/1 /
// patchdiff-observed-batch-r1 as spec/patchdiff states it (area BATCH).
//
//	res := batch.Apply(batch.Request{RuntimeVersion: "patchdiff-observed-batch-r1", Target: text, TargetVersion: &v, Batch: envelope, CollectWarnings: true})
//
// Apply validates the canonical batch envelope (its own RFC 8785 form) and
// both global guards against the request's target, then each group's
// authoritative scope evidence (its bounds and the hash of its slice), then
// applies each group's patchdiff-tx/2 transaction through the runtime's own
// Apply to its original scope-local buffer, with the slice's real hash
// substituted as its guard, and assembles the local results into the
// target in descending order of the original scopes. Any failure returns
// no assembled target. Like the runtime it is pure: the service's target
// lock is the request's target text and version.
//
// Replay of a recorded batch row (BATCH-023) is package replay's, which
// calls Apply with warnings off.
package batch
