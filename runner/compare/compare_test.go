package compare

import (
	"bytes"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// fixture is two implementations over three cases: "good" passes all,
// "bad" fails one with a diff, skips one by its skip list, and a third
// implementation could not be started.
func fixture() *Matrix {
	res := func(name string, v runner.Verdict, reqs ...string) *runner.Result {
		r := &runner.Result{Name: name, Verdict: v, Requirements: reqs, Source: "test", Description: "checks " + name}
		if v.Failed() || v == runner.Skip {
			r.Reason = "apply: the tree differs"
			r.Failure = &runner.Failure{Step: "apply", Exit: 0, Stdout: "{}", Stderr: "(empty)",
				Problems: []string{"the work tree after apply differs (-want +got):\n  map[string]string{\n-  \"a.txt\": \"moved\\n\",\n+  \"a.txt\": \"kept\\n\",\n  }"}}
		}
		return r
	}
	good := &runner.Report{Certificate: runner.Certificate{Suite: "blockpatch", Version: "good 1.0", Profile: "1.1.1", Passed: 3,
		Corpus: runner.CorpusInfo{Sources: []string{"test"}, SHA256: "abc"}},
		Results: []*runner.Result{res("apply/a", runner.Pass, "APPLY-001"), res("match/b", runner.Pass, "MATCH-003"), res("paths/c", runner.Pass, "PATH-002")}}
	bad := &runner.Report{Certificate: runner.Certificate{Suite: "blockpatch", Version: "bad | 0.1", Profile: "1.1", Passed: 1, Failed: 1, Skipped: 1},
		Results: []*runner.Result{res("apply/a", runner.Pass, "APPLY-001"), res("match/b", runner.Fail, "MATCH-003"), res("paths/c", runner.Skip, "PATH-002")}}
	return Build([]Column{{Name: "good"}, {Name: "bad"}, {Name: "absent", Error: "starting it: no such file"}},
		[]*runner.Report{good, bad, nil})
}

func TestBuild(t *testing.T) {
	t.Parallel()
	m := fixture()
	if len(m.Rows) != 3 || len(m.Columns) != 3 {
		t.Fatalf("%d rows, %d columns, want 3 and 3", len(m.Rows), len(m.Columns))
	}
	b := m.Rows[1]
	if b.Name != "match/b" || b.Cells[1].Verdict != runner.Fail || !strings.Contains(b.Cells[1].Detail, "-want +got") || b.Cells[2].Verdict != "" {
		t.Errorf("row match/b: %+v", b)
	}
	if m.Rows[0].Cells[0].Detail != "" {
		t.Error("a passed cell carries a detail")
	}
	if m.Columns[1].Profile != "1.1" || m.Columns[1].Failed != 1 {
		t.Errorf("column bad: %+v", m.Columns[1])
	}
}

// TestMarkdown: one summary row per implementation, the cases not passed
// everywhere in the open table, pipes in names and versions escaped.
func TestMarkdown(t *testing.T) {
	t.Parallel()
	var b bytes.Buffer
	if err := fixture().WriteMarkdown(&b); err != nil {
		t.Fatal(err)
	}
	md := b.String()
	for _, want := range []string{
		"| bad | bad \\| 0.1 | 1.1 | 1 | 1 | 1 |\n",
		"| absent | could not run: starting it: no such file |",
		"## Cases not passed everywhere (3)\n",
		"| `match/b` | MATCH-003 | ✅ pass | ❌ fail | – |\n",
		"| `paths/c` | PATH-002 | ✅ pass | ⚠️ skip | – |\n",
	} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
	// Each table row has as many cells as its header.
	for _, line := range strings.Split(md, "\n") {
		if strings.HasPrefix(line, "| `") && strings.Count(strings.ReplaceAll(line, `\|`, ""), "|") != 2+3+1 {
			t.Errorf("row with the wrong number of cells: %s", line)
		}
	}
}

// TestHTMLSelfContained: the page loads nothing from anywhere, and the
// data cannot close its script element.
func TestHTMLSelfContained(t *testing.T) {
	t.Parallel()
	m := fixture()
	m.Rows[0].Description = "</script><script>alert(1)</script>"
	var b bytes.Buffer
	if err := m.WriteHTML(&b); err != nil {
		t.Fatal(err)
	}
	page := b.String()
	for _, bad := range []string{"http://", "https://", " src=", "<link", "alert(1)</script>"} {
		if strings.Contains(page, bad) {
			t.Errorf("page holds %q", bad)
		}
	}
	if strings.Count(page, "</script>") != 1 {
		t.Errorf("%d </script> in the page, want 1", strings.Count(page, "</script>"))
	}
}
