package main

import (
	"flag"
	"strings"
	"testing"
)

// TestUsage keeps the help text tidy and complete: every flag is
// described, and lines fit a terminal.
func TestUsage(t *testing.T) {
	t.Parallel()
	var o options
	flags(&o).VisitAll(func(f *flag.Flag) {
		dashes := "--"
		if len(f.Name) <= 4 && f.Name != "keep" && f.Name != "seed" {
			dashes = "-" // -run, -skip, -v, as go test spells them
		}
		if !strings.Contains(usage, "  "+dashes+f.Name+" ") && !strings.Contains(usage, "  "+dashes+f.Name+"\n") {
			t.Errorf("usage does not describe %s%s", dashes, f.Name)
		}
	})
	for i, line := range strings.Split(strings.TrimSuffix(usage, "\n"), "\n") {
		if len([]rune(line)) > 80 {
			t.Errorf("line %d is %d columns: %q", i+1, len([]rune(line)), line)
		}
		if strings.Contains(line, "\t") || strings.TrimRight(line, " ") != line {
			t.Errorf("line %d has a tab or trailing space: %q", i+1, line)
		}
	}
	if !strings.HasSuffix(usage, "\n") || strings.HasSuffix(usage, "\n\n") {
		t.Error("usage must end with exactly one newline")
	}
}
