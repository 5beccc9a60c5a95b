package patchdiff

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// naive lists every overlapping occurrence by trying each code point.
func naive(text, needle string) []occurrence {
	var out []occurrence
	cp := 0
	for i := range text {
		if strings.HasPrefix(text[i:], needle) {
			out = append(out, occurrence{b: i, cp: cp})
		}
		cp++
	}
	return out
}

// forEachOccurrence agrees with the naive search on both of its paths
// (strings.Index, and KMP after kmpAfter hits of a long needle).
func TestForEachOccurrence(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("ab", 40)
	tests := []struct{ name, text, needle string }{
		{"overlaps", "aaaa", "aa"},
		{"code points", "éaéaéa", "aé"},
		{"none", "abc", "d"},
		{"kmp over a run", strings.Repeat("a", 2000), strings.Repeat("a", 70)},
		{"kmp with a period", strings.Repeat("ab", 3000) + "x" + strings.Repeat("ab", 500), long},
		{"kmp non-ascii", strings.Repeat("é", 1500), strings.Repeat("é", 40)},
	}
	for _, tt := range tests {
		var got []occurrence
		forEachOccurrence(newBuffer(tt.text), tt.needle, func(o occurrence) bool { got = append(got, o); return true })
		if diff := cmp.Diff(naive(tt.text, tt.needle), got, cmp.AllowUnexported(occurrence{})); diff != "" {
			t.Errorf("%s (-naive +got):\n%s", tt.name, diff)
		}
	}
}
