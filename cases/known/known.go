// Package known holds the known deviations of upstream's releases from
// their own documentation: one skip list per release (upstream-<v>.txt, in
// the --skip-file format of blockpatch-conformance), each entry quoting the
// sentence the release does not keep, and the profile each release is
// certified at.
package known

import (
	"embed"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

//go:embed upstream-*.txt
var lists embed.FS

// Release is one published upstream release.
type Release struct {
	Version string // such as "1.1.0"
	Profile string // the spec profile it implements, such as "1.1"
}

// Releases lists upstream's releases, oldest first.
var Releases = []Release{
	{Version: "1.0.0", Profile: "1.0"},
	{Version: "1.1.0", Profile: "1.1"},
	{Version: "1.1.1", Profile: "1.1.1"},
}

// File is the name of r's list in this folder.
func (r Release) File() string { return fmt.Sprintf("upstream-%s.txt", r.Version) }

// List returns the text of r's list.
func (r Release) List() ([]byte, error) { return lists.ReadFile(r.File()) }

// DefaultPeers is where the released CLIs are on the project's machines:
// ../shared/peers beside the checkout, <version>/dist/cli.mjs each.
const DefaultPeers = "../shared/peers"

// Command returns the command line that runs r's released CLI from the
// peers folder dir with Node.js, or why it cannot: the file or node is
// missing (a user's fresh clone has no peers).
func (r Release) Command(dir string) ([]string, error) {
	cli, err := filepath.Abs(filepath.Join(dir, r.Version, "dist", "cli.mjs"))
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(cli); err != nil {
		return nil, fmt.Errorf("upstream release %s is not in %s: %w", r.Version, dir, err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, fmt.Errorf("node is not installed: it runs upstream's release %s", r.Version)
	}
	return []string{node, cli}, nil
}
