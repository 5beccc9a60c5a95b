// Command gen regenerates a requirements.json index from its requirement
// markdown. It runs through go generate in each spec directory:
//
//	go generate ./spec/...
//
// -doc picks the document's layout: "blockpatch" (spec/blockpatch-1.1.md)
// or "patchdiff" (spec/patchdiff/patchdiff-core.md).
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/specmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

func main() {
	doc := flag.String("doc", "blockpatch", `document layout: "blockpatch" or "patchdiff"`)
	in := flag.String("in", "blockpatch-1.1.md", "requirement markdown to read")
	out := flag.String("out", "requirements.json", "index file to write")
	flag.Parse()
	if err := run(*doc, *in, *out); err != nil {
		fmt.Fprintln(os.Stderr, "gen:", err)
		os.Exit(1)
	}
}

func run(docName, in, out string) error {
	var layout specmd.Layout
	switch docName {
	case "blockpatch":
		layout = specmd.Blockpatch(spec.Profiles)
	case "patchdiff":
		layout = specmd.PatchDIFF(pdspec.ProfileNames(), pdspec.Areas)
	default:
		return fmt.Errorf("unknown -doc %q", docName)
	}
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	doc, err := specmd.ParseLayout(src, layout)
	if err != nil {
		return fmt.Errorf("%s: %w", in, err)
	}
	data, err := doc.Encode()
	if err != nil {
		return err
	}
	return os.WriteFile(out, data, 0o644)
}
