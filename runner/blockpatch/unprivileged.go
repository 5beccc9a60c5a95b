package blockpatch

import (
	"os"
	"os/exec"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// dropOverride is the command prefix that runs a program as root without
// root's power to override file permission bits, so that a read-only
// folder binds it as it binds any user.
var dropOverride = []string{"setpriv", "--bounding-set=-dac_override,-dac_read_search", "--"}

// unprivileged returns the implementation to run an unprivileged case
// with, or nil and the reason there is none. Not running as root, or
// under bwrap (which drops every capability, DAC override included), it is
// r.Impl itself. As root otherwise it is r.Impl's command (see Commander)
// under setpriv, since a goroutine cannot give up privileges.
func (r *Runner) unprivileged(iso *runner.Isolation) (runner.Implementation, string) {
	return Unprivileged(r.Impl, iso)
}

// Unprivileged returns impl as the runner runs it for an unprivileged
// case under iso (nil: no isolation), or nil and the reason there is
// none; the differential campaign runs its read-only-folder scenarios
// with it, so they are judged as the certifier judges such cases.
func Unprivileged(impl runner.Implementation, iso *runner.Isolation) (runner.Implementation, string) {
	if os.Geteuid() != 0 || iso.Isolated() {
		return impl, ""
	}
	setpriv, err := exec.LookPath(dropOverride[0])
	if err != nil {
		return nil, "the case needs permission bits to bind the implementation; running as root, that takes setpriv (util-linux), which is not installed"
	}
	cmdr, ok := impl.(runner.Commander)
	if !ok {
		return nil, "the case needs permission bits to bind the implementation, and this implementation cannot run without root's override"
	}
	c, err := cmdr.Command()
	if err != nil {
		return nil, "running the implementation as a process: " + err.Error()
	}
	return c.Prefixed(append([]string{setpriv}, dropOverride[1:]...)...), ""
}
