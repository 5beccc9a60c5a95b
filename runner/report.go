package runner

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// Report is the outcome of a run: a result per selected case, problems of
// the run as a whole, and the certificate.
type Report struct {
	Certificate Certificate `json:"certificate"`
	Results     []*Result   `json:"results"`
	// Problems are failures that belong to no single case, such as files
	// written into the run's temp root. Each counts as a failure.
	Problems []string `json:"problems,omitempty"`
}

// OK reports whether nothing failed.
func (r *Report) OK() bool { return r.Certificate.Failed == 0 }

// Certificate names what a run certifies and sums up its results.
type Certificate struct {
	// Partial lists why the run does not cover the whole corpus (-run,
	// -skip, cases expected to fail); empty for a full certificate.
	Partial []string `json:"partial,omitempty"`

	Implementation Description    `json:"implementation"`
	Version        string         `json:"version,omitempty"`
	VersionJSON    map[string]any `json:"version_json,omitempty"`
	Levels         []LevelRow     `json:"levels"`

	Profile  string     `json:"profile"`
	Corpus   CorpusInfo `json:"corpus"`
	SkipList *SkipList  `json:"skip_list,omitempty"`
	Seed     uint64     `json:"seed"`
	Parallel int        `json:"parallel"`
	Timeout  Duration   `json:"timeout"`

	// Areas counts results by the requirement areas the cases cite (a
	// case counts once in each area it cites); Profiles by the profile a
	// case holds from.
	Areas    []Row `json:"areas"`
	Profiles []Row `json:"profiles"`

	Selected int `json:"selected"`
	Passed   int `json:"passed"`
	Failed   int `json:"failed"`
	Skipped  int `json:"skipped"`

	// Elapsed is the wall time of the run; CaseTime the sum of the cases'
	// own times.
	Elapsed  Duration `json:"elapsed"`
	CaseTime Duration `json:"case_time"`
	// Isolation is how the implementation's commands ran.
	Isolation *Isolation `json:"isolation,omitempty"`
	// TempRoot is the run's temp folder when it was kept.
	TempRoot string `json:"temp_root,omitempty"`
}

// CorpusInfo names the cases a run loaded.
type CorpusInfo struct {
	Sources []string `json:"sources"`
	Cases   int      `json:"cases"`
	// Derived counts the cases of Cases made by cases.Derive.
	Derived int `json:"derived,omitempty"`
	// SHA256 covers every loaded case file and its name.
	SHA256 string `json:"sha256"`
}

// Row is one line of a certificate table.
type Row struct {
	Name    string `json:"name"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
}

func (row *Row) add(v Verdict) {
	switch {
	case v == Pass:
		row.Passed++
	case v.Failed():
		row.Failed++
	case v.Skipped():
		row.Skipped++
	}
}

// LevelRow is how an implementation did at one level.
type LevelRow struct {
	Level    cases.Level `json:"level"`
	Claimed  bool        `json:"claimed"`
	How      string      `json:"how"`
	Required bool        `json:"required,omitempty"`
	Row
	// Verdict is "passed", "failed", "unsupported" or "no cases".
	Verdict string `json:"verdict"`
}

func (r *Runner) certificate(all, selected []loaded, hash string, f Features, seed uint64, results []*Result, desc Description) Certificate {
	c := Certificate{
		Implementation: desc,
		Version:        f.Version,
		VersionJSON:    f.VersionJSON,
		Profile:        r.Profile,
		SkipList:       r.SkipList,
		Seed:           seed,
		Parallel:       max(r.Parallel, 1),
		Timeout:        Duration(r.Timeout),
		Selected:       len(selected),
	}
	for _, s := range r.Sources {
		c.Corpus.Sources = append(c.Corpus.Sources, s.Label)
	}
	c.Corpus.Cases, c.Corpus.SHA256 = len(all), hash
	for _, l := range all {
		if strings.HasSuffix(l.source, " (derived)") {
			c.Corpus.Derived++
		}
	}
	if r.RunRegexp != nil {
		c.Partial = append(c.Partial, fmt.Sprintf("-run %q", r.RunRegexp))
	}
	if r.SkipRegexp != nil {
		c.Partial = append(c.Partial, fmt.Sprintf("-skip %q", r.SkipRegexp))
	}
	if len(selected) < len(all) {
		c.Partial = append(c.Partial, fmt.Sprintf("%d of %d cases selected", len(selected), len(all)))
	}
	skipped := 0
	areas := map[string]*Row{}
	profiles := map[string]*Row{}
	levels := map[cases.Level]*LevelRow{}
	for _, l := range cases.Levels {
		levels[l] = &LevelRow{Row: Row{Name: string(l)}, Level: l, Claimed: slices.Contains(f.Claimed, l), How: f.How[l], Required: slices.Contains(r.Require, l)}
	}
	for _, res := range results {
		c.CaseTime += res.Elapsed
		switch {
		case res.Verdict == Pass:
			c.Passed++
		case res.Verdict.Failed():
			c.Failed++
		case res.Verdict.Skipped():
			c.Skipped++
		}
		if res.Verdict == Skip {
			skipped++
		}
		for _, a := range caseAreas(res.Case) {
			if areas[a] == nil {
				areas[a] = &Row{Name: a}
			}
			areas[a].add(res.Verdict)
		}
		if profiles[res.Since] == nil {
			profiles[res.Since] = &Row{Name: res.Since}
		}
		profiles[res.Since].add(res.Verdict)
		if lr := levels[res.Level]; lr != nil {
			lr.add(res.Verdict)
		}
	}
	if skipped > 0 {
		c.Partial = append(c.Partial, fmt.Sprintf("%d cases expected to fail by the skip list", skipped))
	}
	for _, a := range areaOrder() {
		if row := areas[a]; row != nil {
			c.Areas = append(c.Areas, *row)
			delete(areas, a)
		}
	}
	for _, a := range slices.Sorted(maps.Keys(areas)) {
		c.Areas = append(c.Areas, *areas[a])
	}
	for _, v := range spec.Profiles {
		if row := profiles[v]; row != nil {
			c.Profiles = append(c.Profiles, *row)
		}
	}
	for _, l := range cases.Levels {
		lr := levels[l]
		switch {
		case lr.Failed > 0:
			lr.Verdict = "failed"
		case !f.Supports(l) && !lr.Required:
			lr.Verdict = "unsupported"
		case lr.Passed > 0:
			lr.Verdict = "passed"
		default:
			lr.Verdict = "no cases"
		}
		c.Levels = append(c.Levels, *lr)
	}
	return c
}

// noArea is the area row of cases that cite no requirement, such as
// upstream's.
const noArea = "(none cited)"

func caseAreas(c *cases.Case) []string {
	if c == nil || len(c.Requirements) == 0 {
		return []string{noArea}
	}
	var out []string
	for _, id := range c.Requirements {
		a, _, _ := strings.Cut(id, "-")
		if r, ok := spec.Lookup(id); ok {
			a = r.Area
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// areaOrder lists the spec's areas in document order, then noArea.
func areaOrder() []string {
	var out []string
	for _, r := range spec.Requirements() {
		if !slices.Contains(out, r.Area) {
			out = append(out, r.Area)
		}
	}
	return append(out, noArea)
}

// finishReport counts the run-level problems as failures.
func (r *Report) finish() {
	r.Certificate.Failed += len(r.Problems)
}
