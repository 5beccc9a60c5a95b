package main

import (
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// TestUsage: every flag described, lines that fit a terminal, and the
// default profile the newest runtime profile of spec/patchdiff.
func TestUsage(t *testing.T) {
	t.Parallel()
	problems := certcmd.UsageProblems(flags(new(options)), usage)
	profiles := patchdiff.Suite().Profiles
	if newest := profiles[len(profiles)-1]; !strings.Contains(strings.Join(strings.Fields(usage), " "), "(default "+newest+")") {
		problems = append(problems, "usage does not give the newest runtime profile "+newest+" as the default")
	}
	for _, p := range problems {
		t.Error(p)
	}
}
