package runner

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestVisible(t *testing.T) {
	t.Parallel()
	tests := []struct {
		in, want, why string
	}{
		{"plain text", "plain text", "printable text stays"},
		{"a\r\n", `a\r\n`, "CRLF shows both bytes"},
		{"a\rb", `a\rb`, "a bare CR shows"},
		{"caf\xe9", `caf\xE9`, "an invalid byte shows as hex"},
		{"tab\there", `tab\there`, "tabs show"},
		{"nul\x00", `nul\x00`, "control bytes show as hex"},
		{`back\slash`, `back\\slash`, "a backslash is doubled so escapes are unambiguous"},
		{"é ✓", "é ✓", "valid UTF-8 stays readable"},
		{"\u200b", `\u200B`, "invisible runes show"},
	}
	for _, tt := range tests {
		if got := visible([]byte(tt.in)); got != tt.want {
			t.Errorf("visible(%q) = %q, want %q (%s)", tt.in, got, tt.want, tt.why)
		}
	}
}

func TestVisibleLines(t *testing.T) {
	t.Parallel()
	got := visibleLines([]byte("one\r\ntwo\nthree"))
	want := []string{`one\r\n`, `two\n`, "three  ⟨no final newline⟩"}
	if d := cmp.Diff(want, got); d != "" {
		t.Errorf("(-want +got):\n%s", d)
	}
}

func TestBounded(t *testing.T) {
	t.Parallel()
	if got := bounded(nil, 10); got != "(empty)" {
		t.Errorf("empty: %q", got)
	}
	got := bounded([]byte(strings.Repeat("x", 25)), 10)
	if !strings.HasPrefix(got, "xxxxxxxxxx") || !strings.Contains(got, "15 more bytes") {
		t.Errorf("cut: %q", got)
	}
}

func TestShellJoin(t *testing.T) {
	t.Parallel()
	got := shellJoin([]string{"impl", "check", "a b", "it's", "$x", "", "-p1"})
	want := `impl check 'a b' 'it'\''s' '$x' '' -p1`
	if got != want {
		t.Errorf("got  %s\nwant %s", got, want)
	}
}
