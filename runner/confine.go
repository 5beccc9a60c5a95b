package runner

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// This file is what confines an external implementation beyond the
// filesystem (isolation.go, outside_linux.go): the capabilities it keeps,
// the limits on what one command may use, the environment it sees, and
// the paths it may not see at all.
//
// Capabilities. Under bwrap every command runs with none (--cap-drop ALL):
// run by root it is still uid 0, so it owns the files the runner made and
// keeps every owner and mode the cases ask for, but it can neither mount,
// nor override permission bits (the unprivileged cases hold for it as they
// hold for any user), nor load modules, nor change its limits back. No case
// of the corpus needs a capability: none asks for an owner to be kept.
//
// Limits. Every command starts under prlimit(1) with the Limits below. A
// command ended by SIGXFSZ hit the file size limit, and its case's reason
// says so. The process limit (RLIMIT_NPROC) counts the processes of the
// command's user, and the kernel never applies it to uid 0; so where it
// can, the runner also puts each command in a pids cgroup of its own
// with that limit (cgroup_linux.go), which holds for root too, and a
// command whose forks it refused fails its case naming the limit. Run by
// root with no such cgroup the process limit does not hold, and the
// certificate says so.
//
// Environment. A command sees only the variables of EnvAllowed, HOME and
// TMPDIR naming a folder of its own, the runner's hook variables, and the
// names passed on purpose (Command.Pass, --env NAME): never the
// certifier's whole environment, where CI secrets live.
//
// Hidden paths. Under bwrap the run's temp root (but the command's own
// folders), every folder the cases were read from and the certifier's
// executable (unless it is the implementation) are covered by empty,
// read-only mounts, so that no implementation can read the answers.

// Limits bound what one command of an external implementation may use.
type Limits struct {
	// Processes is RLIMIT_NPROC: processes and threads of the user.
	Processes int `json:"processes"`
	// AddressSpace is RLIMIT_AS in bytes, which bounds memory.
	AddressSpace int64 `json:"address_space"`
	// FileSize is RLIMIT_FSIZE: the largest file a command may write.
	FileSize int64 `json:"file_size"`
	// OpenFiles is RLIMIT_NOFILE.
	OpenFiles int `json:"open_files"`
	// Note says which limits do not hold here, and why, or how the
	// process limit holds.
	Note string `json:"note,omitempty"`

	prlimit string
	// pids, when set, puts each command in a pids cgroup of its own.
	pids *pidsCgroups
}

// DefaultLimits are far above what any blockpatch command of the corpus
// needs (node runs well in a tenth of the address space), and low enough
// that a fork bomb, a runaway allocation or an endless write ends quickly.
var DefaultLimits = Limits{Processes: 512, AddressSpace: 4 << 30, FileSize: 256 << 20, OpenFiles: 1024}

func (l *Limits) String() string {
	if l == nil {
		return "none"
	}
	s := fmt.Sprintf("processes %d, address space %d MiB, file size %d MiB, open files %d", l.Processes, l.AddressSpace>>20, l.FileSize>>20, l.OpenFiles)
	if l.Note != "" {
		s += " (" + l.Note + ")"
	}
	return s
}

// prefix is the prlimit command line that starts a command under l.
func (l *Limits) prefix() []string {
	if l == nil || l.prlimit == "" {
		return nil
	}
	return []string{l.prlimit,
		fmt.Sprintf("--nproc=%d", l.Processes), fmt.Sprintf("--as=%d", l.AddressSpace),
		fmt.Sprintf("--fsize=%d", l.FileSize), fmt.Sprintf("--nofile=%d", l.OpenFiles), "--"}
}

// newLimits returns DefaultLimits ready to apply, or nil and the reason
// when they cannot be.
func newLimits() (*Limits, string) {
	p, err := exec.LookPath("prlimit")
	if err != nil {
		return nil, "none: prlimit (util-linux) is not installed"
	}
	l := DefaultLimits
	l.prlimit = p
	pids, err := newPidsCgroups(l.Processes)
	switch {
	case err == nil:
		l.pids = pids
		l.Note = "each command in a pids cgroup " + pids.version + " of its own: the process limit holds for uid 0 too"
	case os.Geteuid() == 0:
		l.Note = "the process limit does not hold for uid 0: the kernel exempts root's user from RLIMIT_NPROC, and no pids cgroup can be made: " + err.Error()
	}
	return &l, ""
}

// cgroup makes the pids cgroup of one command, or returns nil where there
// are none.
func (l *Limits) cgroup() (*commandCgroup, error) {
	if l == nil || l.pids == nil {
		return nil, nil
	}
	return l.pids.enter(l.Processes)
}

// LimitHit names the limit a command's end shows it hit, or "".
func (o Outcome) LimitHit() string {
	switch {
	case o.ForksRefused > 0:
		return "process limit"
	case o.Signal == signalName(sigXFSZ):
		return "file size limit"
	}
	return ""
}

// EnvAllowed are the variables of the certifier's environment a command
// sees, when set; HOME and TMPDIR are always the command's own folder.
var EnvAllowed = []string{"PATH", "LANG", "LC_ALL", "TZ"}

// EnvPolicy describes the environment for the certificate.
func EnvPolicy(pass []string) string {
	s := strings.Join(EnvAllowed, ", ") + " from the certifier; HOME and TMPDIR a folder of the command's own; the runner's hook variables"
	if len(pass) > 0 {
		s += "; passed with --env: " + strings.Join(pass, ", ")
	}
	return s + "; nothing else"
}

// environ is the environment of one invocation: the allowed and passed
// variables of the certifier's, HOME and TMPDIR set to home, then c.Env
// and extra (hook variables), which win.
func (c *Command) environ(home string, extra ...string) []string {
	var env []string
	for _, name := range slices.Concat(EnvAllowed, c.Pass) {
		if v, ok := os.LookupEnv(name); ok && name != "HOME" && name != "TMPDIR" {
			env = append(env, name+"="+v)
		}
	}
	if home != "" {
		env = append(env, "HOME="+home, "TMPDIR="+home)
	}
	return append(append(env, c.Env...), extra...)
}

// Hide makes the given paths invisible to the commands run under iso:
// each existing one is covered by an empty read-only folder (or file).
// The suites hide their cases' folders; the temp root and the
// certifier's executable are hidden by ChooseIsolation.
func (iso *Isolation) Hide(paths ...string) {
	if !iso.Isolated() {
		return
	}
	for _, p := range paths {
		abs, err := filepath.Abs(p)
		if err != nil {
			continue
		}
		if real, err := filepath.EvalSymlinks(abs); err == nil {
			abs = real
		}
		if _, err := os.Stat(abs); err != nil || slices.Contains(iso.hidden, abs) {
			continue
		}
		iso.hidden = append(iso.hidden, abs)
	}
	iso.Hidden = slices.Clone(iso.hidden)
}

// hideArgs are bwrap's options that cover the hidden paths, given the
// writable folders bound after them: a folder gets an empty tmpfs, a file
// /dev/null. after are those that make the tmpfs read-only once the
// writable folders in it are bound, and bind the implementation's own
// files back.
func (iso *Isolation) hideArgs() (before, after []string) {
	for _, p := range iso.hidden {
		info, err := os.Stat(p)
		switch {
		case err != nil:
			continue
		case info.IsDir():
			before = append(before, "--tmpfs", p)
			after = append(after, "--remount-ro", p)
		default:
			before = append(before, "--ro-bind", "/dev/null", p)
		}
	}
	var keep []string
	for _, f := range iso.keep {
		if slices.ContainsFunc(iso.hidden, func(h string) bool { return strings.HasPrefix(f, h+"/") }) {
			keep = append(keep, "--ro-bind", f, f)
		}
	}
	// The files are bound back before the folders holding them turn
	// read-only, which leaves no room for their mount points.
	return before, append(keep, after...)
}

// hideRun hides what every run must: the temp root, and the certifier's
// executable unless impl runs it. impl's own files stay visible even
// inside a hidden folder.
func (iso *Isolation) hideRun(impl Implementation, tempRoot string) {
	c, ok := impl.(*Command)
	if !ok || !iso.Isolated() {
		return
	}
	iso.Hide(tempRoot)
	if exe, err := os.Executable(); err == nil {
		if real, err := filepath.EvalSymlinks(exe); err == nil {
			exe = real
		}
		mine := false
		for _, a := range c.Argv {
			if real, err := filepath.EvalSymlinks(a); err == nil && real == exe {
				mine = true
			}
		}
		if !mine {
			iso.Hide(exe)
		}
	}
	for _, a := range c.Argv {
		if filepath.IsAbs(a) {
			if info, err := os.Stat(a); err == nil && info.Mode().IsRegular() {
				iso.keep = append(iso.keep, a)
			}
		}
	}
}
