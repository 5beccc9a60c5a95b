package cases

import (
	"slices"
	"strings"
)

// Level is one part of blockpatch that a case may need from an
// implementation. The levels are independent features, not steps of a
// ladder: a command-line tool without a planner implements core and cli,
// and a case runs when the implementation has every level the case needs
// (Case.Levels), so its cases about check and apply on stdin run while
// those about plan are skipped.
type Level string

// The levels, in the order reports list them.
const (
	// Core is the check/apply protocol: the patch format, matching, paths,
	// idempotence, reverse and the JSON output of check and apply, run as
	// the Standard protocol runs them.
	Core Level = "core"
	// Planner is plan and move over move JSON requests on stdin, run as the
	// Planned protocol runs them.
	Planner Level = "planner"
	// CLI is the command line beyond those forms: the patch from stdin or
	// -i, -d, other spellings such as --strip N and --reverse, move flags,
	// human output, help and version, option errors.
	CLI Level = "cli"
)

// Levels lists the levels in the order reports list them.
var Levels = []Level{Core, Planner, CLI}

// CommandLevels returns the levels one command line (the arguments after
// the program name, placeholders unexpanded or not) needs, in the order of
// Levels. check and apply need core and plan and move need planner, when
// the line is one that the Standard or Planned protocol runs
// (ProtocolStep.Args): the command, its input (a patch path, or "--json -"
// for plan and move), then -R and -pN at most once each, then --cwd DIR,
// then --json-output but for plan. Any other form of those commands needs
// cli as well, and every other command (version, help, an unknown one, no
// command) needs cli alone.
func CommandLevels(args []string) []Level {
	if len(args) == 0 {
		return []Level{CLI}
	}
	var base Level
	switch args[0] {
	case "check", "apply":
		base = Core
	case "plan", "move":
		base = Planner
	default:
		return []Level{CLI}
	}
	if protocolForm(args) {
		return []Level{base}
	}
	return sortLevels([]Level{base, CLI})
}

// protocolForm reports whether args, a check, apply, plan or move command
// line, has the shape ProtocolStep.Args gives it.
func protocolForm(args []string) bool {
	cmd, rest := args[0], args[1:]
	if cmd == "plan" || cmd == "move" {
		if len(rest) < 2 || rest[0] != "--json" || rest[1] != RequestInput {
			return false
		}
		rest = rest[2:]
	} else {
		if len(rest) == 0 || rest[0] == "" || strings.HasPrefix(rest[0], "-") {
			return false
		}
		rest = rest[1:]
	}
	var reverse, strip bool
options:
	for len(rest) > 0 {
		switch a := rest[0]; {
		case a == "-R" && !reverse:
			reverse = true
		case isStripDigits(a) && !strip:
			strip = true
		default:
			break options
		}
		rest = rest[1:]
	}
	want := 3 // --cwd DIR --json-output
	if cmd == "plan" {
		want = 2 // plan prints its JSON without being asked
	}
	return len(rest) == want && rest[0] == "--cwd" && rest[1] != "" && !strings.HasPrefix(rest[1], "-") &&
		(want == 2 || rest[2] == "--json-output")
}

// isStripDigits reports whether a is -pN with N decimal digits, the form
// the protocols pass a case's strip count in.
func isStripDigits(a string) bool {
	n, ok := strings.CutPrefix(a, "-p")
	return ok && n != "" && strings.Trim(n, "0123456789") == ""
}

// sortLevels returns ls without duplicates, in the order of Levels.
func sortLevels(ls []Level) []Level {
	var out []Level
	for _, l := range Levels {
		if slices.Contains(ls, l) {
			out = append(out, l)
		}
	}
	return out
}

// protocolLevels returns the levels the command lines of a Standard or
// Planned case need.
func (c *Case) protocolLevels() []Level {
	var out []Level
	for _, s := range c.Protocol.Steps(false) {
		out = append(out, CommandLevels(s.Args(c.Args, c.Strip))...)
	}
	return sortLevels(out)
}

// stepLevels returns the levels the command lines of a Steps case need.
func (c *Case) stepLevels() []Level {
	var out []Level
	for _, s := range c.Steps {
		out = append(out, CommandLevels(s.Args)...)
	}
	return sortLevels(out)
}

// LevelsText writes levels as the certificate and list do: "core+cli".
func LevelsText(ls []Level) string {
	s := make([]string, len(ls))
	for i, l := range ls {
		s[i] = string(l)
	}
	return strings.Join(s, "+")
}
