package blockpatch

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// mixedReport is a run with passes, failures and skips: the reference
// with a broken apply for some cases, and a skip list.
func mixedReport(t *testing.T) *runner.Report {
	t.Helper()
	impl := broken(nil, func(inv runner.Invocation, o runner.Outcome) runner.Outcome {
		if isApply(inv) && strings.Contains(inv.Dir, "write_") {
			o.Stdout = []byte("not json \xff\x00\n")
		}
		return o
	})
	r := newRunner(t, impl)
	r.SkipList, _ = runner.ParseSkipList([]byte("write/create-file-mode expected to fail\n"))
	r.Rerun = func(name string, seed uint64) string { return fmt.Sprintf("rerun %s %d", name, seed) }
	return run(t, r)
}

func TestWriteJSON(t *testing.T) {
	t.Parallel()
	rep := mixedReport(t)
	var b bytes.Buffer
	if err := rep.WriteJSON(&b); err != nil {
		t.Fatal(err)
	}
	var got struct {
		Certificate struct {
			Passed, Failed, Skipped int
			Seed                    uint64
			Profile                 string
			Corpus                  struct{ SHA256 string }
			Partial                 []string
			Implementation          struct{ Name string }
		}
		Results []struct {
			Name, Verdict string
			Elapsed       float64
			Failure       *struct {
				Step     string
				Problems []string
			}
		}
	}
	if err := json.Unmarshal(b.Bytes(), &got); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	c := got.Certificate
	if c.Passed != rep.Certificate.Passed || c.Failed != 1 || c.Skipped != rep.Certificate.Skipped || c.Seed != 1 || c.Profile != "1.1.1" || len(c.Corpus.SHA256) != 64 || len(c.Partial) == 0 || c.Implementation.Name == "" {
		t.Errorf("certificate %+v", c)
	}
	if len(got.Results) != len(rep.Results) {
		t.Fatalf("%d results, want %d", len(got.Results), len(rep.Results))
	}
	for _, res := range got.Results {
		if res.Verdict == "fail" && (res.Failure == nil || res.Failure.Step != "apply" || len(res.Failure.Problems) == 0) {
			t.Errorf("%s: failure %+v", res.Name, res.Failure)
		}
	}
}

func TestWriteJUnit(t *testing.T) {
	t.Parallel()
	rep := mixedReport(t)
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XMLName  xml.Name `xml:"testsuites"`
		Tests    int      `xml:"tests,attr"`
		Failures int      `xml:"failures,attr"`
		Skipped  int      `xml:"skipped,attr"`
		Suites   []struct {
			Tests      int `xml:"tests,attr"`
			Properties []struct {
				Name  string `xml:"name,attr"`
				Value string `xml:"value,attr"`
			} `xml:"properties>property"`
			Cases []struct {
				Classname string `xml:"classname,attr"`
				Name      string `xml:"name,attr"`
				Time      string `xml:"time,attr"`
				Failure   *struct {
					Message string `xml:"message,attr"`
					Type    string `xml:"type,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
				Skipped *struct {
					Message string `xml:"message,attr"`
				} `xml:"skipped"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	c := rep.Certificate
	if doc.Tests != len(rep.Results) || doc.Failures != c.Failed || doc.Skipped != c.Skipped || len(doc.Suites) != 1 {
		t.Fatalf("tests %d failures %d skipped %d suites %d; want %d %d %d 1", doc.Tests, doc.Failures, doc.Skipped, len(doc.Suites), len(rep.Results), c.Failed, c.Skipped)
	}
	s := doc.Suites[0]
	var failures, skipped int
	for _, tc := range s.Cases {
		if tc.Name == "" || tc.Classname == "" || tc.Time == "" {
			t.Errorf("testcase %+v lacks a name, class or time", tc)
		}
		if tc.Failure != nil {
			failures++
			if tc.Failure.Type != "fail" || !strings.Contains(tc.Failure.Text, "problem:") {
				t.Errorf("failure %+v", tc.Failure)
			}
		}
		if tc.Skipped != nil {
			skipped++
		}
	}
	if failures != c.Failed || skipped != c.Skipped {
		t.Errorf("%d failure and %d skipped elements, want %d and %d", failures, skipped, c.Failed, c.Skipped)
	}
	props := map[string]string{}
	for _, p := range s.Properties {
		props[p.Name] = p.Value
	}
	if props["profile"] != "1.1.1" || props["seed"] != "1" || len(props["corpus_sha256"]) != 64 {
		t.Errorf("properties %v", props)
	}
}

func TestWriteTAP(t *testing.T) {
	t.Parallel()
	rep := mixedReport(t)
	var b bytes.Buffer
	if err := rep.WriteTAP(&b, false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.HasPrefix(out, "TAP version 13\n1..12\n") {
		t.Errorf("header:\n%s", out)
	}
	points := regexp.MustCompile(`(?m)^(not )?ok \d+ - `).FindAllString(out, -1)
	notOK := regexp.MustCompile(`(?m)^not ok `).FindAllString(out, -1)
	skips := regexp.MustCompile(`(?m)^ok \d+ - \S+ # SKIP `).FindAllString(out, -1)
	c := rep.Certificate
	if len(points) != 12 || len(notOK) != c.Failed || len(skips) != c.Skipped {
		t.Errorf("%d points, %d not ok, %d skips; want 12, %d, %d\n%s", len(points), len(notOK), len(skips), c.Failed, c.Skipped, out)
	}
	if !strings.Contains(out, "# "+summary(c)) {
		t.Errorf("no summary comment:\n%s", out)
	}
}

func summary(c runner.Certificate) string {
	return fmt.Sprintf("%d passed, %d failed, %d skipped", c.Passed, c.Failed, c.Skipped)
}

func TestWriteHuman(t *testing.T) {
	t.Parallel()
	rep := mixedReport(t)
	var b bytes.Buffer
	if err := rep.Write(&b, "human", false); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	for _, want := range []string{
		"--- FAIL: write/replaced-file-keeps-mode",
		"requirements: WRITE-011",
		"step: apply",
		`not json \xFF\x00\n`, // invalid bytes made visible
		"rerun: rerun write/replaced-file-keeps-mode 1",
		"PARTIAL blockpatch-conformance certificate",
		"corpus ",
		"profile ",
		"seed ",
		"\narea ",
		"\nprofile ",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("human report lacks %q:\n%s", want, out)
		}
	}
	if !strings.HasSuffix(out, "\n"+summary(rep.Certificate)+"\n") {
		t.Errorf("the report does not end with the summary line:\n%s", out)
	}
	if err := rep.Write(&b, "yaml", false); err == nil {
		t.Error("an unknown format was accepted")
	}
}

func TestProgressLine(t *testing.T) {
	t.Parallel()
	p := runner.Progress{Done: 3, Total: 40, Failed: 1, Last: &runner.Result{Name: "paths/symlink-component", Verdict: runner.Fail}}
	if got, want := p.Line(0), "[3/40] 1 failed  fail paths/symlink-component"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	if got := p.Line(10); got != "[3/40] 1 f" {
		t.Errorf("cut to 10: %q", got)
	}
}

// TestJUnitHoldsAnyText: output with control characters and "]]>" still
// makes well-formed XML that reads back as the text.
func TestJUnitHoldsAnyText(t *testing.T) {
	t.Parallel()
	text := "ctrl \x01 tab\t cdata end ]]> <tag> & \"quote\"\n"
	rep := &runner.Report{Results: []*runner.Result{{Name: "a/b", Verdict: runner.Fail, Reason: text, Failure: &runner.Failure{Step: "apply", Problems: []string{text}}}}}
	rep.Certificate.Failed = 1
	var b bytes.Buffer
	if err := rep.WriteJUnit(&b); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Suites []struct {
			Cases []struct {
				Failure struct {
					Message string `xml:"message,attr"`
					Text    string `xml:",chardata"`
				} `xml:"failure"`
			} `xml:"testcase"`
		} `xml:"testsuite"`
	}
	if err := xml.Unmarshal(b.Bytes(), &doc); err != nil {
		t.Fatalf("%v\n%s", err, b.String())
	}
	f := doc.Suites[0].Cases[0].Failure
	if !strings.Contains(f.Text, "cdata end ]]> <tag> & \"quote\"") || !strings.Contains(f.Text, "ctrl \uFFFD tab\t") {
		t.Errorf("text read back as %q", f.Text)
	}
}

// TestNamesCannotForgeLines: a name with a newline, which the loader
// refuses but a case built in code may have, prints on its own line in
// every format, escaped, and forges no test point (issue 12, finding 10).
func TestNamesCannotForgeLines(t *testing.T) {
	t.Parallel()
	name := "x\nok 99 - forged # SKIP"
	rep := &runner.Report{Results: []*runner.Result{
		{Name: name, Verdict: runner.Fail, Reason: "r", Failure: &runner.Failure{Step: "setup", Problems: []string{"p"}}},
		{Name: name + "2", Verdict: runner.Pass},
	}, Certificate: runner.Certificate{Isolation: &runner.Isolation{Name: "none", Why: "turned off"}}}
	for _, format := range []string{"human", "tap", "junit", "json"} {
		var b bytes.Buffer
		if err := rep.Write(&b, format, true); err != nil {
			t.Fatal(err)
		}
		for _, line := range strings.Split(b.String(), "\n") {
			if strings.HasPrefix(strings.TrimSpace(line), "ok 99") {
				t.Errorf("%s: a name forged the line %q", format, line)
			}
		}
	}
	if got := commentSafe("step\nrm -rf /"); strings.Contains(got, "\n") {
		t.Errorf("commentSafe left a newline: %q", got)
	}
}
