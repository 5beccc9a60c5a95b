package compare

import (
	"fmt"
	"io"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// WriteMarkdown prints the matrix as Markdown: a summary table with a row
// per implementation, then the matrix of the cases that some
// implementation did not pass, then, folded, the cases every one passed.
func (m *Matrix) WriteMarkdown(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s comparison\n\n", m.Suite)
	fmt.Fprintf(&b, "%d cases from %s; %s.\n\n", len(m.Rows), mdText(m.Corpus), mdText(m.Module))
	b.WriteString("| implementation | version | profile | passed | failed | skipped |\n")
	b.WriteString("| --- | --- | --- | ---: | ---: | ---: |\n")
	for _, c := range m.Columns {
		if c.Error != "" {
			fmt.Fprintf(&b, "| %s | could not run: %s | %s | | | |\n", mdText(c.Name), mdText(c.Error), mdText(c.Profile))
			continue
		}
		fmt.Fprintf(&b, "| %s | %s | %s | %d | %d | %d |\n", mdText(c.Name), mdText(c.Version), mdText(c.Profile), c.Passed, c.Failed, c.Skipped)
	}
	var differ, passed []Row
	for _, r := range m.Rows {
		if r.AllPassed() {
			passed = append(passed, r)
		} else {
			differ = append(differ, r)
		}
	}
	fmt.Fprintf(&b, "\n## Cases not passed everywhere (%d)\n\n", len(differ))
	if len(differ) == 0 {
		b.WriteString("Every implementation passed every case.\n")
	} else {
		m.table(&b, differ)
	}
	if len(passed) > 0 {
		fmt.Fprintf(&b, "\n<details><summary>%d cases passed by every implementation</summary>\n\n", len(passed))
		m.table(&b, passed)
		b.WriteString("\n</details>\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func (m *Matrix) table(b *strings.Builder, rows []Row) {
	b.WriteString("| case | requirements |")
	for _, c := range m.Columns {
		fmt.Fprintf(b, " %s |", mdText(c.Name))
	}
	b.WriteString("\n| --- | --- |" + strings.Repeat(" --- |", len(m.Columns)) + "\n")
	for _, r := range rows {
		fmt.Fprintf(b, "| `%s` | %s |", mdCode(r.Name), mdText(strings.Join(r.Requirements, " ")))
		for _, c := range r.Cells {
			fmt.Fprintf(b, " %s |", mark(c.Verdict))
		}
		b.WriteString("\n")
	}
}

// mark is a verdict as a table cell: a sign people scan, then the word.
func mark(v runner.Verdict) string {
	switch {
	case v == "":
		return "–"
	case v == runner.Pass:
		return "✅ pass"
	case v.Failed():
		return "❌ " + string(v)
	case v == runner.Skip:
		return "⚠️ skip"
	}
	return "➖ " + string(v)
}

// mdText escapes what would end a table cell or start markup.
func mdText(s string) string {
	r := strings.NewReplacer("|", `\|`, "<", "&lt;", ">", "&gt;", "\n", " ", "`", "\\`", "*", `\*`, "_", `\_`, "[", `\[`)
	return r.Replace(s)
}

// mdCode keeps a name in a code span: only the table's pipe is escaped.
func mdCode(s string) string {
	return strings.NewReplacer("|", `\|`, "`", "'", "\n", " ").Replace(s)
}
