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
	l := &SkipList{}
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

// check fails for entries that match no loaded case: a renamed or removed
// case would otherwise hide in the list forever. Entries under fuzz/ name
// kinds of differential-fuzzing disagreements (fuzz.Kind.Name), not cases.
func (l *SkipList) check(names []string) error {
	for _, e := range l.Entries {
		if strings.HasPrefix(e.Pattern, "fuzz/") {
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
			return fmt.Errorf("skip list line %d: %q matches no case", e.Line, e.Pattern)
		}
	}
	return nil
}
