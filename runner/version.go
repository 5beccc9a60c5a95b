package runner

import (
	"runtime/debug"
	"strings"
)

// ModulePath is this module's path, which go install takes.
const ModulePath = "github.com/blockpatch-conformance/blockpatch-conformance"

// ModuleVersion names the build of this module that runs: the version go
// install resolved (v1.2.0, or a pseudo-version for a commit), or for a
// build from a checkout the version Go stamps from its VCS, with the
// commit when it knows it.
func ModuleVersion() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return ModulePath + " (no build information)"
	}
	v := bi.Main.Version
	if bi.Main.Path != ModulePath {
		// A test binary, or this module built as a dependency.
		for _, d := range bi.Deps {
			if d.Path == ModulePath {
				v = d.Version
			}
		}
	}
	if v == "" {
		v = "(devel)"
	}
	out := ModulePath + " " + v
	var rev, modified string
	for _, s := range bi.Settings {
		switch s.Key {
		case "vcs.revision":
			rev = s.Value
		case "vcs.modified":
			modified = s.Value
		}
	}
	if rev != "" && !containsRev(v, rev) {
		out += " (commit " + rev[:min(12, len(rev))]
		if modified == "true" {
			out += ", modified"
		}
		out += ")"
	}
	return out
}

// containsRev reports whether a pseudo-version already names the commit.
func containsRev(v, rev string) bool {
	v, _, _ = strings.Cut(v, "+")
	return len(rev) >= 12 && len(v) >= 12 && v[len(v)-12:] == rev[:12]
}
