package mutants

import (
	"bytes"
	"errors"
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// A mutant is a unified diff against files of the module: text before the
// first "--- " line describes the mistake (its first line is the summary),
// then one section per file, "--- a/PATH" and "+++ b/PATH" followed by
// hunks. The patched files must end in a newline; "\ No newline" markers
// are not accepted.

// FileDiff is the change a mutant makes to one file.
type FileDiff struct {
	Path  string // slash-separated, relative to the module root
	Hunks []Hunk
}

// Hunk is one "@@ -a,b +c,d @@" section.
type Hunk struct {
	OldStart int      // 1-based line of the first old line
	Lines    []string // each with its ' ', '-' or '+' prefix, without "\n"
}

// ErrStale is returned by Apply for a hunk whose old lines are no longer in
// the file: the mutant must be refreshed against the current source.
var ErrStale = errors.New("the diff no longer applies; refresh the mutant")

var hunkHeader = regexp.MustCompile(`^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@`)

// ParseDiff splits a mutant diff into its description and its file
// sections. It checks that every hunk's line counts match its header.
func ParseDiff(data []byte) (desc string, files []FileDiff, err error) {
	lines := strings.SplitAfter(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	i := 0
	var descLines []string
	for ; i < len(lines) && !strings.HasPrefix(lines[i], "--- "); i++ {
		descLines = append(descLines, strings.TrimSuffix(lines[i], "\n"))
	}
	desc = strings.TrimSpace(strings.Join(descLines, "\n"))
	fail := func(format string, args ...any) (string, []FileDiff, error) {
		return "", nil, fmt.Errorf("diff line %d: %s", i+1, fmt.Sprintf(format, args...))
	}
	for i < len(lines) {
		line := strings.TrimSuffix(lines[i], "\n")
		if !strings.HasPrefix(line, "--- a/") || i+1 >= len(lines) {
			return fail("want a \"--- a/PATH\" line, got %q", line)
		}
		path := strings.TrimPrefix(line, "--- a/")
		i++
		if got := strings.TrimSuffix(lines[i], "\n"); got != "+++ b/"+path {
			return fail("want \"+++ b/%s\", got %q", path, got)
		}
		i++
		fd := FileDiff{Path: path}
		for i < len(lines) && strings.HasPrefix(lines[i], "@@ ") {
			m := hunkHeader.FindStringSubmatch(lines[i])
			if m == nil {
				return fail("malformed hunk header %q", strings.TrimSuffix(lines[i], "\n"))
			}
			count := func(s string) int {
				if s == "" {
					return 1
				}
				n, _ := strconv.Atoi(s)
				return n
			}
			oldStart, _ := strconv.Atoi(m[1])
			oldN, newN := count(m[2]), count(m[4])
			h := Hunk{OldStart: oldStart}
			i++
			for oldN > 0 || newN > 0 {
				if i >= len(lines) || !strings.HasSuffix(lines[i], "\n") {
					return fail("hunk ends early")
				}
				l := strings.TrimSuffix(lines[i], "\n")
				switch {
				case strings.HasPrefix(l, " "):
					oldN--
					newN--
				case strings.HasPrefix(l, "-"):
					oldN--
				case strings.HasPrefix(l, "+"):
					newN--
				default:
					return fail("unexpected line in hunk: %q", l)
				}
				if oldN < 0 || newN < 0 {
					return fail("hunk is longer than its header counts")
				}
				h.Lines = append(h.Lines, l)
				i++
			}
			fd.Hunks = append(fd.Hunks, h)
		}
		if len(fd.Hunks) == 0 {
			return fail("no hunk for %s", path)
		}
		files = append(files, fd)
	}
	if len(files) == 0 {
		return "", nil, errors.New("the diff changes no file")
	}
	return desc, files, nil
}

// Apply returns src with the hunks applied. Each hunk's old lines must be
// found exactly: at the line the header names, or else at the one place in
// the file where they occur, after the previous hunk. Otherwise the error
// wraps ErrStale.
func (fd FileDiff) Apply(src []byte) ([]byte, error) {
	if len(src) > 0 && src[len(src)-1] != '\n' {
		return nil, fmt.Errorf("%s: does not end in a newline", fd.Path)
	}
	lines := strings.SplitAfter(string(src), "\n")
	lines = lines[:len(lines)-1] // the empty string after the final newline
	var out []string
	at := 0 // lines[:at] are done
	for n, h := range fd.Hunks {
		var old, new []string
		for _, l := range h.Lines {
			if l[0] != '+' {
				old = append(old, l[1:]+"\n")
			}
			if l[0] != '-' {
				new = append(new, l[1:]+"\n")
			}
		}
		pos := -1
		if s := h.OldStart - 1; len(old) == 0 {
			pos = max(s+1, at) // a pure insertion goes after line OldStart
			if h.OldStart == 0 {
				pos = max(0, at)
			}
		} else if s >= at && matchAt(lines, s, old) {
			pos = s
		} else {
			for s := at; s+len(old) <= len(lines); s++ {
				if matchAt(lines, s, old) {
					if pos >= 0 {
						return nil, fmt.Errorf("%s: hunk %d (@@ -%d): its old lines occur more than once: %w", fd.Path, n+1, h.OldStart, ErrStale)
					}
					pos = s
				}
			}
		}
		if pos < 0 || pos > len(lines) {
			return nil, fmt.Errorf("%s: hunk %d (@@ -%d): its old lines are not in the file: %w", fd.Path, n+1, h.OldStart, ErrStale)
		}
		out = append(out, lines[at:pos]...)
		out = append(out, new...)
		at = pos + len(old)
	}
	out = append(out, lines[at:]...)
	return []byte(strings.Join(out, "")), nil
}

func matchAt(lines []string, s int, want []string) bool {
	if s < 0 || s+len(want) > len(lines) {
		return false
	}
	for i, w := range want {
		if lines[s+i] != w {
			return false
		}
	}
	return true
}

// MakeDiff returns a one-hunk diff section for path that turns old into new,
// with context unchanged lines around the change. old and new must end in
// a newline; it returns nil when they are equal.
func MakeDiff(path string, old, new []byte, context int) []byte {
	a := strings.SplitAfter(string(old), "\n")
	b := strings.SplitAfter(string(new), "\n")
	a, b = a[:len(a)-1], b[:len(b)-1]
	pre := 0
	for pre < len(a) && pre < len(b) && a[pre] == b[pre] {
		pre++
	}
	if pre == len(a) && pre == len(b) {
		return nil
	}
	suf := 0
	for suf < len(a)-pre && suf < len(b)-pre && a[len(a)-1-suf] == b[len(b)-1-suf] {
		suf++
	}
	start := max(pre-context, 0)
	endA, endB := min(len(a)-suf+context, len(a)), min(len(b)-suf+context, len(b))
	var buf bytes.Buffer
	fmt.Fprintf(&buf, "--- a/%s\n+++ b/%s\n", path, path)
	oldStart := start + 1
	if endA-start == 0 {
		oldStart = start
	}
	fmt.Fprintf(&buf, "@@ -%d,%d +%d,%d @@\n", oldStart, endA-start, start+1, endB-start)
	for _, l := range a[start:pre] {
		buf.WriteString(" " + l)
	}
	for _, l := range a[pre : len(a)-suf] {
		buf.WriteString("-" + l)
	}
	for _, l := range b[pre : len(b)-suf] {
		buf.WriteString("+" + l)
	}
	for _, l := range a[len(a)-suf : endA] {
		buf.WriteString(" " + l)
	}
	return buf.Bytes()
}
