// Package fuzz runs differential campaigns: it generates trees, patches
// and move requests (fuzz/internal/gen), runs each through the conformance
// protocols (check, apply, retry, reverse; plan, apply of the planned
// patch, move) on an implementation under test and on the reference in
// separate folders, compares what they did, and writes every disagreement,
// shrunk to a small input, as a case file that cases.LoadDir loads.
//
// A campaign is reproducible from its seed: iteration k always builds the
// same scenario, whatever the shard, worker count or time budget, and
// Config.Replay reruns chosen iterations. Shard i of n runs the iterations
// k with k mod n = i, and the merge subcommand joins the case files of the
// shards' output folders, each case once (fuzz/internal/campaign).
//
// Main is the command line (cmd/blockpatch-fuzz wraps it). The native fuzz
// targets are in fuzz/targets, the gopter properties in fuzz/props;
// README.md lists them, with the commands and the known issues.
package fuzz
