// Package patchdiff is the reference PatchDIFF core runtime: the pure,
// deterministic function that evaluates one declarative transaction
// (patchdiff-tx/1, patchdiff-tx/2 or patchdiff-tx/3) against canonical
// target text under one immutable runtime profile, as spec/patchdiff
// states it (requirement IDs such as FIND-003 are cited in comments).
//
//	res := patchdiff.Apply(patchdiff.Request{RuntimeVersion: "patchdiff-mvp-0.2.2", Target: text, Transaction: tx, CollectWarnings: true})
//
// Apply never fails and never panics: every outcome is a Result, accepted
// with result_text and change facts or rejected with a failure_reason, a
// validation stage and bounded evidence. Decode checks a transaction
// without a target; Canonicalize and Hash are the text rules; DecodeRequest
// and Result.MarshalJSON are the adapter's request and result documents.
//
// The package does no I/O and keeps no state: locking, commit, logs,
// idempotency, SAVE and replay are the service's (spec/patchdiff's list of
// out-of-scope duties); package replay, beside it, verifies stored history by
// calling Apply with warnings off. All offsets are in code points; the buffer is kept
// as UTF-8 and converted only where an offset is read, with a fast path for
// ASCII text.
package patchdiff
