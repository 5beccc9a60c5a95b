package spec

// This file holds the facts of blockpatch's JSON output that tools check or
// print: the members of an error object beyond code and message, their
// values where the spec fixes them, and the limits of the match details.

// Kind is the JSON kind of a detail's value.
type Kind string

// The kinds of ErrorDetailFields.
const (
	String  Kind = "string"
	Integer Kind = "integer"
	Boolean Kind = "boolean"
	// RangeKind is an object {"start": s, "end": e} of two integers.
	RangeKind Kind = "range"
	// RangeList is a list of RangeKind values.
	RangeList Kind = "ranges"
)

// Detail is one optional member of a JSON error object (OUT-004).
type Detail struct {
	Name string // the member's name, such as "matches"
	Kind Kind
}

// ErrorDetailFields lists the optional details of an error object, in the
// order OUT-004 names them. An error object holds code and message and any
// of these.
var ErrorDetailFields = []Detail{
	{"field", String},
	{"path", String},
	{"phase", String},
	{"anchor", String},
	{"matches", Integer},
	{"matches_truncated", Boolean},
	{"ranges", RangeList},
	{"line_ranges", RangeList},
	{"source_range", RangeKind},
	{"target_range", RangeKind},
	{"payload_sha256", String},
	{"suggested_action", String},
}

// LookupDetail returns the error detail of the given name.
func LookupDetail(name string) (Detail, bool) {
	for _, d := range ErrorDetailFields {
		if d.Name == name {
			return d, true
		}
	}
	return Detail{}, false
}

// RequiredDetails lists, by error code, the details an error of that code
// carries (OUT-004, IDEM-012). Every other detail is optional.
var RequiredDetails = map[string][]string{
	"source_ambiguous":          {"matches", "ranges", "line_ranges"},
	"target_ambiguous":          {"matches", "ranges", "line_ranges"},
	"partial_applied_duplicate": {"source_range", "target_range", "payload_sha256", "suggested_action"},
}

// Phases lists the values of an error's phase (OUT-023).
var Phases = []string{"path", "io", "payload", "source", "target", "render", "write"}

// Statuses lists the values of a success result's status.
var Statuses = []string{"applied", "noop", "already_applied"}

// WarningCodes lists the codes of the warnings of a 1.1.1 move result, and
// Boundaries the values of their boundary member (OUT-024).
var (
	WarningCodes = []string{"adjacent_bytes"}
	Boundaries   = []string{"target_before+payload", "payload+target_after"}
)

// SuggestedRemoveSource is the suggested_action of partial_applied_duplicate
// (IDEM-012).
const SuggestedRemoveSource = "review_then_remove_source"

// MaxReportedRanges is how many occurrences ranges and line_ranges list at
// most: the first 10 (MATCH-011, MATCH-012; decision D3).
const MaxReportedRanges = 10

// UpstreamMatchCountLimit is where 1.1.0 stops counting occurrences; its
// matches is then a lower bound with matches_truncated true (MATCH-010,
// decision D2). The spec requires no limit.
const UpstreamMatchCountLimit = 11
