// Package blockpatch certifies a blockpatch implementation against
// conformance cases (package cases), on the runner core (package runner).
//
// A Runner holds plain settings: the case sources, the Implementation,
// the core's runner.Settings (selection, skip list, profile, timeout,
// parallelism, seed, keep) and the required levels. New fills in the
// defaults; Run returns a runner.Report whose Certificate names what was
// certified (the implementation's files and their SHA-256, its version,
// the corpus hash, the profile, the skip list, the seed) and whether the
// run was partial.
//
// # Implementations
//
// An implementation is a runner.Implementation that behaves as the
// blockpatch command line: a runner.Command for an external program, or
// the reference CLI run in process (package embedded wires it, so this
// package links none). An implementation that can also run as a separate
// process says so by implementing runner.Commander; the runner asks for it
// where a case needs a real process (an unprivileged case run as root).
//
// # Isolation and bounds
//
// A Command's invocations run under bubblewrap when it is installed and
// works (runner.Isolation): writable only in the case's folder, a PID
// namespace of their own, no network, no capabilities, and blind to the
// run's temp root (but their own folders), the Sources' folders and the
// certifier's executable; HOME and TMPDIR name a folder of the case's
// own beside its box. As root on Linux the rest of the
// filesystem is a writable overlay of the host that the runner reads after
// each command: a write outside the case's folder never reaches the host
// and fails the case as an Escape naming each path written. Elsewhere
// bwrap's filesystem is read-only and such a write fails unseen; the
// certificate's "outside writes" line says which. Without bwrap the
// certificate says "isolation: none" and warns; the runner still catches
// writes around the work tree and in the run's temp root, changes to the
// mode and owner of the folders around it, and processes left running in a
// session of their own (it adopts orphans as their subreaper, on Linux).
// Whatever the implementation does, the runner writes into a case's folder
// only through an os.Root and never through a symlink (internal/nofollow),
// and reads trees within cases.DefaultReadLimits: FIFOs and devices are
// never opened, huge and sparse files never read, folders read relative to
// their open parent no deeper than 64, and the reads after a command
// within what is left of its --timeout (a read past it times the case out).
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
// # Levels
//
// Probe asks an implementation which levels it implements: the features
// list of "version --json-output", or else clean unknown_command and
// unknown_option answers to probing commands. The levels (core, planner,
// cli) are independent: each case needs the levels its command lines show
// and those it states (cases.Case.Levels), and runs when every one of them
// is claimed or in Runner.Require; otherwise it is skipped as unsupported,
// naming the level missing. So a command-line tool without plan and move
// still runs its cli cases about check and apply.
package blockpatch
