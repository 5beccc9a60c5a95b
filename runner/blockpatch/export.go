package blockpatch

import (
	"path"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// The formats a copy of blockpatch cases holds.
const (
	// FormatUpstream is upstream's case.json: only its members, content
	// as strings (cases.UpstreamFile).
	FormatUpstream = "upstream"
	// FormatExtended is this project's case.json, upstream's plus
	// extensions (cases/README.md).
	FormatExtended = "blockpatch-conformance"
)

var formats = []runner.Format{
	{Name: FormatUpstream, About: `Upstream blockpatch's conformance case format: <name>/case.json holding only
"expect", "error_code", "patch", "files", "expected_files" and
"expected_absent", every content a JSON string. Run "check PATCH --cwd WORK
--json-output" and "apply" the same way on a fresh tree holding "files"; a
pass case must end with "expected_files" (the whole tree), then a second apply
reports already_applied and changes nothing, and "apply -R" restores
"files"; a fail case makes check and apply exit 1 with "error_code" and
leave the tree byte for byte. These cases hold from profile 1.0 and need only
the core level; their requirement IDs are in cases.jsonl.`},
	{Name: FormatExtended, About: `This project's case.json: upstream's format plus extensions, for the cases
upstream's cannot hold (other bytes than UTF-8, modes, symlinks, arguments,
expected error details and results, planner cases, step cases, profiles and
levels). It is specified in cases/README.md of the module that wrote this
copy (the version above); every member upstream has means what it means
there, and an unknown member is an error.`},
}

// Catalog lists the cases r loads (derived ones too when r.Derived), each
// with the case file a copy writes: upstream's format wherever the case
// fits it, this project's otherwise.
func (r *Runner) Catalog() (*runner.Catalog, error) {
	data := map[string][]byte{}
	all, hash, err := r.load(data)
	if err != nil {
		return nil, err
	}
	cat := &runner.Catalog{Suite: Suite().Name, Formats: formats,
		Corpus: runner.CorpusInfo{Cases: len(all), SHA256: hash}}
	for _, s := range r.Sources {
		cat.Corpus.Sources = append(cat.Corpus.Sources, s.Label)
	}
	for _, l := range all {
		c := l.Case
		ci := runner.CaseInfo{
			Name: c.Name, Source: l.Source, Requirements: c.Requirements, Since: c.Since,
			Description: c.Description, File: path.Join(c.Name, cases.CaseFile),
			Format: FormatExtended, Data: data[c.Name], Levels: levelNames(c.Levels),
		}
		if up, ok := cases.UpstreamFile(c); ok {
			ci.Format, ci.Data = FormatUpstream, up
		}
		ci.Tags = append(ci.Tags, string(c.Protocol))
		if c.Expect != "" {
			ci.Tags = append(ci.Tags, string(c.Expect))
		}
		if strings.HasSuffix(l.Source, derivedSuffix) {
			ci.Tags = append(ci.Tags, "derived")
			cat.Corpus.Derived++
		}
		if c.Unprivileged {
			ci.Tags = append(ci.Tags, "unprivileged")
		}
		if c.NeedsHold() {
			ci.Tags = append(ci.Tags, cases.HoldFeature)
		}
		cat.Cases = append(cat.Cases, ci)
	}
	return cat, nil
}
