package fuzz

import (
	"os"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
)

// TestMain lets the campaign re-execute this test binary as the
// reference, which it does for the unprivileged scenarios run as root.
func TestMain(m *testing.M) {
	embedded.ServeIfReference()
	os.Exit(m.Run())
}
