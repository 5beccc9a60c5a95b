package main

import (
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// TestUsage keeps the help text tidy and complete, every flag described
// and lines that fit a terminal, and true to the spec: it names every
// profile and the newest as the default.
func TestUsage(t *testing.T) {
	t.Parallel()
	problems := certcmd.UsageProblems(flags(new(options)), usage)
	newest := spec.Profiles[len(spec.Profiles)-1]
	if !strings.Contains(usage, "(default "+newest+")") {
		problems = append(problems, "usage does not give the newest profile "+newest+" as the default")
	}
	for _, p := range spec.Profiles {
		if !strings.Contains(usage, p) {
			problems = append(problems, "usage does not name profile "+p)
		}
	}
	for _, p := range problems {
		t.Error(p)
	}
}
