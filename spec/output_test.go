package spec

import (
	"slices"
	"strings"
	"testing"
)

// statement returns the statement of a requirement the test relies on.
func statement(t *testing.T, id string) string {
	t.Helper()
	r, ok := Lookup(id)
	if !ok {
		t.Fatalf("%s is not in the spec", id)
	}
	return r.Statement
}

// TestDetailsMatchMarkdown keeps ErrorDetailFields equal to the list of
// OUT-004, in its order.
func TestDetailsMatchMarkdown(t *testing.T) {
	t.Parallel()
	s := statement(t, "OUT-004")
	_, list, ok := strings.Cut(s, "detail (")
	list, _, _ = strings.Cut(list, ")")
	if !ok {
		t.Fatalf("OUT-004 no longer lists the details in parentheses: %s", s)
	}
	var names []string
	for _, d := range ErrorDetailFields {
		names = append(names, "`"+d.Name+"`")
	}
	if got := strings.Join(names, ", "); got != list {
		t.Errorf("ErrorDetailFields give\n%s\nOUT-004 lists\n%s", got, list)
	}
}

// TestOutputValuesAreCited keeps the value lists next to the requirements
// that name them.
func TestOutputValuesAreCited(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		id     string
		values []string
	}{
		{"OUT-023", Phases},
		{"OUT-024", WarningCodes},
		{"OUT-024", Boundaries},
		{"IDEM-012", []string{SuggestedRemoveSource}},
	} {
		s := statement(t, c.id)
		for _, v := range c.values {
			if !strings.Contains(s, "`"+v+"`") && !strings.Contains(s, `"`+v+`"`) {
				t.Errorf("%s does not name %q", c.id, v)
			}
		}
	}
	for code, details := range RequiredDetails {
		if !slices.Contains(ErrorCodes(), code) {
			t.Errorf("RequiredDetails names %q, no error code", code)
		}
		for _, d := range details {
			if _, ok := LookupDetail(d); !ok {
				t.Errorf("RequiredDetails[%s] names %q, no detail", code, d)
			}
		}
	}
	if !strings.Contains(statement(t, "MATCH-011"), "first 10") {
		t.Errorf("MATCH-011 no longer says the first 10: MaxReportedRanges is %d", MaxReportedRanges)
	}
	if !strings.Contains(statement(t, "MATCH-010"), "at 11") {
		t.Errorf("MATCH-010 no longer says 1.1.0 stops at 11: UpstreamMatchCountLimit is %d", UpstreamMatchCountLimit)
	}
}
