package cases

import (
	"slices"
	"testing"
)

// TestFieldTables checks the case tags the tables are read from: every
// protocol named exists, every top-level member is taken by some protocol,
// and names are unique.
func TestFieldTables(t *testing.T) {
	t.Parallel()
	protocols := []Protocol{Standard, Planned, Steps}
	for _, f := range CaseFields {
		for _, p := range f.Protocols {
			if !slices.Contains(protocols, p) {
				t.Errorf("%s: unknown protocol %q in its case tag", f.Name, p)
			}
		}
		if !slices.ContainsFunc(protocols, f.Takes) {
			t.Errorf("%s: no protocol takes it", f.Name)
		}
	}
	for _, fields := range [][]Field{CaseFields, OutcomeFields, StepFields, RaceFields, EntryFields, ResultFields, MoveFields, WarningFields, ErrorFields} {
		names := FieldNames(fields)
		if len(slices.Compact(slices.Sorted(slices.Values(names)))) != len(names) {
			t.Errorf("a name appears twice in %v", names)
		}
	}
	if u := CaseFields[slices.IndexFunc(CaseFields, func(f Field) bool { return f.Name == "expect" })]; !u.Upstream || u.Takes(Steps) {
		t.Errorf("expect is read as %+v", u)
	}
}
