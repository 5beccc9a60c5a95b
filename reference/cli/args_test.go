package cli

import (
	"errors"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// TestEveryOptionHasASetter: the parser reads the spec's options table,
// so each row needs something to set, and nothing is set for an option the
// table does not list.
func TestEveryOptionHasASetter(t *testing.T) {
	t.Parallel()
	listed := map[string]bool{}
	for _, o := range spec.Options() {
		listed[o.Long] = true
		if setters[o.Long] == nil {
			t.Errorf("option %s of the spec's table has no setter", o.Long)
		}
	}
	for name := range setters {
		if !listed[name] {
			t.Errorf("setter for %s, which the spec's options table does not list", name)
		}
	}
}

// TestParseArgsRefusals checks the refusals the option table decides, by
// code, for the disagreements the calibration found (CLI-030, CLI-033).
func TestParseArgsRefusals(t *testing.T) {
	t.Parallel()
	tests := []struct {
		args []string
		want reference.Code
		why  string
	}{
		{[]string{"check", "p", "--dry-run"}, reference.InvalidOption, "check reads --dry-run only to refuse it (CLI-030)"},
		{[]string{"check", "--dry-run", "p", "q"}, reference.TooManyArgs, "a second patch is reported before --dry-run (CLI-030)"},
		{[]string{"check", "--dry-run", "--bogus"}, reference.UnknownOption, "an unknown option is reported before --dry-run (CLI-030)"},
		{[]string{"check", "--dry-run", "--cwd"}, reference.MissingOptionValue, "a missing value is reported before --dry-run (CLI-030)"},
		{[]string{"check", "--dry-run=x"}, reference.UnknownOption, "--dry-run takes no =value (CLI-028)"},
		{[]string{"version", "-"}, reference.UnknownOption, "version takes no standard input (CLI-033)"},
		{[]string{"version", "x"}, reference.TooManyArgs, "version takes no argument (CLI-033)"},
		{[]string{"version", "--cwd", "."}, reference.UnknownOption, "version takes no --cwd (CLI-033)"},
		{[]string{"plan", "-"}, reference.UnknownOption, "plan takes no positional argument (CLI-010)"},
		{[]string{"check", "p", "--"}, reference.UnknownOption, "-- ends nothing (CLI-036)"},
		{[]string{"-R", "check"}, reference.UnknownCommand, "only leading options come before the command (CLI-034)"},
		{[]string{"check", "-i1"}, reference.UnknownOption, "only a count joins its short spelling (CLI-007)"},
		{[]string{"check", "-d=x"}, reference.UnknownOption, "a short spelling takes no =value (CLI-028)"},
	}
	for _, tt := range tests {
		_, err := parseArgs(tt.args)
		if !errors.Is(err, &reference.Error{Code: tt.want}) {
			t.Errorf("parseArgs(%q) = %v, want %s: %s", tt.args, err, tt.want, tt.why)
		}
	}
	for _, args := range [][]string{{"check", "-p0", "-R", "--explain"}, {"apply", "--dry-run", "--strip=2"}, {"help", "--", "-x"}, {"--explain", "version", "--json-output"}} {
		if _, err := parseArgs(args); err != nil {
			t.Errorf("parseArgs(%q) = %v, want it taken", args, err)
		}
	}
}
