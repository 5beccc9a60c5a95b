// Command blockpatch is the reference blockpatch CLI.
package main

import (
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

func main() {
	os.Exit(cli.Main(os.Args[1:]))
}
