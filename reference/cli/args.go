package cli

import (
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// options holds everything the command line said.
type options struct {
	command string

	input      string // -i/--input or the positional patch
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
	value    bool     // takes a value: always the next argument
	eq       bool     // also written --name=value
	commands []string // commands that accept it
	set      func(o *options, name, value string) error
}

var (
	patchCommands = []string{"check", "apply"}
	moveCommands  = []string{"plan", "move"}
	fileCommands  = []string{"check", "apply", "plan", "move"}
	allCommands   = []string{"check", "apply", "plan", "move", "version"}
)

// moveFlagFields maps the move flags to move JSON fields.
var moveFlagFields = map[string]string{
	"--src": "src", "--src-start": "src_start", "--src-end": "src_end", "--dst": "dst",
	"--payload": "payload", "--target-before": "target_before", "--target-after": "target_after",
	"--expected-payload-sha256": "expected_payload_sha256",
}

var flags = map[string]flagSpec{
	"-i":            {true, false, patchCommands, setInput},
	"--input":       {true, true, patchCommands, setInput},
	"-d":            {true, false, fileCommands, setCwd},
	"--directory":   {true, true, fileCommands, setCwd},
	"--cwd":         {true, true, fileCommands, setCwd},
	"-p":            {true, false, patchCommands, setStrip},
	"--strip":       {true, true, patchCommands, setStrip},
	"-R":            {false, false, patchCommands, func(o *options, _, _ string) error { o.reverse = true; return nil }},
	"--reverse":     {false, false, patchCommands, func(o *options, _, _ string) error { o.reverse = true; return nil }},
	"--dry-run":     {false, false, fileCommands, func(o *options, _, _ string) error { o.dryRun = true; return nil }},
	"--json-output": {false, false, allCommands, func(o *options, _, _ string) error { o.jsonOutput = true; return nil }},
	"--explain":     {false, false, allCommands, func(o *options, _, _ string) error { o.explain = true; return nil }},
	"--diff":        {false, false, moveCommands, func(o *options, _, _ string) error { o.diff = true; return nil }},
	"--json":        {true, true, moveCommands, func(o *options, _, v string) error { o.jsonRequest, o.hasJSONRequest = v, true; return nil }},
}

func init() {
	for name := range moveFlagFields {
		flags[name] = flagSpec{true, false, moveCommands, setMoveFlag}
	}
}

// setInput takes -i's value; a patch named twice is too_many_args.
func setInput(o *options, _, v string) error {
	if o.hasInput {
		return argError(reference.TooManyArgs, "unexpected argument "+strconv.Quote(v))
	}
	o.input, o.hasInput = v, true
	return nil
}

func setCwd(o *options, _, v string) error {
	o.cwd = v
	return nil
}

// setStrip reads -pN: decimal digits only.
func setStrip(o *options, name, v string) error {
	n, err := strconv.Atoi(v)
	if err != nil || v == "" || strings.Trim(v, "0123456789") != "" {
		return argError(reference.InvalidOption, "invalid strip count for "+name+": "+strconv.Quote(v))
	}
	o.strip = n
	return nil
}

// setMoveFlag sets a request field; the last of repeated flags counts.
func setMoveFlag(o *options, name, v string) error {
	o.moveFlags[moveFlagFields[name]] = v
	return nil
}

func argError(code reference.Code, msg string) error {
	return &reference.Error{Code: code, Message: msg}
}

// parseArgs reads the command line as upstream does. Leading --json-output
// and --explain apply to any command; with nothing else, or with help, -h
// or --help first, the usage is printed and the rest ignored. version,
// --version and -v print the version. After the command, a value option
// takes the next argument whatever it looks like (missing_option_value
// only at the end), --input, --cwd, --directory, --strip and --json may
// also be written --name=value, and -pN joins the count. Anything else
// starting with "-" but "-" itself, "--" included, is unknown_option, and
// so is a positional argument of plan and move; check and apply take one
// patch (-i or a positional argument), version none (too_many_args).
// Errors are reported in argument order.
func parseArgs(args []string) (*options, error) {
	o := &options{strip: 1, cwd: ".", moveFlags: map[string]string{}}
	for len(args) > 0 && (args[0] == "--json-output" || args[0] == "--explain") {
		if args[0] == "--explain" {
			o.explain = true
		} else {
			o.jsonOutput = true
		}
		args = args[1:]
	}
	if len(args) == 0 {
		o.command = "help"
		return o, nil
	}
	o.command = args[0]
	switch o.command {
	case "check", "apply", "plan", "move", "version":
	case "--version", "-v":
		o.command = "version"
	case "help", "-h", "--help":
		o.command = "help"
		return o, nil
	default:
		return nil, argError(reference.UnknownCommand, "unknown command "+strconv.Quote(args[0]))
	}
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		name, value, hasValue := arg, "", false
		if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "--") && flags[k].eq {
			name, value, hasValue = k, v, true
		} else if strings.HasPrefix(arg, "-p") && len(arg) > 2 {
			name, value, hasValue = "-p", arg[2:], true
		}
		spec, known := flags[name]
		known = known && accepts(spec, o.command)
		switch {
		case known && spec.value && !hasValue:
			if i+1 >= len(rest) {
				return nil, argError(reference.MissingOptionValue, "missing value for "+name)
			}
			i++
			value = rest[i]
		case known && !spec.value:
			if err := spec.set(o, name, ""); err != nil {
				return nil, err
			}
			continue
		case known:
		case strings.HasPrefix(arg, "-") && arg != "-", o.command == "plan", o.command == "move":
			return nil, argError(reference.UnknownOption, "unknown option "+strconv.Quote(arg)+" for "+o.command)
		case o.command == "version", o.hasInput:
			return nil, argError(reference.TooManyArgs, "unexpected argument "+strconv.Quote(arg))
		default:
			o.input, o.hasInput = arg, true
			continue
		}
		if err := spec.set(o, name, value); err != nil {
			return nil, err
		}
	}
	return o, o.validate()
}

func accepts(spec flagSpec, command string) bool {
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
	case "plan", "move":
		if o.hasJSONRequest && len(o.moveFlags) > 0 {
			return argError(reference.InvalidOption, o.command+" cannot combine --json with move flags such as --src")
		}
		if !o.hasJSONRequest && len(o.moveFlags) == 0 {
			return &reference.Error{Code: reference.MissingMoveArgs, Message: o.command + " needs --json <path|-> or move flags such as --src"}
		}
	}
	return nil
}

// wantsJSON reports whether errors should be JSON, judged from the raw
// arguments as upstream does: plan always; otherwise a --json-output or
// --explain that is not the value of an option the command takes.
func wantsJSON(args []string) bool {
	if len(args) == 0 {
		return false
	}
	if args[0] == "--json-output" || args[0] == "--explain" {
		return true
	}
	command, i := args[0], 0
	switch command {
	case "plan":
		return true
	case "--version", "-v":
		command = "version"
	}
	known := false
	for _, c := range allCommands {
		known = known || c == command
	}
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--json-output" || a == "--explain" {
			return true
		}
		if spec, ok := flags[a]; ok && known && spec.value && accepts(spec, command) {
			j++ // its value
		}
	}
	return false
}
