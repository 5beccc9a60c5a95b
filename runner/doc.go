// Package runner is the core that certifies implementations of an
// exact-edit system against conformance cases. It knows no protocol: the
// suites beside it do, runner/blockpatch (command lines over case trees)
// and runner/patchdiff (runtime requests through an adapter), and both run
// on what this package provides:
//
//   - Settings: selection (-run, -skip, Select), the skip list of expected
//     failures (SkipList, whose stale entries fail the run or are pruned
//     from its file, and which a run can write from its failures), the
//     profile, timeouts, parallelism, the seed that shuffles the order
//     (Schedule) and makes the generated cases (Generated, Generator:
//     the suites add them beside the corpus with Merge, outside its hash),
//     keeping failed cases, progress;
//   - the Catalog of a suite's cases, listed (WriteList) or copied as
//     plain files with a README and an index (Copy), and the
//     ModuleVersion that names the build;
//   - implementations that run a command and report an Outcome: Command
//     (an external program, each invocation in its own process group,
//     killed as a group at the timeout, with bounded capture), InProcess
//     (a Go program run in the certifier's process) and Func (fakes);
//   - Isolation: bubblewrap around external commands when it is installed
//     and works, with the reason when it is not. As root on Linux the rest
//     of the filesystem is a writable overlay of the host, mounted by the
//     runner for each command in a mount namespace of its own with the
//     upper layers in a tmpfs (outside_linux.go): a write outside the
//     case's folder never reaches the host, and the runner reads the upper
//     layers after the command and reports each path written (Outcome.
//     Outside; the suite fails the case as an Escape). Elsewhere bwrap's
//     filesystem is read-only and such a write fails unseen; the
//     certificate's "outside writes" line says which. Under bwrap a
//     command keeps no capability, cannot see the run's temp root (but its
//     own folders), the suites' case folders or the certifier's executable
//     (Isolation.Hide), and every command runs under Limits, in a pids
//     cgroup of its own where one can be made (cgroup_linux.go), and sees
//     only an allow-listed environment (confine.go). Orphans are adopted
//     and swept when commands run unconfined; a temp root's stray names and
//     mode changes are run-level problems (TempRoot);
//   - Verdicts and Results, where "the implementation rejected this" is
//     ordinary result data and a Go error is a harness fault only;
//   - the Report and its Certificate (what was certified with the SHA-256
//     of its files, the corpus hash, the profile, results by requirement
//     area, by profile and by level, the partial-run label), written as
//     human text, TAP, JUnit XML or JSON.
//
// # Verdicts
//
// Pass; Fail, Stray (only unexpected new files, such as temp files),
// Escape (something outside the case's folder changed), Timeout, Crash (an
// exit status the protocol does not allow, or a panic), Signal and
// UnexpectedPass (a skip-listed case that passed) count as failures; Skip
// (a skip-listed case that failed), Unsupported (a level the
// implementation does not claim) and OutOfProfile count as skipped.
package runner
