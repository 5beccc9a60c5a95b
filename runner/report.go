package runner

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"
)

// Report is the outcome of a run: a result per selected case, problems of
// the run as a whole, and the certificate.
type Report struct {
	Certificate Certificate `json:"certificate"`
	Results     []*Result   `json:"results"`
	// Problems are failures that belong to no single case, such as files
	// written into the run's temp root. Each counts as a failure.
	Problems []string `json:"problems,omitempty"`
	// StaleSkips are the skip list's entries that the run shows stale;
	// Pruned says they were removed from its file.
	StaleSkips []StaleEntry `json:"stale_skip_entries,omitempty"`
	Pruned     bool         `json:"pruned,omitempty"`
}

// OK reports whether nothing failed.
func (r *Report) OK() bool { return r.Certificate.Failed == 0 }

// Certificate names what a run certifies and sums up its results.
type Certificate struct {
	// Suite names what is certified: "blockpatch" or "patchdiff".
	Suite string `json:"suite"`
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
	// Generated says how many cases the run generated from its seed,
	// besides the corpus; nil when none.
	Generated *GeneratedInfo `json:"generated,omitempty"`
	Parallel  int            `json:"parallel"`
	Timeout   Duration       `json:"timeout"`

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
	// Derived counts the cases of Cases a suite derived from others.
	Derived int `json:"derived,omitempty"`
	// SHA256 covers every loaded case file and its name.
	SHA256 string `json:"sha256"`
}

// Generator makes n cases from seed as a folder of case files of the
// suite (names generated/NNN), with tempDir for its own folders. The
// certifiers pass the fuzz generators, which judge generated scenarios by
// the embedded reference; the runner itself knows no reference.
type Generator func(ctx context.Context, seed uint64, n int, tempDir string) (fs.FS, error)

// DefaultGenerated is how many generated cases a certificate runs unless
// told otherwise: enough that an implementation which memorised the
// corpus fails some (fuzz's TestGeneratedCatchMemoriser), few enough to
// cost about a second of the run.
const DefaultGenerated = 30

// GeneratedInfo names the cases a run generated: Cases of them, from
// Seed (the run's seed).
type GeneratedInfo struct {
	Seed  uint64 `json:"seed"`
	Cases int    `json:"cases"`
}

// Row is one line of a certificate table.
type Row struct {
	Name    string `json:"name"`
	Passed  int    `json:"passed"`
	Failed  int    `json:"failed"`
	Skipped int    `json:"skipped"`
}

// Add counts one verdict in the row.
func (row *Row) Add(v Verdict) {
	switch {
	case v == Pass:
		row.Passed++
	case v.Failed():
		row.Failed++
	case v.Skipped():
		row.Skipped++
	}
}

// LevelRow is how an implementation did at one level of a suite: the
// cases that need the level, each also counted in the rows of the other
// levels it needs.
type LevelRow struct {
	Level    string `json:"level"`
	Claimed  bool   `json:"claimed"`
	How      string `json:"how"`
	Required bool   `json:"required,omitempty"`
	Row
	// Verdict is "passed", "failed", "unsupported" (neither claimed nor
	// required, so never with Claimed) or "no cases" (none ran).
	Verdict string `json:"verdict"`
}

// Suite is what a protocol tells the core about itself, for the
// certificate: its name, its profiles oldest first, and its requirement
// areas in document order with the lookup from an ID to its area.
type Suite struct {
	Name     string
	Profiles []string
	Areas    []string
	AreaOf   func(id string) (string, bool)
}

// noArea is the area row of cases that cite no requirement, such as
// upstream's.
const noArea = "(none cited)"

// areas returns the areas the requirement IDs fall in, each once.
func (s Suite) areas(ids []string) []string {
	if len(ids) == 0 {
		return []string{noArea}
	}
	var out []string
	for _, id := range ids {
		a, _, _ := strings.Cut(id, "-")
		if s.AreaOf != nil {
			if area, ok := s.AreaOf(id); ok {
				a = area
			}
		}
		if !slices.Contains(out, a) {
			out = append(out, a)
		}
	}
	return out
}

// Tally is what a suite's run hands the core to write its certificate.
type Tally struct {
	Suite          Suite
	Implementation Description
	Corpus         CorpusInfo
	// Loaded and Selected count the cases loaded and those the selection
	// kept.
	Loaded, Selected int
	Seed             uint64
	Results          []*Result
}

// Certificate sums up a run: counts, the rows by area and by profile, and
// why it is partial. The suite adds its levels, version and isolation.
func (s *Settings) Certificate(t Tally) Certificate {
	c := Certificate{
		Suite:          t.Suite.Name,
		Implementation: t.Implementation,
		Profile:        s.Profile,
		Corpus:         t.Corpus,
		SkipList:       s.SkipList,
		Seed:           t.Seed,
		Parallel:       max(s.Parallel, 1),
		Timeout:        Duration(s.Timeout),
		Selected:       t.Selected,
	}
	if s.RunRegexp != nil {
		c.Partial = append(c.Partial, fmt.Sprintf("-run %q", s.RunRegexp))
	}
	if s.SkipRegexp != nil {
		c.Partial = append(c.Partial, fmt.Sprintf("-skip %q", s.SkipRegexp))
	}
	if t.Selected < t.Loaded {
		c.Partial = append(c.Partial, fmt.Sprintf("%d of %d cases selected", t.Selected, t.Loaded))
	}
	skipped := 0
	areas := map[string]*Row{}
	profiles := map[string]*Row{}
	for _, res := range t.Results {
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
		for _, a := range t.Suite.areas(res.Requirements) {
			if areas[a] == nil {
				areas[a] = &Row{Name: a}
			}
			areas[a].Add(res.Verdict)
		}
		if profiles[res.Since] == nil {
			profiles[res.Since] = &Row{Name: res.Since}
		}
		profiles[res.Since].Add(res.Verdict)
	}
	if skipped > 0 {
		c.Partial = append(c.Partial, fmt.Sprintf("%d cases expected to fail by the skip list", skipped))
	}
	for _, a := range append(slices.Clone(t.Suite.Areas), noArea) {
		if row := areas[a]; row != nil {
			c.Areas = append(c.Areas, *row)
			delete(areas, a)
		}
	}
	for _, a := range slices.Sorted(maps.Keys(areas)) {
		c.Areas = append(c.Areas, *areas[a])
	}
	for _, v := range t.Suite.Profiles {
		if row := profiles[v]; row != nil {
			c.Profiles = append(c.Profiles, *row)
		}
	}
	return c
}

// Finish counts the run-level problems as failures; a suite calls it once
// its report is complete.
func (r *Report) Finish() {
	r.Certificate.Failed += len(r.Problems)
}
