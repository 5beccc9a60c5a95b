package runner

import (
	"strings"
	"testing"
)

// TestCertificateEscapesImplementationText: what an implementation says
// of itself (its version, its name) reaches the certificate with control
// bytes written out, so a terminal escape cannot repaint the reader's
// terminal or forge a line.
func TestCertificateEscapesImplementationText(t *testing.T) {
	t.Parallel()
	rep := &Report{Certificate: Certificate{
		Suite:          "blockpatch",
		Implementation: Description{Name: "impl\x1b]0;owned\x07"},
		Version:        "1.0\x1b[2J\x1b[31m\nPASSED\r\n",
	}}
	for _, format := range []string{"human", "tap"} {
		var b strings.Builder
		if err := rep.Write(&b, format, false); err != nil {
			t.Fatal(err)
		}
		out := b.String()
		if strings.ContainsAny(out, "\x1b\x07\r") {
			t.Errorf("%s certificate holds a raw control byte:\n%q", format, out)
		}
		if !strings.Contains(out, `1.0\x1B[2J\x1B[31m / PASSED\r`) {
			t.Errorf("%s certificate does not show the version visibly:\n%s", format, out)
		}
	}
}
