package patchdiff

import (
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Suite describes PatchDIFF to the runner core: the runtime profiles,
// oldest first (a case's "since" is the profile its request runs), and the
// requirement areas.
func Suite() runner.Suite {
	return runner.Suite{
		Name: "patchdiff",
		Profiles: []string{"patchdiff-mvp-0.1.0", "patchdiff-mvp-0.2.0", "patchdiff-mvp-0.2.1", "patchdiff-mvp-0.2.2",
			"patchdiff-mvp-0.3.0", "patchdiff-mvp-0.4.0", "patchdiff-mvp-0.5.0"},
	}
}
