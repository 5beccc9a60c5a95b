package runner

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
)

// This file renders bytes for people: what an implementation printed, and
// trees compared with go-cmp, with every byte that matters visible.

// visible renders b so that line ends, bare CR, tabs, other control bytes
// and invalid UTF-8 can all be seen: "\r", "\n", "\t", "\x00" and "\xE9"
// are written out, backslash is doubled, and printable text is kept.
func visible(b []byte) string {
	var s strings.Builder
	for len(b) > 0 {
		r, n := utf8.DecodeRune(b)
		switch {
		case r == utf8.RuneError && n <= 1:
			fmt.Fprintf(&s, `\x%02X`, b[0])
		case r == '\\':
			s.WriteString(`\\`)
		case r == '\n':
			s.WriteString(`\n`)
		case r == '\r':
			s.WriteString(`\r`)
		case r == '\t':
			s.WriteString(`\t`)
		case r < 0x20 || r == 0x7f:
			fmt.Fprintf(&s, `\x%02X`, r)
		case !unicode.IsPrint(r) && r != ' ':
			fmt.Fprintf(&s, `\u%04X`, r)
		default:
			s.Write(b[:n])
		}
		b = b[n:]
	}
	return s.String()
}

// visibleLines splits b after each "\n" and renders each line with
// visible, so a diff of two files pairs lines and shows their ends. A last
// line without "\n" is marked, since a missing final newline is a
// difference too.
func visibleLines(b []byte) []string {
	var out []string
	for len(b) > 0 {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			out = append(out, visible(b)+"  ⟨no final newline⟩")
			break
		}
		out = append(out, visible(b[:i+1]))
		b = b[i+1:]
	}
	return out
}

// bounded renders output for a report: visible bytes, one line per line,
// cut after limit bytes with a note of how much was left out.
func bounded(b []byte, limit int) string {
	if len(b) == 0 {
		return "(empty)"
	}
	cut := b
	if len(cut) > limit {
		cut = cut[:limit]
	}
	s := strings.Join(visibleLines(cut), "\n")
	if len(b) > limit {
		s += fmt.Sprintf("\n… (%d more bytes)", len(b)-limit)
	}
	return s
}

// indent prefixes every line of s.
func indent(s, prefix string) string {
	return prefix + strings.ReplaceAll(strings.TrimRight(s, "\n"), "\n", "\n"+prefix)
}

var shellSafe = regexp.MustCompile(`^[A-Za-z0-9_@%+=:,./-]+$`)

// shellQuote quotes one word for a POSIX shell.
func shellQuote(s string) string {
	if s != "" && shellSafe.MatchString(s) {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}

// shellJoin quotes a command line for a POSIX shell.
func shellJoin(argv []string) string {
	q := make([]string, len(argv))
	for i, a := range argv {
		q[i] = shellQuote(a)
	}
	return strings.Join(q, " ")
}

// jsonText renders a decoded JSON value compactly.
func jsonText(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

// linesDiff is a go-cmp diff (-want +got) of two byte strings, line by
// line, with line ends and invalid bytes visible.
func linesDiff(want, got []byte) string {
	return cmp.Diff(visibleLines(want), visibleLines(got))
}

// The renderers above, for the suites' reports.
var (
	// ShellJoin quotes a command line for a POSIX shell, for printing
	// command lines a person can paste.
	ShellJoin = shellJoin
	// ShellQuote quotes one word for a POSIX shell.
	ShellQuote = shellQuote
	// Visible renders bytes with line ends, control bytes and invalid
	// UTF-8 written out; VisibleLines does so line by line.
	Visible      = visible
	VisibleLines = visibleLines
	// Bounded renders output for a report, cut after a limit.
	Bounded = bounded
	// JSONText renders a decoded JSON value compactly.
	JSONText = jsonText
	// LinesDiff is a go-cmp diff (-want +got) of two byte strings, line
	// by line, with line ends and invalid bytes visible.
	LinesDiff = linesDiff
	// Indent prefixes every line of a text.
	Indent = indent
)
