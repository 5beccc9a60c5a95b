package main

import (
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
)

// TestUsage keeps the help text tidy and complete: every flag is
// described, and lines fit a terminal.
func TestUsage(t *testing.T) {
	t.Parallel()
	var o options
	for _, p := range certcmd.UsageProblems(flags(&o), usage) {
		t.Error(p)
	}
}
