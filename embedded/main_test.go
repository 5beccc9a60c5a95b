package embedded

import (
	"os"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

func TestMain(m *testing.M) {
	// Process starts this test binary again as the reference CLI.
	ServeIfReference()
	os.Exit(m.Run())
}

// requireAllPass fails the test with the report of every case that did
// not pass.
func requireAllPass(t *testing.T, rep *runner.Report) {
	t.Helper()
	if rep.OK() && rep.Certificate.Passed == len(rep.Results) {
		return
	}
	var b strings.Builder
	if err := rep.WriteHuman(&b, false); err != nil {
		t.Fatal(err)
	}
	t.Errorf("certificate: %d passed, %d failed, %d skipped of %d\n%s", rep.Certificate.Passed, rep.Certificate.Failed, rep.Certificate.Skipped, len(rep.Results), b.String())
}
