package patchdiff

import (
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Suite describes PatchDIFF to the runner core: the runtime profiles of
// spec/patchdiff, oldest first (a case's "since" is the profile its request
// runs under), and the requirement areas of patchdiff-core.md.
func Suite() runner.Suite {
	return runner.Suite{
		Name:     "patchdiff",
		Profiles: pdspec.ProfileNames(),
		Areas:    pdspec.Areas,
		AreaOf: func(id string) (string, bool) {
			r, ok := pdspec.Lookup(id)
			return r.Area, ok
		},
	}
}
