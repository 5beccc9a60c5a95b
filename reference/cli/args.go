package cli

import (
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/fault"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// options holds everything the command line said.
type options struct {
	command    string
	positional []string

	input      string // -i/--input
	hasInput   bool
	cwd        string
	strip      int
	reverse    bool
	dryRun     bool
	jsonOutput bool
	explain    bool
	diff       bool

	jsonRequest    string // --json
	hasJSONRequest bool
	moveFlags      map[string]string // move JSON field -> value from --src etc.
}

// A flag's kind decides how it is read and which commands accept it.
type flagSpec struct {
	value    bool     // takes a value
	commands []string // commands that accept it
	set      func(o *options, name, value string) error
}

var (
	patchCommands = []string{"check", "apply"}
	moveCommands  = []string{"plan", "move"}
	allCommands   = []string{"check", "apply", "plan", "move", "version"}
)

// moveFlagFields maps the move flags to move JSON fields.
var moveFlagFields = map[string]string{
	"--src": "src", "--src-start": "src_start", "--src-end": "src_end", "--dst": "dst",
	"--payload": "payload", "--target-before": "target_before", "--target-after": "target_after",
	"--expected-payload-sha256": "expected_payload_sha256",
}

var flags = map[string]flagSpec{
	"-i":            {true, patchCommands, setInput},
	"--input":       {true, patchCommands, setInput},
	"-d":            {true, []string{"check", "apply", "plan", "move"}, setCwd},
	"--directory":   {true, []string{"check", "apply", "plan", "move"}, setCwd},
	"--cwd":         {true, []string{"check", "apply", "plan", "move"}, setCwd},
	"-p":            {true, patchCommands, setStrip},
	"--strip":       {true, patchCommands, setStrip},
	"-R":            {false, patchCommands, func(o *options, _, _ string) error { o.reverse = true; return nil }},
	"--reverse":     {false, patchCommands, func(o *options, _, _ string) error { o.reverse = true; return nil }},
	"--dry-run":     {false, []string{"check", "apply", "plan", "move"}, func(o *options, _, _ string) error { o.dryRun = true; return nil }},
	"--json-output": {false, allCommands, func(o *options, _, _ string) error { o.jsonOutput = true; return nil }},
	"--explain":     {false, []string{"check", "apply", "plan", "move"}, func(o *options, _, _ string) error { o.explain = true; return nil }},
	"--diff":        {false, moveCommands, func(o *options, _, _ string) error { o.diff = true; return nil }},
	"--json":        {true, moveCommands, func(o *options, _, v string) error { o.jsonRequest, o.hasJSONRequest = v, true; return nil }},
}

func init() {
	for name := range moveFlagFields {
		flags[name] = flagSpec{true, moveCommands, setMoveFlag}
	}
}

func setInput(o *options, name, v string) error {
	if o.hasInput {
		return argError(reference.TooManyArgs, name+" given twice")
	}
	o.input, o.hasInput = v, true
	return nil
}

func setCwd(o *options, _, v string) error {
	o.cwd = v
	return nil
}

func setStrip(o *options, name, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 || strings.HasPrefix(v, "+") {
		return argError(reference.InvalidOption, name+" needs a non-negative integer, not "+strconv.Quote(v))
	}
	o.strip = n
	return nil
}

func setMoveFlag(o *options, name, v string) error {
	field := moveFlagFields[name]
	if _, dup := o.moveFlags[field]; dup {
		return argError(reference.InvalidOption, name+" given twice")
	}
	o.moveFlags[field] = v
	return nil
}

func argError(code reference.Code, msg string) error {
	return &reference.Error{Code: code, Message: msg}
}

// parseArgs reads the command line. Options may come before or after
// positional arguments; "--" ends options; "-" is a positional argument.
func parseArgs(args []string) (*options, error) {
	o := &options{strip: 1, cwd: ".", moveFlags: map[string]string{}}
	if fault.On(fault.DefaultStripZero) {
		o.strip = 0
	}
	if len(args) == 0 {
		return nil, argError(reference.UnknownCommand, "missing command; run blockpatch help")
	}
	o.command = args[0]
	switch o.command {
	case "check", "apply", "plan", "move", "version", "help":
	case "-h", "--help":
		o.command = "help"
	default:
		return nil, argError(reference.UnknownCommand, "unknown command "+strconv.Quote(args[0]))
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		if arg == "--" {
			o.positional = append(o.positional, rest[i+1:]...)
			break
		}
		if arg == "-" || !strings.HasPrefix(arg, "-") {
			o.positional = append(o.positional, arg)
			continue
		}
		if arg == "-h" || arg == "--help" {
			o.command = "help"
			continue
		}
		name, value, hasValue := arg, "", false
		switch {
		case strings.HasPrefix(arg, "--"):
			if k, v, ok := strings.Cut(arg, "="); ok {
				name, value, hasValue = k, v, true
			}
		case strings.HasPrefix(arg, "-p") && len(arg) > 2:
			name, value, hasValue = "-p", arg[2:], true
		}
		spec, ok := flags[name]
		if !ok || !accepts(spec, o.command) {
			return nil, argError(reference.UnknownOption, "unknown option "+strconv.Quote(name)+" for "+o.command)
		}
		if !spec.value {
			if hasValue {
				return nil, argError(reference.InvalidOption, name+" takes no value")
			}
		} else if !hasValue {
			// A following recognised option means the value is missing;
			// values that look like options are written --opt=value.
			if _, isFlag := flags[nextArg(rest, i)]; i+1 >= len(rest) || isFlag {
				return nil, argError(reference.MissingOptionValue, name+" needs a value")
			}
			i++
			value = rest[i]
		}
		if err := spec.set(o, name, value); err != nil {
			return nil, err
		}
	}
	return o, o.validate()
}

func nextArg(args []string, i int) string {
	if i+1 < len(args) {
		return args[i+1]
	}
	return ""
}

func accepts(spec flagSpec, command string) bool {
	if command == "help" {
		return true
	}
	for _, c := range spec.commands {
		if c == command {
			return true
		}
	}
	return false
}

// validate checks combinations once every argument is read.
func (o *options) validate() error {
	switch o.command {
	case "check", "apply":
		if len(o.positional) > 1 || (o.hasInput && len(o.positional) == 1) {
			return argError(reference.TooManyArgs, "too many arguments: "+o.command+" takes one patch")
		}
	case "plan", "move":
		if len(o.positional) > 0 {
			return argError(reference.TooManyArgs, "unexpected argument "+strconv.Quote(o.positional[0]))
		}
		if o.hasJSONRequest && len(o.moveFlags) > 0 {
			return argError(reference.InvalidOption, "--json cannot be combined with move flags such as --src")
		}
		if !o.hasJSONRequest && len(o.moveFlags) == 0 {
			return &reference.Error{Code: reference.MissingMoveArgs, Message: o.command + " needs --json <path|-> or move flags such as --src"}
		}
	case "version", "help":
		if len(o.positional) > 0 {
			return argError(reference.TooManyArgs, "unexpected argument "+strconv.Quote(o.positional[0]))
		}
	}
	return nil
}

// wantsJSON reports whether errors should be JSON, judged from the raw
// arguments so that argument errors follow --json-output too.
func wantsJSON(args []string) bool {
	if len(args) > 0 && args[0] == "plan" {
		return true
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "--json-output" || a == "--explain" {
			return true
		}
	}
	return false
}
