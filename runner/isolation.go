package runner

import (
	"context"
	"fmt"
	"os/exec"
	"time"
)

// Isolation is how the commands of an external implementation run. With
// bubblewrap (bwrap) each command sees the whole filesystem read-only but
// the folders it may write (the case's box, a race's hold folder), has a
// PID namespace of its own, so no process it starts outlives it, and no
// network. Without it the runner still catches what it can see from
// outside: writes around the work tree and in the run's temp root, changes
// to the mode or owner of the folders around it, and processes left
// running after the command (leftovers).
type Isolation struct {
	// Name is "bwrap" or "none".
	Name string `json:"name"`
	// Why says why there is none, or what bwrap confines.
	Why   string `json:"why,omitempty"`
	bwrap string
}

// Isolated reports whether commands run in a sandbox.
func (iso *Isolation) Isolated() bool { return iso != nil && iso.bwrap != "" }

func (iso *Isolation) String() string {
	if iso.Why == "" {
		return iso.Name
	}
	return iso.Name + " (" + iso.Why + ")"
}

const inProcess = "the implementation runs inside the certifier"

// bwrapArgs are bubblewrap's options around every command: a read-only
// view of the filesystem with fresh /dev and /proc, a PID namespace killed
// with its first process, no network, a new session (no terminal to push
// input into), and death with the runner.
var bwrapArgs = []string{
	"--die-with-parent", "--unshare-pid", "--unshare-net", "--new-session",
	"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc",
}

// Wrap returns argv run under bwrap with the writable folders bound
// read-write.
func (iso *Isolation) Wrap(argv, writable []string) []string {
	out := append([]string{iso.bwrap}, bwrapArgs...)
	for _, w := range writable {
		out = append(out, "--bind", w, w)
	}
	return append(append(out, "--"), argv...)
}

// chooseIsolation decides how impl's commands run: under bwrap when it is
// installed and works here (tried once, in dir), else none, with the
// reason.
func chooseIsolation(ctx context.Context, impl Implementation, off bool, dir string) *Isolation {
	if _, ok := impl.(*Command); !ok {
		return &Isolation{Name: "none", Why: inProcess}
	}
	if off {
		return &Isolation{Name: "none", Why: "turned off"}
	}
	path, err := exec.LookPath("bwrap")
	if err != nil {
		return &Isolation{Name: "none", Why: "bwrap (Debian package bubblewrap) is not installed"}
	}
	iso := &Isolation{Name: "bwrap", Why: "read-only filesystem but the case's folder, own PID namespace, no network", bwrap: path}
	probe := "true"
	if p, err := exec.LookPath(probe); err == nil {
		probe = p
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	argv := iso.Wrap([]string{probe}, []string{dir})
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Dir = dir
	if out, err := cmd.CombinedOutput(); err != nil {
		return &Isolation{Name: "none", Why: fmt.Sprintf("bwrap cannot run here: %v: %s", err, bounded(out, 200))}
	}
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
