package blockpatch

import (
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

// TestTreeDiffShowsBytes: a diff of trees that differ only in line ends,
// a final newline or one invalid byte names the difference visibly.
func TestTreeDiffShowsBytes(t *testing.T) {
	t.Parallel()
	for _, tt := range []struct{ want, got, shows string }{
		{"a\nb\n", "a\r\nb\n", `a\r\n`},
		{"a\nb\n", "a\nb", "no final newline"},
		{"caf\xc3\xa9\n", "caf\xe9\n", `caf\xE9`},
	} {
		d := treeDiff(cases.Tree{"f": {Data: []byte(tt.want)}}, cases.Tree{"f": {Data: []byte(tt.got)}}, false)
		if !strings.Contains(d, tt.shows) {
			t.Errorf("diff of %q and %q does not show %q:\n%s", tt.want, tt.got, tt.shows, d)
		}
	}
}
