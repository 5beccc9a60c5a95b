package runner

import (
	"encoding/json"
	"encoding/xml"
	"fmt"
	"io"
	"path"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"
	"unicode"
)

// writers is the registry of report formats, in the order Formats lists
// them; verbose adds every case to the formats that otherwise show only
// failures.
var writers = []struct {
	format string
	write  func(r *Report, w io.Writer, verbose bool) error
}{
	{"human", (*Report).WriteHuman},
	{"tap", (*Report).WriteTAP},
	{"junit", func(r *Report, w io.Writer, _ bool) error { return r.WriteJUnit(w) }},
	{"json", func(r *Report, w io.Writer, _ bool) error { return r.WriteJSON(w) }},
}

// Formats lists the report formats Write accepts.
var Formats = func() []string {
	var names []string
	for _, f := range writers {
		names = append(names, f.format)
	}
	return names
}()

// Write prints the report in one of Formats ("" is human).
func (r *Report) Write(w io.Writer, format string, verbose bool) error {
	if format == "" {
		format = writers[0].format
	}
	for _, f := range writers {
		if f.format == format {
			return f.write(r, w, verbose)
		}
	}
	return fmt.Errorf("unknown format %q: the formats are %s", format, strings.Join(Formats, ", "))
}

// WriteJSON prints the report as one indented JSON object.
func (r *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(r)
}

// WriteHuman prints each failure in full, then the certificate.
func (r *Report) WriteHuman(w io.Writer, verbose bool) error {
	var b strings.Builder
	for _, res := range r.Results {
		switch {
		case res.Verdict.Failed():
			writeFailure(&b, res, "")
			b.WriteString("\n")
		case verbose:
			fmt.Fprintf(&b, "--- %s: %s (%s)\n", strings.ToUpper(string(res.Verdict)), nameText(res.Name), round(res.Elapsed))
			if res.Reason != "" {
				fmt.Fprintf(&b, "    %s\n", res.Reason)
			}
			if res.SkipReason != "" {
				fmt.Fprintf(&b, "    skip list: %s\n", res.SkipReason)
			}
		}
		if verbose || res.Verdict.Failed() {
			for _, warn := range res.Warnings {
				fmt.Fprintf(&b, "    warning: %s\n", warn)
			}
		}
	}
	for _, p := range r.Problems {
		fmt.Fprintf(&b, "--- PROBLEM: %s\n\n", p)
	}
	if r.Pruned {
		for _, e := range r.StaleSkips {
			fmt.Fprintf(&b, "--- PRUNED: skip list line %d %q: %s\n", e.Line, e.Pattern, e.Why)
		}
		b.WriteString("\n")
	}
	r.Certificate.write(&b, r.warnings(), verbose)
	_, err := io.WriteString(w, b.String())
	return err
}

func (r *Report) warnings() int {
	n := 0
	for _, res := range r.Results {
		n += len(res.Warnings)
	}
	return n
}

func round(d Duration) time.Duration {
	return time.Duration(d).Round(100 * time.Microsecond)
}

// Text renders a failed result as the human report prints it.
func (res *Result) Text() string {
	var b strings.Builder
	writeFailure(&b, res, "")
	return b.String()
}

// writeFailure prints everything a person needs to act on a failed case.
func writeFailure(b *strings.Builder, res *Result, prefix string) {
	p := func(format string, args ...any) { fmt.Fprintf(b, prefix+format, args...) }
	p("--- %s: %s\n", strings.ToUpper(string(res.Verdict)), nameText(res.Name))
	p("    source: %s\n", res.Source)
	if len(res.Requirements) > 0 {
		p("    requirements: %s\n", strings.Join(res.Requirements, " "))
	}
	if res.Description != "" {
		p("    case: %s\n", res.Description)
	}
	if res.SkipReason != "" {
		p("    skip list: %s\n", res.SkipReason)
	}
	if res.Reason != "" {
		p("    reason: %s\n", res.Reason)
	}
	if f := res.Failure; f != nil {
		p("    step: %s\n", f.Step)
		if len(f.Argv) > 0 {
			p("    command: %s\n", shellJoin(f.Argv))
			p("    in: %s\n", f.Dir)
		}
		if f.Stdin != "" {
			p("    stdin:\n%s\n", indent(f.Stdin, prefix+"        "))
		}
		if f.Step != "setup" {
			if f.Exit >= 0 {
				p("    exit status: %d\n", f.Exit)
			} else {
				p("    exit status: none (%s)\n", res.Verdict)
			}
			p("    stdout:\n%s\n", indent(f.Stdout, prefix+"        "))
			p("    stderr:\n%s\n", indent(f.Stderr, prefix+"        "))
		}
		for _, prob := range f.Problems {
			p("    problem:\n%s\n", indent(prob, prefix+"        "))
		}
		if f.Reproduce != "" {
			p("    reproduce: %s\n", f.Reproduce)
		}
	}
	if res.Kept != "" {
		p("    kept: %s\n", res.Kept)
	}
	if res.Rerun != "" {
		p("    rerun: %s\n", res.Rerun)
	}
}

// write prints the certificate.
func (c *Certificate) write(b *strings.Builder, warnings int, verbose bool) {
	title := c.Suite + "-conformance certificate"
	if len(c.Partial) > 0 {
		title = "PARTIAL " + title + " (" + strings.Join(c.Partial, "; ") + ")"
	}
	fmt.Fprintf(b, "== %s ==\n", title)
	tw := tabwriter.NewWriter(b, 0, 4, 2, ' ', 0)
	row := func(k, format string, args ...any) { fmt.Fprintf(tw, "%s\t"+format+"\n", append([]any{k}, args...)...) }
	row("implementation", "%s", oneLine(c.Implementation.Name))
	for i, f := range c.Implementation.Files {
		k := "file"
		if i == 0 {
			k = "executable"
		}
		row(k, "%s sha256:%s", oneLine(f.Path), f.SHA256)
	}
	if c.Implementation.Build != "" {
		row("build", "%s", c.Implementation.Build)
	}
	version := oneLine(c.Version)
	if version == "" {
		version = "(no version command)"
	}
	row("version", "%s", version)
	row("profile", "%s", c.Profile)
	derived := ""
	if c.Corpus.Derived > 0 {
		derived = fmt.Sprintf(" (%d derived)", c.Corpus.Derived)
	}
	row("corpus", "%d cases%s from %s, sha256:%s", c.Corpus.Cases, derived, strings.Join(c.Corpus.Sources, ", "), c.Corpus.SHA256)
	if c.SkipList != nil {
		row("skip list", "%s (%d entries)", firstNonEmpty(c.SkipList.File, "(given in code)"), len(c.SkipList.Entries))
	} else {
		row("skip list", "none")
	}
	if g := c.Generated; g != nil {
		row("seed", "%d (--seed %d replays this order and the generated cases)", c.Seed, c.Seed)
		row("generated", "%d cases from seed %d, judged by the reference (--generated N sizes them, 0 leaves them out)", g.Cases, g.Seed)
	} else {
		row("seed", "%d (--seed %d replays this order)", c.Seed, c.Seed)
	}
	if c.Isolation != nil {
		row("isolation", "%s", c.Isolation)
		if c.Isolation.Outside != "" {
			row("outside writes", "%s", c.Isolation.Outside)
		}
		if c.Isolation.Environment != "" {
			row("limits", "%s", c.Isolation.Limits)
			row("environment", "%s", c.Isolation.Environment)
		}
		if len(c.Isolation.Hidden) > 0 {
			row("hidden", "%s", strings.Join(c.Isolation.Hidden, ", "))
		}
		if w := c.Isolation.Warning(); w != "" {
			row("WARNING", "%s", w)
		}
	}
	per := time.Duration(0)
	if c.Selected > 0 {
		per = time.Duration(c.CaseTime) / time.Duration(c.Selected)
	}
	row("time", "%s for %d cases, %d at a time, %s per case", round(c.Elapsed), c.Selected, c.Parallel, per.Round(10*time.Microsecond))
	for _, l := range c.Levels {
		how := l.How
		if l.Required {
			how += ", required"
		}
		row("level "+string(l.Level), "%s: %d passed, %d failed, %d skipped (%s)", l.Verdict, l.Passed, l.Failed, l.Skipped, how)
	}
	if warnings > 0 && !verbose {
		row("warnings", "%d (-v shows them)", warnings)
	} else if warnings > 0 {
		row("warnings", "%d", warnings)
	}
	if c.TempRoot != "" {
		row("kept", "%s", c.TempRoot)
	}
	tw.Flush()
	b.WriteString("\n")
	table(b, "area", c.Areas)
	b.WriteString("\n")
	table(b, "profile", c.Profiles)
	fmt.Fprintf(b, "\n%d passed, %d failed, %d skipped\n", c.Passed, c.Failed, c.Skipped)
}

// oneLine renders what an implementation said of itself for one line of
// the certificate: its lines joined with " / ", and control bytes (a
// terminal's escape sequences) and invalid UTF-8 written out, as all its
// other output is.
func oneLine(s string) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	for i, l := range lines {
		lines[i] = visible([]byte(l))
	}
	return strings.Join(lines, " / ")
}

func table(b *strings.Builder, name string, rows []Row) {
	w := len(name)
	for _, r := range rows {
		w = max(w, len(r.Name))
	}
	fmt.Fprintf(b, "%-*s  %7s  %7s  %7s\n", w, name, "passed", "failed", "skipped")
	for _, r := range rows {
		fmt.Fprintf(b, "%-*s  %7d  %7d  %7d\n", w, r.Name, r.Passed, r.Failed, r.Skipped)
	}
}

// WriteTAP prints the report in TAP version 13: one test point per case,
// a YAML block for failures, the certificate as comments.
func (r *Report) WriteTAP(w io.Writer, verbose bool) error {
	var b strings.Builder
	b.WriteString("TAP version 13\n")
	fmt.Fprintf(&b, "1..%d\n", len(r.Results)+len(r.Problems))
	for i, res := range r.Results {
		switch {
		case res.Verdict == Pass:
			fmt.Fprintf(&b, "ok %d - %s\n", i+1, tapLine(nameText(res.Name)))
		case res.Verdict.Skipped():
			fmt.Fprintf(&b, "ok %d - %s # SKIP %s: %s\n", i+1, tapLine(nameText(res.Name)), res.Verdict, tapLine(firstNonEmpty(res.SkipReason, res.Reason)))
		default:
			fmt.Fprintf(&b, "not ok %d - %s\n", i+1, tapLine(nameText(res.Name)))
			b.WriteString("  ---\n")
			fmt.Fprintf(&b, "  verdict: %s\n", res.Verdict)
			fmt.Fprintf(&b, "  reason: %s\n", yamlString(res.Reason))
			if len(res.Requirements) > 0 {
				fmt.Fprintf(&b, "  requirements: [%s]\n", strings.Join(res.Requirements, ", "))
			}
			var fb strings.Builder
			writeFailure(&fb, res, "")
			fmt.Fprintf(&b, "  report: |\n%s\n", indent(fb.String(), "    "))
			b.WriteString("  ...\n")
		}
	}
	for j, p := range r.Problems {
		fmt.Fprintf(&b, "not ok %d - run problem: %s\n", len(r.Results)+j+1, tapLine(p))
	}
	var cb strings.Builder
	r.Certificate.write(&cb, r.warnings(), verbose)
	b.WriteString(indent(cb.String(), "# "))
	b.WriteString("\n")
	_, err := io.WriteString(w, b.String())
	return err
}

func firstNonEmpty(s ...string) string {
	for _, x := range s {
		if x != "" {
			return x
		}
	}
	return ""
}

// nameText prints a case name on one line: loaded names are plain
// (cases.CheckName), but a name with a control character, a space or a
// quote, from a case built in code, is printed Go-quoted.
func nameText(name string) string {
	if strings.ContainsFunc(name, func(r rune) bool { return r <= ' ' || r == 0x7f || r == '"' || r == '\'' || !unicode.IsPrint(r) }) {
		return strconv.Quote(name)
	}
	return name
}

func tapLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return strings.ReplaceAll(s, "#", `\#`)
}

func yamlString(s string) string {
	b, _ := json.Marshal(s) // a JSON string is a YAML double-quoted string
	return string(b)
}

// The JUnit XML shape most CI systems read.
type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
	SystemOut  *junitText      `xml:"system-out,omitempty"`
}

type junitText struct {
	Text string `xml:",cdata"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Classname string        `xml:"classname,attr"`
	Name      string        `xml:"name,attr"`
	Time      string        `xml:"time,attr"`
	Failure   *junitMessage `xml:"failure,omitempty"`
	Skipped   *junitMessage `xml:"skipped,omitempty"`
	SystemOut *junitText    `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Text    string `xml:",cdata"`
}

func seconds(d Duration) string { return fmt.Sprintf("%.3f", time.Duration(d).Seconds()) }

// WriteJUnit prints the report as JUnit XML: one testcase per case, the
// certificate as properties and as the suite's system-out.
func (r *Report) WriteJUnit(w io.Writer) error {
	c := r.Certificate
	s := junitSuite{
		Name: c.Suite + "-conformance", Tests: len(r.Results) + len(r.Problems),
		Failures: c.Failed, Skipped: c.Skipped, Time: seconds(c.Elapsed),
	}
	prop := func(k, v string) { s.Properties = append(s.Properties, junitProperty{k, v}) }
	prop("implementation", c.Implementation.Name)
	for _, f := range c.Implementation.Files {
		prop("sha256 "+f.Path, f.SHA256)
	}
	prop("version", c.Version)
	prop("profile", c.Profile)
	prop("corpus_sha256", c.Corpus.SHA256)
	prop("seed", fmt.Sprint(c.Seed))
	if c.Generated != nil {
		prop("generated", fmt.Sprint(c.Generated.Cases))
	}
	prop("partial", strings.Join(c.Partial, "; "))
	for _, l := range c.Levels {
		prop("level "+string(l.Level), l.Verdict)
	}
	for _, res := range r.Results {
		jc := junitCase{Classname: classname(c.Suite, res.Name), Name: res.Name, Time: seconds(res.Elapsed)}
		switch {
		case res.Verdict.Failed():
			var fb strings.Builder
			writeFailure(&fb, res, "")
			jc.Failure = &junitMessage{Message: xmlSafe(res.Reason), Type: string(res.Verdict), Text: xmlSafe(fb.String())}
		case res.Verdict.Skipped():
			jc.Skipped = &junitMessage{Message: xmlSafe(string(res.Verdict) + ": " + firstNonEmpty(res.SkipReason, res.Reason))}
		}
		if len(res.Warnings) > 0 {
			jc.SystemOut = &junitText{xmlSafe("warning: " + strings.Join(res.Warnings, "\nwarning: "))}
		}
		s.Cases = append(s.Cases, jc)
	}
	for _, p := range r.Problems {
		s.Cases = append(s.Cases, junitCase{Classname: "run", Name: "run problem", Time: "0",
			Failure: &junitMessage{Message: xmlSafe(p), Type: "problem", Text: xmlSafe(p)}})
	}
	var cb strings.Builder
	c.write(&cb, r.warnings(), true)
	s.SystemOut = &junitText{xmlSafe(cb.String())}
	doc := junitSuites{Name: s.Name, Tests: s.Tests, Failures: s.Failures, Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// xmlSafe replaces the characters XML 1.0 cannot hold, which could come
// from an implementation's arguments, with visible escapes.
func xmlSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r == '\t', r == '\n', r == '\r':
			return r
		case r < 0x20, r >= 0xD800 && r <= 0xDFFF, r == 0xFFFE, r == 0xFFFF:
			return '\uFFFD'
		}
		return r
	}, s)
}

// classname groups cases by their folder under the suite's name, as JUnit
// viewers expect.
func classname(suite, name string) string {
	dir := path.Dir(name)
	if dir == "." {
		return suite
	}
	return suite + "." + strings.ReplaceAll(dir, "/", ".")
}

// Line renders the progress of a run as one terminal line of at most
// width columns.
func (p Progress) Line(width int) string {
	s := fmt.Sprintf("[%d/%d] %d failed", p.Done, p.Total, p.Failed)
	if p.Last != nil {
		s += fmt.Sprintf("  %s %s", p.Last.Verdict, p.Last.Name)
	}
	if width > 0 && len([]rune(s)) > width {
		s = string([]rune(s)[:width])
	}
	return s
}
