// Package runner certifies a blockpatch implementation against
// conformance cases (package cases).
//
// A Runner holds plain settings: the case sources, the Implementation,
// selection, skip list, profile, required levels, timeout, parallelism,
// seed and keep. New fills in the defaults; Run returns a Report whose
// Certificate names what was certified (the implementation's files and
// their SHA-256, its version, the corpus hash, the profile, the skip list,
// the seed) and whether the run was partial.
//
// # Implementations
//
// An Implementation runs one command line and returns an Outcome. That an
// implementation rejects a patch is an ordinary outcome for the case to
// judge; Outcome.Err and Go errors are for harness faults only. There are
// three kinds:
//
//   - Command runs an external program, each invocation in its own process
//     group, killed as a group at the timeout, with bounded capture;
//   - InProcess runs a Go CLI in the runner's process (package embedded
//     wires the reference CLI this way, so this package links none);
//   - Func adapts any function, for fakes in tests.
//
// An implementation that can also run as a separate process says so by
// implementing Commander; the runner asks for it where a case needs a real
// process (an unprivileged case run as root).
//
// # Isolation and bounds
//
// A Command's invocations run under bubblewrap when it is installed and
// works (Isolation, isolation.go): writable only in the case's folder, a
// PID namespace of their own, no network. As root on Linux the rest of
// the filesystem is a writable overlay of the host, mounted by the runner
// for each command in a mount namespace of its own with the upper layers
// in a tmpfs (outside_linux.go): a write outside the case's folder never
// reaches the host, and the runner reads the upper layers after the
// command and fails the case (Escape) naming each path written. Elsewhere
// bwrap's filesystem is read-only, and such a write fails unseen; the
// certificate's "outside writes" line says which. Without bwrap the
// certificate says "isolation: none" and warns; the runner still catches
// writes around the work tree and in the run's temp root, changes to the
// mode and owner of the folders around it, and processes left running in a
// session of their own (it adopts orphans as their subreaper, on Linux).
// Whatever the implementation does, the runner writes into a case's folder
// only through an os.Root and never through a symlink (internal/nofollow),
// and reads trees within cases.DefaultReadLimits: FIFOs and devices are
// never opened, huge and sparse files never read.
//
// # Protocols
//
// Each case runs in its own folder (see box.go for the layout): a work
// tree holding the case's files, an inputs folder beside it holding the
// patch, and sentinel files in a sibling folder and in the parents. The
// protocols are those of the cases package's README: check, apply, retry
// and reverse for a standard case (check and apply failing for a fail
// case); plan, apply of the planned patch and move on a fresh tree for a
// planner case; the command lines as written for a step case.
//
// Every command is judged on all it does, so that doing nothing passes
// nothing: the exit status; one JSON object on stdout for a success (error
// JSON on stderr, or on stdout with a warning); the success JSON's members
// against what the trees imply (changed, written, noop, status,
// strip_components) and against the case's result; the error's code and
// details; the whole work tree, bytes, symlinks and modes; and the
// sentinels outside the work tree.
//
// # Verdicts
//
// Pass; Fail, Stray (only unexpected new files, such as temp files),
// Escape (something outside the work tree changed, or was written where
// the isolation observes it), Timeout, Crash (an
// exit status other than 0 and 1, or a panic), Signal and UnexpectedPass (a
// skip-listed case that passed) count as failures; Skip (a skip-listed
// case that failed), Unsupported (a level the implementation does not
// claim) and OutOfProfile count as skipped.
//
// # Levels
//
// Probe asks an implementation which levels it implements: the features
// list of "version --json-output", or else clean unknown_command and
// unknown_option answers to probing commands. Levels nest (core, planner,
// cli); cases of an unsupported level are skipped unless the level is in
// Runner.Require.
package runner
