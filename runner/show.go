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

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
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

// showTree turns a tree into values go-cmp can diff readably: per path, a
// first line naming the kind (and the mode where want states it; want nil:
// everywhere), then the file's lines or the symlink's target. Folders show
// only when withDirs is set or want states them.
func showTree(t cases.Tree, want cases.Tree, withDirs bool) map[string][]string {
	out := map[string][]string{}
	for p, e := range t {
		if e.Dir && !withDirs {
			if w, ok := want[p]; !ok || !w.Dir {
				continue
			}
		}
		mode := e.Mode
		if want != nil {
			if w, ok := want[p]; !ok || w.Mode == 0 {
				mode = 0
			}
		}
		head := e.Kind()
		if mode != 0 {
			head += fmt.Sprintf(" %04o", mode)
		}
		switch e.Kind() {
		case "symlink":
			out[p] = []string{head, "-> " + visible([]byte(e.Symlink))}
		case "file":
			out[p] = append([]string{fmt.Sprintf("%s, %d bytes", head, len(e.Data))}, visibleLines(e.Data)...)
		case "dir":
			out[p] = []string{head}
			if e.Symlink != "" { // the owner of a folder around the work tree
				out[p] = append(out[p], e.Symlink)
			}
		default:
			out[p] = []string{head}
		}
	}
	return out
}

// treeDiff is a go-cmp diff (-want +got) of two trees as showTree renders
// them.
func treeDiff(want, got cases.Tree, withDirs bool) string {
	return cmp.Diff(showTree(want, nil, withDirs), showTree(got, want, withDirs))
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

// ShellJoin quotes a command line for a POSIX shell, for printing command
// lines a person can paste.
func ShellJoin(argv []string) string { return shellJoin(argv) }
