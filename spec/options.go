package spec

import (
	"encoding/json"
	"slices"
	"sync"
)

// Option is one row of the options table of the CLI area: an option the
// releases know, how it is written, and the commands that take it
// (CLI-010, CLI-028, CLI-029…CLI-033). The reference CLI parses its command
// line from this table, and the calibration probes every row on every
// command.
type Option struct {
	Long  string `json:"long"`            // "--strip"
	Short string `json:"short,omitempty"` // "-p", or empty
	// Value is the kind of value the option takes, the next argument or
	// after "=": "path", "dir", "count" or "text"; empty for a flag.
	Value string `json:"value,omitempty"`
	// Equals says --long=value is accepted (CLI-028).
	Equals bool `json:"equals"`
	// Commands are the commands that take the option; Leading among them
	// means it may also come before the command (CLI-001).
	Commands []string `json:"commands"`
	// Invalid lists the commands that read the option (its value
	// included) but refuse it with invalid_option once every argument is
	// read (CLI-030).
	Invalid []string `json:"invalid,omitempty"`
}

// Leading, in Option.Commands, marks an option accepted before the command.
const Leading = "leading"

// Spellings lists the option's names, the short one first.
func (o Option) Spellings() []string {
	if o.Short == "" {
		return []string{o.Long}
	}
	return []string{o.Short, o.Long}
}

// Takes reports whether command takes the option (Leading: before the
// command).
func (o Option) Takes(command string) bool { return slices.Contains(o.Commands, command) }

// options decodes the index's options table once; the tests check the
// embedded bytes, so a failure cannot ship, and the table is then empty.
var options = sync.OnceValue(func() []Option {
	var out []Option
	if err := json.Unmarshal(loadHead().Options, &out); err != nil {
		return nil
	}
	return out
})

// Options returns the options table in spec order. The slice is a copy the
// caller may modify.
func Options() []Option {
	out := slices.Clone(options())
	for i := range out {
		out[i].Commands = slices.Clone(out[i].Commands)
		out[i].Invalid = slices.Clone(out[i].Invalid)
	}
	return out
}

// Knows reports whether command reads the option: takes it, or refuses it
// with invalid_option only after reading it.
func (o Option) Knows(command string) bool {
	return o.Takes(command) || slices.Contains(o.Invalid, command)
}

// LookupOption returns the option one of whose spellings is name.
func LookupOption(name string) (Option, bool) {
	for _, o := range Options() {
		if o.Long == name || o.Short == name {
			return o, true
		}
	}
	return Option{}, false
}
