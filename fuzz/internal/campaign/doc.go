// Package campaign is the protocol-neutral core of the differential
// campaigns of both suites (package fuzz for blockpatch, fuzz/patchdiff for
// PatchDIFF): the iteration space and its shards, the worker pool, the
// grouping of disagreements into kinds, the greedy shrinking loop, the
// writing of shrunk case files, the report and the command line. A suite
// brings what is its own through Suite: how iteration k's scenario is
// drawn, how a scenario shrinks, and a Trial that runs a scenario on both
// implementations, compares them and renders a case file.
package campaign
