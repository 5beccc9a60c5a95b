package cli

import (
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
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

	refused string // an option the command reads but refuses (CLI-030)
}

// flagSpec is one spelling of an option of the spec's options table
// (spec.Options): how it is read, which commands read it, and what it sets.
type flagSpec struct {
	spec.Option
	set func(o *options, name, value string) error
}

// setters says what each option of the table does, by its long name. The
// table itself (spellings, values, the --name=value form, the commands)
// lives once, in spec/; TestEveryOptionHasASetter keeps the two in step.
var setters = map[string]func(o *options, name, value string) error{
	"--input":       setInput,
	"--strip":       setStrip,
	"--reverse":     func(o *options, _, _ string) error { o.reverse = true; return nil },
	"--cwd":         setCwd,
	"--directory":   setCwd,
	"--dry-run":     func(o *options, _, _ string) error { o.dryRun = true; return nil },
	"--json-output": func(o *options, _, _ string) error { o.jsonOutput = true; return nil },
	"--explain":     func(o *options, _, _ string) error { o.explain = true; return nil },
	"--json":        func(o *options, _, v string) error { o.jsonRequest, o.hasJSONRequest = v, true; return nil },
	"--diff":        func(o *options, _, _ string) error { o.diff = true; return nil },
	"--src":         setMoveFlag, "--src-start": setMoveFlag, "--src-end": setMoveFlag, "--dst": setMoveFlag,
	"--payload": setMoveFlag, "--target-before": setMoveFlag, "--target-after": setMoveFlag,
	"--expected-payload-sha256": setMoveFlag,
}

// flags maps every spelling of the table's options to its flagSpec.
var flags = func() map[string]flagSpec {
	m := map[string]flagSpec{}
	for _, opt := range spec.Options() {
		set, ok := setters[opt.Long]
		if !ok {
			continue // an option without a setter stays unknown; the test says which
		}
		for _, name := range opt.Spellings() {
			m[name] = flagSpec{opt, set}
		}
	}
	return m
}()

// joins reports whether a spelling takes its value joined, -pN: the short
// spelling of a count (CLI-007).
func (f flagSpec) joins(name string) bool { return f.Value == "count" && name == f.Short }

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

// setMoveFlag sets the request member a move flag names, --src-start
// setting src_start (CLI-018); the last of repeated flags counts.
func setMoveFlag(o *options, name, v string) error {
	o.moveFlags[strings.ReplaceAll(strings.TrimPrefix(name, "--"), "-", "_")] = v
	return nil
}

func argError(code reference.Code, msg string) error {
	return &reference.Error{Code: code, Message: msg}
}

// parseArgs reads the command line as upstream does, the options as the
// spec's table (spec.Options) gives them. Leading options of the table
// (--json-output, --explain) apply to any command; anything else before
// the command is unknown_command (CLI-034). With nothing else, or with
// help, -h or --help first, the usage is printed and the rest ignored
// (CLI-035). version, --version and -v print the version. After the
// command, an option the command reads takes the next argument as its
// value whatever it looks like (missing_option_value only at the end),
// the options marked so may also be written --name=value, and a count
// joins its short spelling (-pN). Anything else starting with "-",
// "--" included (CLI-036), is unknown_option, and so is "-" but where
// it names standard input (check, apply) and any positional argument of
// plan and move; check and apply take one patch (-i or a positional
// argument), version none (too_many_args). Errors are reported in
// argument order; an option the command reads only to refuse it is
// invalid_option after every argument is read (CLI-030).
func parseArgs(args []string) (*options, error) {
	o := &options{strip: 1, cwd: ".", moveFlags: map[string]string{}}
	for len(args) > 0 && leading(args[0]) {
		if err := flags[args[0]].set(o, args[0], ""); err != nil {
			return nil, err
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
	takesPatch := o.command == "check" || o.command == "apply"
	rest := args[1:]
	for i := 0; i < len(rest); i++ {
		arg := rest[i]
		name, value, hasValue := arg, "", false
		if k, v, ok := strings.Cut(arg, "="); ok && strings.HasPrefix(arg, "--") && flags[k].Equals {
			name, value, hasValue = k, v, true
		} else if f, ok := flags[arg[:min(2, len(arg))]]; ok && len(arg) > 2 && f.joins(arg[:2]) {
			name, value, hasValue = arg[:2], arg[2:], true
		}
		f, known := flags[name]
		known = known && f.Knows(o.command)
		switch {
		case known && f.Value != "" && !hasValue:
			if i+1 >= len(rest) {
				return nil, argError(reference.MissingOptionValue, "missing value for "+name)
			}
			i++
			value = rest[i]
		case known && f.Value == "":
		case known:
		case strings.HasPrefix(arg, "-") && (arg != "-" || !takesPatch), !takesPatch && o.command != "version":
			return nil, argError(reference.UnknownOption, "unknown option "+strconv.Quote(arg)+" for "+o.command)
		case o.command == "version", o.hasInput:
			return nil, argError(reference.TooManyArgs, "unexpected argument "+strconv.Quote(arg))
		default:
			o.input, o.hasInput = arg, true
			continue
		}
		if !f.Takes(o.command) {
			if o.refused == "" {
				o.refused = name
			}
			continue
		}
		if err := f.set(o, name, value); err != nil {
			return nil, err
		}
	}
	return o, o.validate()
}

// leading reports whether arg is an option of the table that may come
// before the command (CLI-001, CLI-034).
func leading(arg string) bool {
	f, ok := flags[arg]
	return ok && f.Value == "" && f.Takes(spec.Leading)
}

// validate checks combinations once every argument is read.
func (o *options) validate() error {
	if o.refused != "" {
		return argError(reference.InvalidOption, o.refused+" is not valid with "+o.command)
	}
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
	if leading(args[0]) {
		return true
	}
	command, i := args[0], 0
	switch command {
	case "plan":
		return true
	case "--version", "-v":
		command = "version"
	}
	rest := args[i+1:]
	for j := 0; j < len(rest); j++ {
		a := rest[j]
		if a == "--json-output" || a == "--explain" {
			return true
		}
		if f, ok := flags[a]; ok && f.Value != "" && f.Knows(command) {
			j++ // its value
		}
	}
	return false
}
