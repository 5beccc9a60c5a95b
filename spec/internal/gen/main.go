// Command gen regenerates spec/requirements.json from the requirement
// markdown. It runs through go generate in the spec directory:
//
//	go generate ./spec
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/specmd"
)

func main() {
	in := flag.String("in", "blockpatch-1.1.md", "requirement markdown to read")
	out := flag.String("out", "requirements.json", "index file to write")
	flag.Parse()
	if err := run(*in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(in, out string) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	doc, err := specmd.Parse(src, spec.Profiles)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	data, err := doc.Encode()
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
