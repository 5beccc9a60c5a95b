package calibrate

import (
	"os"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
)

// TestMain lets the differential campaign re-execute this test binary as
// the reference, which it does for the unprivileged scenarios run as root;
// without it the binary would run its own tests again as the reference.
func TestMain(m *testing.M) {
	embedded.ServeIfReference()
	os.Exit(m.Run())
}
