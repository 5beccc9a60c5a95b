package runner

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path"
	"strings"
)

// SkipList is a list of cases expected to fail, each with a reason. A
// listed case still runs: when it fails it counts as skipped, and when it
// passes the run fails, so that the list stays honest.
//
// The file format is one case per line, the name (or a path.Match pattern
// such as "planner/*") then white space then the reason; blank lines and
// lines starting with # are ignored.
//
//	# our planner does not render CRLF context yet
//	planner/crlf-context   renders LF context lines
type SkipList struct {
	// File is where the list came from, for the certificate.
	File    string
	Entries []SkipEntry
	// text is the list as read, which pruning rewrites line by line.
	text []byte
}

// SkipEntry is one line of a skip list.
type SkipEntry struct {
	Pattern string `json:"pattern"`
	Reason  string `json:"reason"`
	Line    int    `json:"line"`
}

// ReadSkipList reads a skip file.
func ReadSkipList(file string) (*SkipList, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	l, err := ParseSkipList(data)
	if err != nil {
		return nil, fmt.Errorf("%s:%w", file, err)
	}
	l.File = file
	return l, nil
}

// ParseSkipList parses the text of a skip file.
func ParseSkipList(data []byte) (*SkipList, error) {
	l := &SkipList{text: data}
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		pattern, reason, _ := strings.Cut(strings.ReplaceAll(line, "\t", " "), " ")
		reason = strings.TrimSpace(reason)
		if reason == "" {
			return nil, fmt.Errorf("%d: %s has no reason; write why the case is expected to fail", n, pattern)
		}
		if _, err := path.Match(pattern, ""); err != nil {
			return nil, fmt.Errorf("%d: bad pattern %q: %v", n, pattern, err)
		}
		l.Entries = append(l.Entries, SkipEntry{Pattern: pattern, Reason: reason, Line: n})
	}
	return l, sc.Err()
}

// Reason returns the reason a case is listed, if it is.
func (l *SkipList) Reason(name string) (string, bool) {
	if l == nil {
		return "", false
	}
	for _, e := range l.Entries {
		if ok, _ := path.Match(e.Pattern, name); ok {
			return e.Reason, true
		}
	}
	return "", false
}

// StaleEntry is a skip-list entry that no longer says anything true.
type StaleEntry struct {
	SkipEntry
	// Gone is set when it matches no loaded case; otherwise every case
	// it matches passed. Why says which, for people.
	Gone bool   `json:"gone"`
	Why  string `json:"why"`
}

// ignoresEntry reports whether an entry names no case: entries under
// fuzz/ name kinds of differential-fuzzing disagreements (fuzz.Kind.Name).
func ignoresEntry(e SkipEntry) bool { return strings.HasPrefix(e.Pattern, "fuzz/") }

// Stale returns the entries of l that a run shows to be stale: those that
// match none of the loaded cases (renamed or removed), and those whose
// every selected case passed (the deviation was fixed). An entry whose
// cases the run did not select, or did not judge (unsupported, out of
// profile), is not stale: the run cannot tell.
func (l *SkipList) Stale(names []string, results []*Result) []StaleEntry {
	if l == nil {
		return nil
	}
	var out []StaleEntry
	for _, e := range l.Entries {
		if ignoresEntry(e) {
			continue
		}
		found := false
		for _, n := range names {
			if ok, _ := path.Match(e.Pattern, n); ok {
				found = true
				break
			}
		}
		if !found {
			out = append(out, StaleEntry{e, true, "it matches no case: the case was renamed or removed"})
			continue
		}
		passed, failing := 0, 0
		for _, res := range results {
			if ok, _ := path.Match(e.Pattern, res.Name); !ok {
				continue
			}
			switch res.Verdict {
			case UnexpectedPass:
				passed++
			case Skip:
				failing++
			}
		}
		if passed > 0 && failing == 0 {
			out = append(out, StaleEntry{e, false, fmt.Sprintf("every case it lists passed (%d)", passed)})
		}
	}
	return out
}

// Prune writes the list's file again without the stale entries' lines,
// every other line (comments included) as it was.
func (l *SkipList) Prune(stale []StaleEntry) error {
	if l.File == "" {
		return fmt.Errorf("the skip list was not read from a file: nothing to prune")
	}
	drop := map[int]bool{}
	for _, e := range stale {
		drop[e.Line] = true
	}
	var b bytes.Buffer
	lines := strings.SplitAfter(string(l.text), "\n")
	for i, line := range lines {
		if !drop[i+1] {
			b.WriteString(line)
		}
	}
	info, err := os.Stat(l.File)
	if err != nil {
		return err
	}
	tmp := l.File + ".prune"
	if err := os.WriteFile(tmp, b.Bytes(), info.Mode().Perm()); err != nil {
		return err
	}
	return os.Rename(tmp, l.File)
}

// SkipListText writes the cases that failed in results as a skip list the
// next run accepts: one line per case, its name (path.Match's special
// characters escaped) and its reason on one line; a case the list in use
// already expected to fail keeps that list's reason. header is written
// first as comment lines.
func SkipListText(header string, results []*Result) []byte {
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(header, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	for _, res := range results {
		var reason string
		switch {
		case res.Verdict == Skip:
			reason = res.SkipReason
		case res.Verdict.Failed() && res.Verdict != UnexpectedPass:
			reason = string(res.Verdict) + ": " + res.Reason
		default:
			continue
		}
		reason, _, _ = strings.Cut(reason, "\n")
		reason = strings.TrimSpace(visible([]byte(reason)))
		if reason == "" {
			reason = string(res.Verdict)
		}
		fmt.Fprintf(&b, "%s %s\n", matchQuote(res.Name), reason)
	}
	return []byte(b.String())
}

// matchQuote escapes the characters path.Match treats specially.
func matchQuote(name string) string {
	return strings.NewReplacer(`\`, `\\`, "*", `\*`, "?", `\?`, "[", `\[`).Replace(name)
}
