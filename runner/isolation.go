package runner

import (
	"context"
	"fmt"
	"os/exec"
	"path/filepath"
	"slices"
	"time"
)

// Isolation is how the commands of an external implementation run. With
// bubblewrap (bwrap) each command can write only in the folders it may
// write (the case's box, a race's hold folder), has a PID namespace of its
// own, so no process it starts outlives it, and no network. Where the
// runner can mount overlays (outside_linux.go: as root, on Linux) the rest
// of the filesystem is a writable overlay of the host, so that a write
// outside those folders is seen, named and fails its case (Escape) while
// the host stays untouched; elsewhere it is read-only, and such a write
// fails unseen. Without bwrap the runner still catches what it can see
// from outside: writes around the work tree and in the run's temp root,
// changes to the mode or owner of the folders around it, and processes
// left running after the command (leftovers).
type Isolation struct {
	// Name is "bwrap" or "none".
	Name string `json:"name"`
	// Why says why there is none, or what bwrap confines.
	Why string `json:"why,omitempty"`
	// Outside says whether writes outside the case's folder and the
	// run's temp root are observed ("observed: ..."), or why not ("not
	// observed: ...").
	Outside string `json:"outside_writes"`
	// Limits bound each command (confine.go); nil when none apply.
	Limits *Limits `json:"limits,omitempty"`
	// Environment says which variables a command sees (EnvPolicy).
	Environment string `json:"environment,omitempty"`
	// Hidden lists the paths commands cannot see (Hide).
	Hidden []string `json:"hidden,omitempty"`
	bwrap  string
	hidden []string
	// keep are the implementation's files, bound back where they lie in
	// a hidden folder.
	keep []string
	// watch, when set, observes the writes outside (outside_linux.go).
	watch *overlays
}

// Isolated reports whether commands run in a sandbox.
func (iso *Isolation) Isolated() bool { return iso != nil && iso.bwrap != "" }

// Observed reports whether the runner sees commands' writes anywhere
// outside their folders.
func (iso *Isolation) Observed() bool { return iso != nil && iso.watch != nil }

// Blocking returns the isolation for programs kept running across many
// requests (runner.Stream, such as a PatchDIFF adapter): under bwrap their
// filesystem is read-only but their own folder, so a write outside fails
// unseen, since one overlay per request cannot be had for one process.
func (iso *Isolation) Blocking() *Isolation {
	b := *iso
	b.hidden = slices.Clone(b.hidden)
	if b.Observed() {
		b.watch = nil
		b.Why = "read-only filesystem but the session's folder, own PID namespace, no network, no capabilities"
		b.Outside = notObservedBwrap + "a program kept running across requests cannot have an overlay per request"
	}
	return &b
}

func (iso *Isolation) String() string {
	if iso.Why == "" {
		return iso.Name
	}
	return iso.Name + " (" + iso.Why + ")"
}

const inProcess = "the implementation runs inside the certifier"

// bwrapArgs are bubblewrap's options around every command: a PID
// namespace killed with its first process, no network, a new session (no
// terminal to push input into), death with the runner, and no capability
// at all, so that a command run by root can neither mount nor override
// permission bits (confine.go).
var bwrapArgs = []string{"--die-with-parent", "--unshare-pid", "--unshare-net", "--new-session", "--cap-drop", "ALL"}

// bwrapReadOnly is the filesystem of a command whose outside writes are
// not observed: a read-only view of the host with fresh /dev and /proc.
var bwrapReadOnly = []string{"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc"}

// wrap returns argv run under bwrap with the writable folders bound
// read-write on top of the filesystem (ob's overlays, or else
// bwrapReadOnly) and the hidden paths covered, the writable folders among
// them bound after the cover, under the limits.
func (iso *Isolation) wrap(argv, writable []string, ob *observation) []string {
	out := append([]string{iso.bwrap}, bwrapArgs...)
	if ob != nil {
		out = append(out, ob.bwrapMounts()...)
	} else {
		out = append(out, bwrapReadOnly...)
	}
	cover, seal := iso.hideArgs()
	out = append(out, cover...)
	for _, w := range writable {
		out = append(out, "--bind", w, w)
	}
	out = append(out, seal...)
	return append(append(append(out, "--"), iso.Limits.prefix()...), argv...)
}

// OverlaysDir is the folder of the overlays' folders in the run's temp
// root.
const OverlaysDir = "overlays"

// What the certificate says of writes outside when they are not observed.
const (
	notObservedNone      = "not observed: without bwrap the runner sees only the case's folder and the run's temp root"
	notObservedInProcess = "not observed: in the certifier's process the runner sees only the case's folder and the run's temp root"
	notObservedBwrap     = "not observed: bwrap blocks them (read-only filesystem), but "
)

// chooseIsolation decides how the implementation's commands run: under
// bwrap when it is installed and works here (tried once, in dir), else
// none, with the reason; and under bwrap, over overlays that observe
// writes outside (their folders in overlayDir) where they can be mounted.
func chooseIsolation(ctx context.Context, impl Implementation, off bool, dir, overlayDir string) *Isolation {
	if _, ok := impl.(*Command); !ok {
		return &Isolation{Name: "none", Why: inProcess, Outside: notObservedInProcess}
	}
	c := impl.(*Command)
	limits, why := newLimits()
	iso := chooseBwrap(ctx, off, dir, overlayDir)
	iso.Limits, iso.Environment = limits, EnvPolicy(c.Pass)
	if limits == nil {
		iso.Environment += "; limits " + why
	}
	iso.hideRun(impl, filepath.Dir(dir))
	return iso
}

// chooseBwrap is chooseIsolation for an external command.
func chooseBwrap(ctx context.Context, off bool, dir, overlayDir string) *Isolation {
	if off {
		return &Isolation{Name: "none", Why: "turned off", Outside: notObservedNone}
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return &Isolation{Name: "none", Why: "bwrap (Debian package bubblewrap) is not installed", Outside: notObservedNone}
	}
	iso := &Isolation{Name: "bwrap", Why: "read-only filesystem but the case's folder, own PID namespace, no network, no capabilities", bwrap: path}
	probe := "true"
	if p, err := exec.LookPath(probe); err == nil {
		probe = p
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	argv := iso.wrap([]string{probe}, []string{dir}, nil)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := combinedOutput(cmd); err != nil {
		return &Isolation{Name: "none", Why: fmt.Sprintf("bwrap cannot run here: %v: %s", err, bounded(out, 200)), Outside: notObservedNone}
	}
	watch, err := newOverlays(iso, overlayDir, dir, probe)
	if err != nil {
		iso.Outside = notObservedBwrap + "the overlays that would show them cannot be mounted: " + err.Error()
		return iso
	}
	iso.watch = watch
	iso.Why = "writable overlay of the filesystem but the case's folder, own PID namespace, no network, no capabilities"
	iso.Outside = watch.describe()
	return iso
}

// Warning is the certificate's warning for a run without
// isolation of an external implementation, or "".
func (iso *Isolation) Warning() string {
	if iso.Isolated() || iso.Why == inProcess {
		return ""
	}
	return "isolation: none: the implementation's commands could write anywhere the certifier's user can and leave processes running; install bubblewrap (bwrap) to confine them"
}
