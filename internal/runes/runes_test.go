package runes

import "testing"

func TestCut(t *testing.T) {
	t.Parallel()
	for _, tc := range []struct {
		p    string
		want int
	}{
		{"", 0},
		{"abc", 3},
		{"aé", 3},
		{"a\xc3", 1},             // é's first byte
		{"a\xe2\x82", 1},         // € cut after two bytes
		{"a\xf0\x9f\x98", 1},     // 😀 cut after three bytes
		{"a\xf0\x9f\x98\x80", 5}, // 😀 whole
		{"\xf0\x9f\x98\x80", 4},  // no byte before it
		{"a\x80", 2},             // a lone continuation byte: no rune to complete
		{"a\x80\x80\x80", 4},     // continuation bytes past any rune's start
		{"\xe2a", 2},             // a cut rune followed by ASCII: invalid, not cut
	} {
		if got := Cut([]byte(tc.p)); got != tc.want {
			t.Errorf("Cut(%q) = %d, want %d", tc.p, got, tc.want)
		}
	}
}
