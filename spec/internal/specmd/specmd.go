// Package specmd reads the requirement markdown of a spec (blockpatch's
// spec/blockpatch-1.1.md, PatchDIFF's spec/patchdiff/patchdiff-core.md) and
// writes the requirements.json index derived from it.
//
// The markdown is the source of truth. One parser serves every document: a
// Layout names what differs between them (the title word, the profiles, the
// areas in order, the clarification marker, the area holding an error-code
// table, if any). Parse accepts exactly the layout that spec/README.md
// describes and reports the first line that breaks it, so a
// typo in a requirement line fails the build instead of silently dropping the
// requirement. Encode is deterministic: the same markdown always gives the
// same bytes, which is what the staleness test relies on.
package specmd

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
)

// Areas lists blockpatch's requirement areas in the order its markdown gives
// them.
var Areas = []string{"FMT", "PATH", "MATCH", "SHAPE", "IDEM", "REV", "WRITE", "PLAN", "CLI", "OUT", "ERR"}

// ErrorCodeArea is the blockpatch area whose "### Error codes" table lists
// the codes.
const ErrorCodeArea = "ERR"

// Layout is what one requirement document fixes for the parser.
type Layout struct {
	// Name is the word after "# " on the title line: "blockpatch".
	Name string
	// Profiles lists the document's profiles, oldest first: a requirement's
	// since must be one of them, and the title names the last.
	Profiles []string
	// Areas lists the requirement areas in document order; each must have
	// exactly one "## AREA: Title" section.
	Areas []string
	// CodeArea is the area whose "### Error codes" table lists the codes;
	// empty when the document keeps no such table (its index then has no
	// "error_codes" member).
	CodeArea string
	// Marker is the word that opens a clarification marker:
	// "(clarification D5)" for blockpatch, "(not stated by the seed)" for
	// PatchDIFF.
	Marker string
}

// PatchDIFF is the layout of spec/patchdiff/patchdiff-core.md with the
// given runtime profiles and areas (pdspec.ProfileNames, pdspec.Areas). The
// document keeps its labels in labels.json, so it has no code table.
func PatchDIFF(profiles, areas []string) Layout {
	return Layout{Name: "PatchDIFF", Profiles: profiles, Areas: areas, Marker: "not stated by the seed"}
}

// Blockpatch is the layout of spec/blockpatch-1.1.md with the given
// profiles (spec.Profiles).
func Blockpatch(profiles []string) Layout {
	return Layout{Name: "blockpatch", Profiles: profiles, Areas: Areas, CodeArea: ErrorCodeArea, Marker: "clarification"}
}

// OptionArea is the area whose "### Options" table lists the options.
const OptionArea = "CLI"

// Option is one row of the options table: an option, how it is written and
// the commands that take it.
type Option struct {
	Long     string   `json:"long"`            // "--strip"
	Short    string   `json:"short,omitempty"` // "-p", or empty
	Value    string   `json:"value,omitempty"` // "path", "dir", "count", "text"; empty for a flag
	Equals   bool     `json:"equals"`          // --long=value is accepted
	Commands []string `json:"commands"`        // the commands that take it; "leading": before the command
	// Invalid lists the commands that read the option but then refuse it
	// with invalid_option.
	Invalid []string `json:"invalid,omitempty"`
}

// OptionCommands are the words the commands column may hold.
var OptionCommands = []string{"leading", "check", "apply", "plan", "move", "version"}

// Requirement is one numbered requirement line.
type Requirement struct {
	ID            string
	Area          string
	Since         string
	Clarification bool
	Statement     string
	// Decisions names the decision-log entries (D1, D2, ...) a clarification
	// records; it is empty for requirements taken straight from upstream and
	// for clarifications that keep no entry in the log. It is not exported
	// to JSON.
	Decisions []string
	// Observed is the upstream release whose behaviour a clarification
	// records ("1.1.0" in "(clarification D2, observed 1.1.0)"); it is empty
	// for a bare clarification, a convention of the project that no release
	// shows. It is not exported to JSON.
	Observed string
	// Line is the 1-based line of the requirement in the markdown.
	Line int
}

// Document is the parsed markdown.
type Document struct {
	Version      string
	Profiles     []string
	ErrorCodes   []string
	Options      []Option
	Requirements []Requirement
	// NoCodeTable leaves "error_codes" out of the index, for a document
	// whose layout has no code area.
	NoCodeTable bool
}

// profileToken is how a profile is written in a title and in a
// requirement's [since]: "1.1.1", "patchdiff-mvp-0.3.0".
const profileToken = `([0-9A-Za-z][0-9A-Za-z.-]*)`

var (
	areaRE = regexp.MustCompile(`^## ([A-Z]+): \S`)
	// candidateRE spots lines meant to be requirements, so that malformed
	// ones are reported rather than skipped.
	candidateRE = regexp.MustCompile(`^\s*[-*+]\s*\*\*[A-Z]+-[0-9]`)
	codeRowRE   = regexp.MustCompile("^\\| `([a-z0-9_]+)` \\| (\\S.*\\S) \\|$")
	optionRowRE = regexp.MustCompile("^\\| `(--[a-z0-9-]+)` \\| (?:`(-[a-zA-Z])`|—) \\| (path|dir|count|text|—) \\| (yes|no) \\| ([a-z]+(?:, [a-z]+)*) \\| (—|[a-z]+(?:, [a-z]+)*) \\|$")
)

// Parse reads blockpatch's requirement markdown. profiles lists the spec's
// profiles, oldest first (spec.Profiles).
func Parse(src []byte, profiles []string) (*Document, error) {
	return ParseLayout(src, Blockpatch(profiles))
}

// ParseLayout reads a requirement markdown of the given layout.
func ParseLayout(src []byte, l Layout) (*Document, error) {
	profiles := l.Profiles
	if len(profiles) == 0 {
		return nil, fmt.Errorf("no profiles")
	}
	if len(l.Areas) == 0 || l.Name == "" || l.Marker == "" {
		return nil, fmt.Errorf("incomplete layout")
	}
	titleRE := regexp.MustCompile(`^# ` + regexp.QuoteMeta(l.Name) + ` ` + profileToken + `: `)
	reqRE := regexp.MustCompile(`^- \*\*([A-Z]+)-([0-9]{3})\*\* \[` + profileToken + `\] (?:(\(` + regexp.QuoteMeta(l.Marker) + `(?: (D[0-9]+(?:, D[0-9]+)*))?(?:, observed ([0-9]+\.[0-9]+\.[0-9]+))?\)) )?(\S.*\S)$`)
	doc := &Document{Profiles: slices.Clone(profiles), NoCodeTable: l.CodeArea == ""}
	var (
		area     string
		inCodes  bool
		inOpts   bool
		seenArea = map[string]bool{}
		seenID   = map[string]int{}
		seenCode = map[string]int{}
	)
	if i := bytes.IndexByte(src, '\r'); i >= 0 {
		return nil, fmt.Errorf("line %d: carriage return; the markdown uses LF line endings only", 1+bytes.Count(src[:i], []byte("\n")))
	}
	sc := bufio.NewScanner(bytes.NewReader(src))
	sc.Buffer(make([]byte, 0, 64*1024), 1024*1024)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		fail := func(format string, args ...any) error {
			return fmt.Errorf("line %d: %s", n, fmt.Sprintf(format, args...))
		}
		switch {
		case strings.HasPrefix(line, "# "):
			m := titleRE.FindStringSubmatch(line)
			if m == nil || doc.Version != "" {
				return nil, fail("expected a single title line of the form %q", "# "+l.Name+" PROFILE: ...")
			}
			doc.Version = m[1]
			continue
		case strings.HasPrefix(line, "## "):
			inCodes, inOpts = false, false
			area = ""
			if m := areaRE.FindStringSubmatch(line); m != nil {
				if !slices.Contains(l.Areas, m[1]) {
					return nil, fail("unknown area %q", m[1])
				}
				if seenArea[m[1]] {
					return nil, fail("area %s has a second section", m[1])
				}
				want := l.Areas[len(seenArea)]
				if m[1] != want {
					return nil, fail("area %s out of order, expected %s", m[1], want)
				}
				area = m[1]
				seenArea[area] = true
			}
			continue
		case strings.HasPrefix(line, "### "):
			inCodes = strings.TrimSpace(line[4:]) == "Error codes"
			if inCodes && (l.CodeArea == "" || area != l.CodeArea) {
				if l.CodeArea == "" {
					return nil, fail("error code table in a document that keeps none")
				}
				return nil, fail("error code table outside the %s area", l.CodeArea)
			}
			inOpts = strings.TrimSpace(line[4:]) == "Options"
			if inOpts && area != OptionArea {
				return nil, fail("options table outside the %s area", OptionArea)
			}
			continue
		}
		if candidateRE.MatchString(line) {
			r, err := parseRequirement(reqRE, l.Marker, line, area, profiles)
			if err != nil {
				return nil, fail("%v", err)
			}
			if prev, dup := seenID[r.ID]; dup {
				return nil, fail("%s already defined on line %d", r.ID, prev)
			}
			seenID[r.ID] = n
			r.Line = n
			doc.Requirements = append(doc.Requirements, r)
			continue
		}
		if inOpts && strings.HasPrefix(line, "| `") {
			o, err := parseOption(line)
			if err != nil {
				return nil, fail("%v", err)
			}
			for _, prev := range doc.Options {
				if prev.Long == o.Long || o.Short != "" && prev.Short == o.Short {
					return nil, fail("option %s already listed", o.Long)
				}
			}
			doc.Options = append(doc.Options, o)
			continue
		}
		if inCodes && strings.HasPrefix(line, "| `") {
			m := codeRowRE.FindStringSubmatch(line)
			if m == nil {
				return nil, fail("malformed error code row")
			}
			if prev, dup := seenCode[m[1]]; dup {
				return nil, fail("error code %s already listed on line %d", m[1], prev)
			}
			seenCode[m[1]] = n
			doc.ErrorCodes = append(doc.ErrorCodes, m[1])
		}
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	if doc.Version == "" {
		return nil, fmt.Errorf("no title line")
	}
	if newest := profiles[len(profiles)-1]; doc.Version != newest {
		return nil, fmt.Errorf("title version %s is not the newest profile %s", doc.Version, newest)
	}
	for _, a := range l.Areas {
		if !seenArea[a] {
			return nil, fmt.Errorf("area %s has no section", a)
		}
	}
	if l.CodeArea != "" && len(doc.ErrorCodes) == 0 {
		return nil, fmt.Errorf("no error code table")
	}
	return doc, nil
}

// parseOption reads one row of the options table.
func parseOption(line string) (Option, error) {
	m := optionRowRE.FindStringSubmatch(line)
	if m == nil {
		return Option{}, fmt.Errorf("malformed option row; want %q", "| `--long` | `-s` or — | path, dir, count, text or — | yes or no | command, … | command, … or — |")
	}
	o := Option{Long: m[1], Short: m[2], Equals: m[4] == "yes", Commands: strings.Split(m[5], ", ")}
	if m[6] != "—" {
		o.Invalid = strings.Split(m[6], ", ")
	}
	if m[3] != "—" {
		o.Value = m[3]
	}
	if o.Equals && o.Value == "" {
		return Option{}, fmt.Errorf("flag %s cannot take --name=value", o.Long)
	}
	all := append(slices.Clone(o.Commands), o.Invalid...)
	for i, c := range all {
		if !slices.Contains(OptionCommands, c) {
			return Option{}, fmt.Errorf("option %s: unknown command %q", o.Long, c)
		}
		if slices.Contains(all[:i], c) {
			return Option{}, fmt.Errorf("option %s: command %s listed twice", o.Long, c)
		}
	}
	return o, nil
}

func parseRequirement(reqRE *regexp.Regexp, marker, line, area string, profiles []string) (Requirement, error) {
	m := reqRE.FindStringSubmatch(line)
	if m == nil {
		return Requirement{}, fmt.Errorf("malformed requirement line; want %q", "- **AREA-NNN** [since] ("+marker+" Dn, observed X.Y.Z) Statement")
	}
	r := Requirement{
		ID:            m[1] + "-" + m[2],
		Area:          m[1],
		Since:         m[3],
		Clarification: m[4] != "",
		Observed:      m[6],
		Statement:     m[7],
	}
	if m[5] != "" {
		r.Decisions = strings.Split(m[5], ", ")
	}
	if area == "" {
		return Requirement{}, fmt.Errorf("%s is outside every area section", r.ID)
	}
	if r.Area != area {
		return Requirement{}, fmt.Errorf("%s is in the %s section", r.ID, area)
	}
	if !slices.Contains(profiles, r.Since) {
		return Requirement{}, fmt.Errorf("%s: unknown profile %q", r.ID, r.Since)
	}
	if r.Observed != "" && !releaseOfProfile(r.Observed, profiles) {
		return Requirement{}, fmt.Errorf("%s: observed release %s belongs to no profile", r.ID, r.Observed)
	}
	// A statement opening with any document's marker, or a decision, is a
	// marker this layout did not accept.
	lower := strings.ToLower(r.Statement)
	if strings.HasPrefix(lower, "("+strings.ToLower(marker[:min(4, len(marker))])) || strings.HasPrefix(lower, "(clar") ||
		strings.HasPrefix(lower, "(not stated") || strings.HasPrefix(r.Statement, "(D") {
		return Requirement{}, fmt.Errorf("%s: malformed clarification marker", r.ID)
	}
	return r, nil
}

// releaseOfProfile reports whether release (such as "1.1.0") is a release
// of a profile: the profile of its own name ("1.1.1") or of its major and
// minor version ("1.1").
func releaseOfProfile(release string, profiles []string) bool {
	if slices.Contains(profiles, release) {
		return true
	}
	i := strings.LastIndexByte(release, '.')
	return i > 0 && slices.Contains(profiles, release[:i])
}

// Encode renders the document as the requirements.json index: a fixed key
// order, one requirement per line, no HTML escaping, a final newline.
func (d *Document) Encode() ([]byte, error) {
	var b bytes.Buffer
	str := func(s string) error {
		e, err := plainjson.Marshal(s)
		b.Write(e)
		return err
	}
	list := func(items []string, inline bool) error {
		if len(items) == 0 {
			b.WriteString("[]")
			return nil
		}
		b.WriteString("[")
		for i, s := range items {
			if i > 0 {
				b.WriteString(",")
				if inline {
					b.WriteString(" ")
				}
			}
			if !inline {
				b.WriteString("\n    ")
			}
			if err := str(s); err != nil {
				return err
			}
		}
		if !inline {
			b.WriteString("\n  ")
		}
		b.WriteString("]")
		return nil
	}
	b.WriteString("{\n  \"version\": ")
	if err := str(d.Version); err != nil {
		return nil, err
	}
	b.WriteString(",\n  \"profiles\": ")
	if err := list(d.Profiles, true); err != nil {
		return nil, err
	}
	if !d.NoCodeTable {
		b.WriteString(",\n  \"error_codes\": ")
		if err := list(d.ErrorCodes, false); err != nil {
			return nil, err
		}
	}
	if len(d.Options) > 0 { // only blockpatch's CLI area keeps an options table
		b.WriteString(",\n  \"options\": [")
		for i, o := range d.Options {
			if i > 0 {
				b.WriteString(",")
			}
			e, err := plainjson.Marshal(o)
			if err != nil {
				return nil, err
			}
			b.WriteString("\n    ")
			b.Write(e)
		}
		b.WriteString("\n  ]")
	}
	// The requirements come last: index.OnceHead stops reading there.
	b.WriteString(",\n  \"requirements\": [")
	for i, r := range d.Requirements {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    {\"id\": ")
		fields := []struct {
			key, val string
		}{{"", r.ID}, {"area", r.Area}, {"since", r.Since}}
		for _, f := range fields {
			if f.key != "" {
				b.WriteString(", \"" + f.key + "\": ")
			}
			if err := str(f.val); err != nil {
				return nil, err
			}
		}
		fmt.Fprintf(&b, ", \"clarification\": %t, \"statement\": ", r.Clarification)
		if err := str(r.Statement); err != nil {
			return nil, err
		}
		b.WriteString("}")
	}
	if len(d.Requirements) > 0 {
		b.WriteString("\n  ")
	}
	b.WriteString("]\n}\n")
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("internal error: encoded index is not valid JSON")
	}
	return b.Bytes(), nil
}

// ParseFile reads the requirement markdown in file.
func ParseFile(file string, l Layout) (*Document, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	doc, err := ParseLayout(src, l)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", file, err)
	}
	return doc, nil
}

// Stale says which copies of the index generated from the markdown in
// file are out of date: requirements.json beside it, and the bytes a
// package embedded.
func Stale(file string, l Layout, embedded []byte) []string {
	doc, err := ParseFile(file, l)
	if err != nil {
		return []string{err.Error()}
	}
	want, err := doc.Encode()
	if err != nil {
		return []string{err.Error()}
	}
	index := filepath.Join(filepath.Dir(file), "requirements.json")
	onDisk, err := os.ReadFile(index)
	if err != nil {
		return []string{err.Error()}
	}
	var out []string
	if !bytes.Equal(onDisk, want) {
		out = append(out, index+" is stale relative to "+file+"; run: go generate ./spec/...")
	}
	if !bytes.Equal(embedded, want) {
		out = append(out, "the embedded index is stale relative to "+file+"; run: go generate ./spec/...")
	}
	return out
}
