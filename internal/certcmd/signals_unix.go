//go:build unix

package certcmd

import (
	"os"
	"syscall"
)

// stopSignals end a run cleanly.
var stopSignals = []os.Signal{os.Interrupt, syscall.SIGTERM, syscall.SIGHUP}
