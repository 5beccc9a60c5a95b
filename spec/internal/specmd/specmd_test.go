package specmd

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// testProfiles are the profiles the test documents use.
var testProfiles = []string{"1.0", "1.1", "1.1.1"}

// minimal builds a valid document whose area sections hold the given extra
// lines (keyed by area) after one requirement each.
func minimal(extra map[string]string, title string) string {
	var b strings.Builder
	if title == "" {
		title = "# blockpatch 1.1.1: test"
	}
	b.WriteString(title + "\n\nIntro with an example line:\n\n    - **AREA-NNN** [since] Statement MUST hold.\n\n## Terms\n\n- **tool**: the thing.\n")
	for i, a := range Areas {
		b.WriteString("\n## " + a + ": Title\n\n")
		since := "1.0"
		if i%2 == 1 {
			since = "1.1"
		}
		b.WriteString("- **" + a + "-001** [" + since + "] The tool MUST work.\n")
		b.WriteString(extra[a])
		if a == ErrorCodeArea {
			b.WriteString("\n### Error codes\n\n| Code | Meaning |\n| --- | --- |\n| `parse_error` | Bad patch. |\n| `io_error` | Bad disk. |\n")
			b.WriteString(extra["codes"])
		}
	}
	return b.String()
}

func TestParseValid(t *testing.T) {
	t.Parallel()
	src := minimal(map[string]string{
		"FMT": "- **FMT-002** [1.0] (clarification D6) Lines MUST end in `\\n`.\n- **FMT-007** [1.1] (clarification D10, D22) Roles MUST be set.\n- **FMT-003** [1.0] (clarification) A renderer MUST do it.\n" +
			"- **FMT-004** [1.1.1] (clarification D2, observed 1.1.0) Counts MUST be exact.\n- **FMT-005** [1.0] (clarification, observed 1.0.0) Old MUST hold.\n- **FMT-006** [1.1.1] Warnings MUST be listed.\n",
		"PLAN": "Prose between requirements is free text.\n",
		"CLI":  optionTable,
	}, "")
	doc, err := Parse([]byte(src), testProfiles)
	if err != nil {
		t.Fatal(err)
	}
	if doc.Version != "1.1.1" || !slices.Equal(doc.Profiles, testProfiles) {
		t.Errorf("version %q profiles %q", doc.Version, doc.Profiles)
	}
	if got, want := doc.ErrorCodes, []string{"parse_error", "io_error"}; !slices.Equal(got, want) {
		t.Errorf("error codes %q, want %q", got, want)
	}
	wantOpts := []Option{
		{Long: "--strip", Short: "-p", Value: "count", Equals: true, Commands: []string{"check", "apply"}},
		{Long: "--dry-run", Commands: []string{"leading", "move"}, Invalid: []string{"check", "version"}},
	}
	if len(doc.Options) != len(wantOpts) {
		t.Errorf("options %+v, want %+v", doc.Options, wantOpts)
	}
	for i := range min(len(doc.Options), len(wantOpts)) {
		g, w := doc.Options[i], wantOpts[i]
		if g.Long != w.Long || g.Short != w.Short || g.Value != w.Value || g.Equals != w.Equals || !slices.Equal(g.Commands, w.Commands) || !slices.Equal(g.Invalid, w.Invalid) {
			t.Errorf("option %d = %+v, want %+v", i, g, w)
		}
	}
	if n := len(doc.Requirements); n != len(Areas)+6 {
		t.Fatalf("%d requirements, want %d", n, len(Areas)+6)
	}
	tests := []struct {
		id            string
		since         string
		clarification bool
		decisions     []string
		observed      string
		statement     string
	}{
		{"FMT-001", "1.0", false, nil, "", "The tool MUST work."},
		{"FMT-002", "1.0", true, []string{"D6"}, "", "Lines MUST end in `\\n`."},
		{"FMT-007", "1.1", true, []string{"D10", "D22"}, "", "Roles MUST be set."},
		{"FMT-003", "1.0", true, nil, "", "A renderer MUST do it."},
		{"FMT-004", "1.1.1", true, []string{"D2"}, "1.1.0", "Counts MUST be exact."},
		{"FMT-005", "1.0", true, nil, "1.0.0", "Old MUST hold."},
		{"FMT-006", "1.1.1", false, nil, "", "Warnings MUST be listed."},
		{"PATH-001", "1.1", false, nil, "", "The tool MUST work."},
	}
	for _, tt := range tests {
		t.Run(tt.id, func(t *testing.T) {
			t.Parallel()
			i := slices.IndexFunc(doc.Requirements, func(r Requirement) bool { return r.ID == tt.id })
			if i < 0 {
				t.Fatalf("%s not parsed", tt.id)
			}
			r := doc.Requirements[i]
			if r.Area != strings.Split(tt.id, "-")[0] || r.Since != tt.since || r.Clarification != tt.clarification ||
				!slices.Equal(r.Decisions, tt.decisions) || r.Observed != tt.observed || r.Statement != tt.statement || r.Line == 0 {
				t.Errorf("got %+v", r)
			}
		})
	}
}

// optionTable is a valid options table for the CLI area.
const optionTable = "\n### Options\n\n| option | short | value | `=value` | commands | `invalid_option` on |\n| --- | --- | --- | --- | --- | --- |\n" +
	"| `--strip` | `-p` | count | yes | check, apply | — |\n| `--dry-run` | — | — | no | leading, move | check, version |\n"

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name    string
		src     string
		wantErr string
	}{
		{"missing since", minimal(map[string]string{"FMT": "- **FMT-002** The tool MUST work.\n"}, ""), "malformed requirement"},
		{"unknown profile", minimal(map[string]string{"FMT": "- **FMT-002** [2.0] The tool MUST work.\n"}, ""), "unknown profile"},
		{"two-digit number", minimal(map[string]string{"FMT": "- **FMT-02** [1.0] The tool MUST work.\n"}, ""), "malformed requirement"},
		{"indented requirement", minimal(map[string]string{"FMT": "  - **FMT-002** [1.0] The tool MUST work.\n"}, ""), "malformed requirement"},
		{"star bullet", minimal(map[string]string{"FMT": "* **FMT-002** [1.0] The tool MUST work.\n"}, ""), "malformed requirement"},
		{"misspelt marker", minimal(map[string]string{"FMT": "- **FMT-002** [1.0] (clarifcation D6) The tool MUST work.\n"}, ""), "clarification marker"},
		{"bare decision", minimal(map[string]string{"FMT": "- **FMT-002** [1.0] (D6) The tool MUST work.\n"}, ""), "clarification marker"},
		{"observed without comma", minimal(map[string]string{"FMT": "- **FMT-002** [1.0] (clarification D6 observed 1.1.0) The tool MUST work.\n"}, ""), "clarification marker"},
		{"observed two-part release", minimal(map[string]string{"FMT": "- **FMT-002** [1.0] (clarification, observed 1.1) The tool MUST work.\n"}, ""), "clarification marker"},
		{"observed unknown release", minimal(map[string]string{"FMT": "- **FMT-002** [1.0] (clarification, observed 2.0.0) The tool MUST work.\n"}, ""), "belongs to no profile"},
		{"release as since", minimal(map[string]string{"FMT": "- **FMT-002** [1.1.0] The tool MUST work.\n"}, ""), "unknown profile"},
		{"wrong area section", minimal(map[string]string{"FMT": "- **PATH-002** [1.0] The tool MUST work.\n"}, ""), "in the FMT section"},
		{"duplicate id", minimal(map[string]string{"FMT": "- **FMT-001** [1.0] Again it MUST work.\n"}, ""), "already defined"},
		{"duplicate code", minimal(map[string]string{"codes": "| `io_error` | Again. |\n"}, ""), "already listed"},
		{"malformed code row", minimal(map[string]string{"codes": "| `Bad-Code` | x |\n"}, ""), "malformed error code row"},
		{"requirement before areas", strings.Replace(minimal(nil, ""), "## Terms\n", "## Terms\n\n- **FMT-009** [1.0] It MUST work.\n", 1), "outside every area"},
		{"unknown area", minimal(map[string]string{"ERR": "\n## NEW: More\n"}, ""), "unknown area"},
		{"repeated area", minimal(map[string]string{"ERR": "\n## FMT: Again\n"}, ""), "second section"},
		{"bad title", minimal(nil, "# Something else"), "title"},
		{"old title version", minimal(nil, "# blockpatch 1.0: test"), "newest profile"},
		{"title of the previous profile", minimal(nil, "# blockpatch 1.1: test"), "newest profile"},
		{"carriage return", strings.Replace(minimal(nil, ""), "## Terms\n", "## Terms\r\n", 1), "carriage return"},
		{"area out of order", strings.Replace(minimal(nil, ""), "## FMT:", "## PATH:", 1), "out of order"},
		{"no code table", strings.Replace(minimal(nil, ""), "### Error codes", "### Other", 1), "no error code table"},
		{"options table outside CLI", minimal(map[string]string{"FMT": optionTable}, ""), "outside the CLI area"},
		{"malformed option row", minimal(map[string]string{"CLI": optionTable + "| `--x` | -x | — | no | check | — |\n"}, ""), "malformed option row"},
		{"flag with =value", minimal(map[string]string{"CLI": optionTable + "| `--x` | — | — | yes | check | — |\n"}, ""), "cannot take --name=value"},
		{"unknown option command", minimal(map[string]string{"CLI": optionTable + "| `--x` | — | — | no | chek | — |\n"}, ""), "unknown command"},
		{"command twice", minimal(map[string]string{"CLI": optionTable + "| `--x` | — | — | no | check | check |\n"}, ""), "listed twice"},
		{"duplicate option", minimal(map[string]string{"CLI": optionTable + "| `--y` | `-p` | — | no | check | — |\n"}, ""), "already listed"},
		{"code table outside ERR", minimal(map[string]string{"FMT": "\n### Error codes\n"}, ""), "outside the ERR area"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			_, err := Parse([]byte(tt.src), testProfiles)
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("Parse error = %v, want one containing %q", err, tt.wantErr)
			}
		})
	}
}

func TestEncode(t *testing.T) {
	t.Parallel()
	doc := &Document{
		Version:    "1.1",
		Profiles:   []string{"1.0", "1.1"},
		ErrorCodes: []string{"parse_error"},
		Options:    []Option{{Long: "--strip", Short: "-p", Value: "count", Equals: true, Commands: []string{"check"}, Invalid: []string{"move"}}},
		Requirements: []Requirement{
			{ID: "FMT-001", Area: "FMT", Since: "1.0", Statement: "A `<path>` & \"quote\" MUST stay.", Decisions: []string{"D1"}},
			{ID: "OUT-001", Area: "OUT", Since: "1.1", Clarification: true, Statement: "Output MUST be one line."},
		},
	}
	data, err := doc.Encode()
	if err != nil {
		t.Fatal(err)
	}
	want := `{
  "version": "1.1",
  "profiles": ["1.0", "1.1"],
  "error_codes": [
    "parse_error"
  ],
  "options": [
    {"long":"--strip","short":"-p","value":"count","equals":true,"commands":["check"],"invalid":["move"]}
  ],
  "requirements": [
    {"id": "FMT-001", "area": "FMT", "since": "1.0", "clarification": false, "statement": "A ` + "`<path>`" + ` & \"quote\" MUST stay."},
    {"id": "OUT-001", "area": "OUT", "since": "1.1", "clarification": true, "statement": "Output MUST be one line."}
  ]
}
`
	if string(data) != want {
		t.Errorf("Encode() =\n%s\nwant\n%s", data, want)
	}
	var decoded struct {
		Requirements []struct {
			ID, Statement string
			Clarification bool
		}
	}
	if err := json.Unmarshal(data, &decoded); err != nil {
		t.Fatal(err)
	}
	if decoded.Requirements[0].Statement != doc.Requirements[0].Statement || !decoded.Requirements[1].Clarification {
		t.Errorf("round trip lost data: %+v", decoded)
	}

	again, err := doc.Encode()
	if err != nil || string(again) != string(data) {
		t.Error("Encode is not deterministic")
	}

	empty, err := (&Document{Version: "1.1", Profiles: testProfiles}).Encode()
	if err != nil || !json.Valid(empty) {
		t.Errorf("empty document: %v\n%s", err, empty)
	}
}

// The PatchDIFF layout: its own title word, profile names as since, its own
// areas and marker, and no code table, so its index has no error_codes.
func TestParsePatchDIFFLayout(t *testing.T) {
	t.Parallel()
	layout := PatchDIFF([]string{"patchdiff-mvp-0.1.0", "patchdiff-mvp-0.2.0"}, []string{"FIND", "SEQ"})
	src := "# PatchDIFF patchdiff-mvp-0.2.0: test\n\n## FIND: Matching\n\n" +
		"- **FIND-001** [patchdiff-mvp-0.1.0] Matching MUST be exact.\n" +
		"- **FIND-002** [patchdiff-mvp-0.2.0] (not stated by the seed) Offsets MUST count code points.\n" +
		"\n## SEQ: Sequence\n\n- **SEQ-001** [patchdiff-mvp-0.1.0] Edits MUST run in order.\n"
	doc, err := ParseLayout([]byte(src), layout)
	if err != nil {
		t.Fatal(err)
	}
	if len(doc.Requirements) != 3 || !doc.Requirements[1].Clarification || doc.Requirements[0].Clarification || doc.Version != "patchdiff-mvp-0.2.0" {
		t.Errorf("parsed %+v", doc)
	}
	data, err := doc.Encode()
	if err != nil || strings.Contains(string(data), "error_codes") || !json.Valid(data) {
		t.Errorf("Encode() = %s, %v", data, err)
	}
	for name, bad := range map[string]string{
		"blockpatch marker":  strings.Replace(src, "(not stated by the seed)", "(clarification)", 1),
		"misspelt marker":    strings.Replace(src, "(not stated by the seed)", "(not stated by seed)", 1),
		"blockpatch title":   strings.Replace(src, "# PatchDIFF", "# blockpatch", 1),
		"code table":         src + "\n### Error codes\n",
		"missing area":       strings.Split(src, "\n## SEQ")[0] + "\n",
		"blockpatch profile": strings.Replace(src, "[patchdiff-mvp-0.1.0]", "[1.1]", 1),
	} {
		if _, err := ParseLayout([]byte(bad), layout); err == nil {
			t.Errorf("%s: parsed without error", name)
		}
	}
}
