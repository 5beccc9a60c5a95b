//go:build !unix

package certcmd

import "os"

// stopSignals end a run cleanly.
var stopSignals = []os.Signal{os.Interrupt}
