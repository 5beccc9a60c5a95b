package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases/known"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/compare"
)

// resolve turns one implementation named on compare's command line into
// the runs to compare: "reference" (embedded), "peers" (every upstream
// release found in --peers, each at its profile), "peer:VERSION", or
// "NAME=COMMAND LINE".
func (o *options) resolve(spec string, newRunner func(runner.Implementation) *blockpatch.Runner, stderr io.Writer) ([]compare.Impl, error) {
	one := func(name string, impl runner.Implementation, profile string) compare.Impl {
		r := newRunner(impl)
		if profile != "" {
			r.Profile = profile
		}
		return compare.Impl{Name: name, Profile: r.Profile, Run: r.Run}
	}
	switch version, isPeer := strings.CutPrefix(spec, "peer:"); {
	case spec == "reference":
		return []compare.Impl{one("reference", embedded.Reference(), "")}, nil
	case spec == "peers" || isPeer:
		var out []compare.Impl
		for _, rel := range known.Releases {
			if isPeer && rel.Version != version {
				continue
			}
			argv, err := rel.Command(o.peers)
			if err == nil {
				var cmd *runner.Command
				if cmd, err = runner.NewCommand(argv); err == nil {
					out = append(out, one("upstream "+rel.Version, cmd, rel.Profile))
					continue
				}
			}
			if isPeer {
				return nil, err
			}
			fmt.Fprintf(stderr, "%s: leaving out %s: %v\n", o.Name, rel.Version, err)
		}
		if len(out) == 0 && isPeer {
			return nil, fmt.Errorf("%s: no such upstream release", spec)
		}
		return out, nil
	}
	name, argv := certcmd.ParseImpl(spec)
	cmd, err := runner.NewCommand(argv)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return []compare.Impl{one(name, cmd, "")}, nil
}
