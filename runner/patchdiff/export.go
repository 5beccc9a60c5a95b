package patchdiff

import (
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// FormatCase is the format of a copied PatchDIFF case: the case file as
// the corpus holds it.
const FormatCase = "patchdiff-conformance"

var formats = []runner.Format{{Name: FormatCase, About: `This project's PatchDIFF case file: <area>/<name>.json, one runtime call
("request", sent as the adapter protocol's request) and what the runtime must
answer ("expect"), or a replay ("replay"). It is specified in
cases/patchdiff/README.md of the module that wrote this copy (the version
above), and the adapter protocol in spec/patchdiff/adapter.md.`}}

// Catalog lists the cases r loads, each with its case file as a copy
// writes it.
func (r *Runner) Catalog() (*runner.Catalog, error) {
	data := map[string][]byte{}
	all, hash, err := r.load(data)
	if err != nil {
		return nil, err
	}
	cat := &runner.Catalog{Suite: Suite().Name, Formats: formats,
		Corpus: runner.CorpusInfo{Sources: sourceLabels(r.Sources), Cases: len(all), SHA256: hash}}
	for _, l := range all {
		c := l.Case
		ci := runner.CaseInfo{
			Name: c.Name, Source: l.Source, Requirements: c.Requirements, Since: "(none)",
			Description: c.Description, File: c.Name + ".json", Format: FormatCase, Data: data[c.Name],
		}
		if v := c.Request.RuntimeVersion; v != nil {
			ci.Since = *v
		}
		ci.Tags = []string{"runtime", c.Expect.Status}
		if c.Replay != nil {
			ci.Tags = []string{"replay", c.Replay.Expect.Status}
		}
		if c.Recommended {
			ci.Tags = append(ci.Tags, "recommended")
		}
		ci.Tags = append(ci.Tags, c.Area())
		cat.Cases = append(cat.Cases, ci)
	}
	return cat, nil
}
