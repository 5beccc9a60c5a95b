//go:build !linux

package runner

import "errors"

// Only Linux has cgroups: the process limit is RLIMIT_NPROC alone.

type pidsCgroups struct{ version string }

type commandCgroup struct{}

func newPidsCgroups(limit int) (*pidsCgroups, error) {
	return nil, errors.New("cgroups are Linux's")
}

func (p *pidsCgroups) enter(limit int) (*commandCgroup, error) { return nil, errors.New("no cgroups") }
func (cg *commandCgroup) wrap(argv []string) []string          { return argv }
func (cg *commandCgroup) close() (int, error)                  { return 0, nil }
