// Package replay is PatchDIFF's deterministic replay verifier, beside the
// reference runtime: from a target's initial_upload snapshot and its
// ordered log rows it reconstructs the canonical target under each row's
// recorded profile and reports what the seed's "Deterministic Replay"
// section lists (spec/patchdiff, area REPLAY): the snapshot's content_hash,
// each row's target_file_id, parser dispatch on protocol_version, profile
// lookup on runtime_version (unknown fails closed), the contiguous version
// chain, before_hash, pdcp_content_hash over canonical JSON (RFC 8785),
// after_hash, and the materialized_state_checks of the stored target. A
// failure carries one replay-only label (replay_hash_mismatch,
// replay_protocol_invalid, replay_transaction_invalid) and names the row.
//
//	rep := replay.Verify(history)
//
// Verify is pure over its input and never repairs anything: it reads a
// History and returns a Report. Recorder builds a History by running
// transactions through the reference runtime, accepted and rejected, as the
// service would log them; ReadJSONL and WriteJSONL are the JSON-lines
// history file. Package store keeps a History in SQLite or PostgreSQL.
package replay
