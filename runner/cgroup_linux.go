package runner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// RLIMIT_NPROC counts the processes of a user, and the kernel never
// applies it to uid 0: a command run by root may fork without bound. The
// pids controller of the cgroups bounds the processes of a group whoever
// runs them, so where the runner can make cgroups with it (as root, or in
// a delegated cgroup2 hierarchy) each command runs in a pids cgroup of
// its own whose pids.max is Limits.Processes. A cgroup2 hierarchy that
// offers the pids controller is preferred; else the cgroup v1 pids
// hierarchy. The command joins its cgroup through a shell that writes its
// own PID to cgroup.procs and then executes the command (bwrap), so that
// every process it starts is counted from the first. After the command the
// runner reads pids.events (how many forks the limit refused), kills what
// is left in the cgroup and removes it.

// pidsCgroups makes the pids cgroups of one run's commands.
type pidsCgroups struct {
	// parent is the folder the commands' cgroups are made in: the
	// runner's own cgroup in the hierarchy.
	parent string
	// version is "v2" or "v1".
	version string
	sh      string
}

// cgroupsMade numbers the cgroups the process makes, in every run.
var cgroupsMade atomic.Uint64

// commandCgroup is one command's pids cgroup.
type commandCgroup struct {
	dir string
	sh  string
}

// newPidsCgroups finds a pids hierarchy where cgroups can be made and
// tries one, with limit processes, running a command in it. It returns why
// there is none.
func newPidsCgroups(limit int) (*pidsCgroups, error) {
	sh, err := exec.LookPath("sh")
	if err != nil {
		return nil, errors.New("no sh to join a cgroup with")
	}
	mountinfo, err := os.ReadFile("/proc/self/mountinfo")
	if err != nil {
		return nil, err
	}
	own, err := os.ReadFile("/proc/self/cgroup")
	if err != nil {
		return nil, err
	}
	var whyNot []string
	for _, version := range []string{"v2", "v1"} {
		parent, err := pidsParent(version, mountinfo, own)
		if err == nil {
			p := &pidsCgroups{parent: parent, version: version, sh: sh}
			if err = p.try(limit); err == nil {
				return p, nil
			}
		}
		whyNot = append(whyNot, "cgroup "+version+": "+err.Error())
	}
	return nil, errors.New(strings.Join(whyNot, "; "))
}

// pidsParent finds the runner's own cgroup in the pids hierarchy of the
// given version, from the texts of /proc/self/mountinfo and
// /proc/self/cgroup. In cgroup2 the pids controller must be offered to
// the children of that cgroup (cgroup.subtree_control), which the runner
// asks for when it is only available.
func pidsParent(version string, mountinfo, own []byte) (string, error) {
	var mount, root string
	sc := bufio.NewScanner(bytes.NewReader(mountinfo))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		sep := slices.Index(f, "-")
		if len(f) < 5 || sep < 0 || sep+3 >= len(f) {
			continue
		}
		fstype, opts := f[sep+1], strings.Split(f[sep+3], ",")
		if version == "v2" && fstype == "cgroup2" || version == "v1" && fstype == "cgroup" && slices.Contains(opts, "pids") {
			mount, root = unescapeMount(f[4]), unescapeMount(f[3])
			break
		}
	}
	if mount == "" {
		return "", errors.New("no such hierarchy is mounted")
	}
	var path string
	for line := range strings.Lines(string(own)) {
		id, rest, _ := strings.Cut(strings.TrimSpace(line), ":")
		controllers, p, _ := strings.Cut(rest, ":")
		if version == "v2" && id == "0" && controllers == "" || version == "v1" && slices.Contains(strings.Split(controllers, ","), "pids") {
			path = p
		}
	}
	if path == "" {
		return "", errors.New("the runner is in no cgroup of it")
	}
	rel, ok := strings.CutPrefix(path, root)
	if !ok && root != "/" {
		return "", fmt.Errorf("the runner's cgroup %s is not below the mount's root %s", path, root)
	} else if !ok {
		rel = path
	}
	parent := filepath.Join(mount, rel)
	if version == "v2" {
		offered, err := os.ReadFile(filepath.Join(parent, "cgroup.controllers"))
		if err != nil {
			return "", err
		}
		if !slices.Contains(strings.Fields(string(offered)), "pids") {
			return "", errors.New("the pids controller is not delegated to the runner's cgroup")
		}
		on, err := os.ReadFile(filepath.Join(parent, "cgroup.subtree_control"))
		if err != nil {
			return "", err
		}
		if !slices.Contains(strings.Fields(string(on)), "pids") {
			if err := os.WriteFile(filepath.Join(parent, "cgroup.subtree_control"), []byte("+pids"), 0); err != nil {
				return "", fmt.Errorf("enabling the pids controller for the runner's cgroup's children: %w", err)
			}
		}
	}
	return parent, nil
}

// try makes a cgroup, runs true in it and removes it.
func (p *pidsCgroups) try(limit int) error {
	cg, err := p.enter(limit)
	if err != nil {
		return err
	}
	argv := cg.wrap([]string{"true"})
	out, err := combinedOutput(exec.Command(argv[0], argv[1:]...))
	if _, cerr := cg.close(); err == nil && cerr != nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("running a command in a pids cgroup: %v: %s", err, bounded(out, 200))
	}
	return nil
}

// enter makes a new cgroup for one command, limited to limit processes.
func (p *pidsCgroups) enter(limit int) (*commandCgroup, error) {
	dir := filepath.Join(p.parent, fmt.Sprintf("blockpatch-conformance-%d-%d", os.Getpid(), cgroupsMade.Add(1)))
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, fmt.Errorf("making a pids cgroup: %w", err)
	}
	cg := &commandCgroup{dir: dir, sh: p.sh}
	if err := os.WriteFile(filepath.Join(dir, "pids.max"), []byte(strconv.Itoa(limit)), 0); err != nil {
		cg.close()
		return nil, fmt.Errorf("limiting a pids cgroup: %w", err)
	}
	return cg, nil
}

// joinScript moves the shell into the cgroup named by its $0, then
// becomes the command.
const joinScript = `echo $$ > "$0/cgroup.procs" || exit 125; exec "$@"`

// wrap returns argv run in the cgroup.
func (cg *commandCgroup) wrap(argv []string) []string {
	return append([]string{cg.sh, "-c", joinScript, cg.dir}, argv...)
}

// close kills every process left in the cgroup, removes it, and returns
// how many forks its limit refused.
func (cg *commandCgroup) close() (int, error) {
	refused := 0
	if events, err := os.ReadFile(filepath.Join(cg.dir, "pids.events")); err == nil {
		for line := range strings.Lines(string(events)) {
			if n, ok := strings.CutPrefix(strings.TrimSpace(line), "max "); ok {
				refused, _ = strconv.Atoi(n)
			}
		}
	}
	// The processes of a PID namespace whose first process ended, or
	// killed, take a moment to go.
	var err error
	for wait := time.Millisecond; wait < 2*time.Second; wait *= 2 {
		if err = os.Remove(cg.dir); err == nil || errors.Is(err, os.ErrNotExist) {
			return refused, nil
		}
		if os.WriteFile(filepath.Join(cg.dir, "cgroup.kill"), []byte("1"), 0) != nil { // cgroup2 since Linux 5.14
			if procs, rerr := os.ReadFile(filepath.Join(cg.dir, "cgroup.procs")); rerr == nil {
				for _, f := range strings.Fields(string(procs)) {
					if pid, perr := strconv.Atoi(f); perr == nil && pid > 0 {
						killMember(pid, filepath.Base(cg.dir))
					}
				}
			}
		}
		time.Sleep(wait)
	}
	return refused, fmt.Errorf("removing the pids cgroup %s: %w", cg.dir, err)
}

// killMember kills the process pid if it is in the cgroup named name. A
// pid read from cgroup.procs may have ended since, and the kernel may have
// given its number to a new process elsewhere (a fork bomb's cgroup makes
// numbers wrap round quickly): killing by number killed other commands'
// sandboxes. The process is held by a pidfd while its cgroup is checked,
// so the signal reaches the one that was checked or none.
func killMember(pid int, name string) {
	fd, err := unix.PidfdOpen(pid, 0)
	if err != nil {
		return // gone, or a kernel without pidfds (before 5.3): leave it to the next look
	}
	defer unix.Close(fd)
	own, err := os.ReadFile(fmt.Sprintf("/proc/%d/cgroup", pid))
	if err != nil || !bytes.Contains(own, []byte("/"+name+"\n")) {
		return
	}
	_ = unix.PidfdSendSignal(fd, unix.SIGKILL, nil, 0)
}
