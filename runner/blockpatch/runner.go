package blockpatch

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// Source is a folder of cases.
type Source struct {
	// Label names the source in reports: "embedded corpus", a path.
	Label string
	FS    fs.FS
	// Root is the corpus folder inside FS, usually ".".
	Root    string
	Options cases.Options
	// Dir is the folder on disk FS reads, if any: commands under bwrap
	// cannot see it (runner.Isolation.Hide).
	Dir string
}

// Corpus is the project's embedded corpus, loaded under
// cases.CorpusOptions.
func Corpus() Source {
	return Source{Label: "embedded corpus", FS: cases.Corpus(), Root: ".", Options: cases.CorpusOptions}
}

// Dir is a folder of cases on disk in any accepted shape, upstream's
// conformance/cases folder included.
func Dir(dir string) Source {
	return Source{Label: dir, FS: os.DirFS(dir), Root: ".", Dir: dir}
}

// Runner certifies a blockpatch implementation over cases. Its fields are
// plain settings; New fills in the defaults.
type Runner struct {
	runner.Settings
	// Sources are the case folders, loaded together; case names must be
	// unique across them.
	Sources []Source
	// Impl is the implementation under test.
	Impl runner.Implementation

	// Derived adds the fail cases cases.Derive makes from every pass case
	// loaded: each breaks one rule and expects that rule's error code.
	Derived bool
	// Require lists levels that must be supported: their cases run, and
	// fail, even when the implementation does not claim the level.
	Require []cases.Level

	// Generate (fuzz.Generate) makes Settings.Generated cases for the run
	// from its seed (generated.go); nil makes none.
	Generate runner.Generator
}

// Suite describes blockpatch to the runner core: its profiles and the
// requirement areas of spec/blockpatch-1.1.md.
func Suite() runner.Suite {
	var areas []string
	for _, r := range spec.Requirements() {
		if !slices.Contains(areas, r.Area) {
			areas = append(areas, r.Area)
		}
	}
	return runner.Suite{
		Name: "blockpatch", Profiles: spec.Profiles, Areas: areas,
		AreaOf: func(id string) (string, bool) {
			r, ok := spec.Lookup(id)
			return r.Area, ok
		},
	}
}

// New returns a Runner for impl with the defaults: the embedded corpus,
// the newest profile, runner.DefaultSettings.
func New(impl runner.Implementation) *Runner {
	return &Runner{
		Settings: runner.DefaultSettings(spec.Profiles[len(spec.Profiles)-1]),
		Sources:  []Source{Corpus()},
		Impl:     impl,
	}
}

// derivedSuffix ends the source label of a derived case.
const derivedSuffix = " (derived)"

// loaded is a case with the source it came from.
type loaded = runner.Loaded[*cases.Case]

// Load loads every source and returns the cases sorted by name, with the
// corpus hash: the SHA-256 over every case's name and case file.
func (r *Runner) Load() ([]*cases.Case, string, error) {
	ls, hash, err := r.load()
	out := make([]*cases.Case, len(ls))
	for i, l := range ls {
		out[i] = l.Case
	}
	return out, hash, err
}

// load loads every source; files, when not nil, gets the bytes of every
// case file by case name, derived ones included.
func (r *Runner) load(files ...map[string][]byte) ([]loaded, string, error) {
	out, hash, err := runner.Gather(len(r.Sources), func(i int) (string, []*cases.Case, error) {
		s := r.Sources[i]
		cs, err := s.Options.Load(s.FS, cmp.Or(s.Root, "."))
		return s.Label, cs, err
	}, func(i int, c *cases.Case) (string, []byte, error) {
		s := r.Sources[i]
		data, err := fs.ReadFile(s.FS, path.Join(cmp.Or(s.Root, "."), c.Name, cases.CaseFile))
		for _, f := range files {
			f[c.Name] = data
		}
		return c.Name, data, err
	})
	if err != nil || !r.Derived {
		return out, hash, err
	}
	for _, l := range slices.Clone(out) {
		for _, f := range cases.DeriveFiles(l.Case) {
			d, err := cases.Options{}.Parse(f.Name, f.Data)
			if err != nil {
				continue // Derive's rule: a derived case that does not load is not made
			}
			out = append(out, loaded{Case: d, Source: l.Source + derivedSuffix})
			for _, m := range files {
				m[f.Name] = f.Data
			}
		}
	}
	slices.SortFunc(out, func(a, b loaded) int { return strings.Compare(a.Case.Name, b.Case.Name) })
	return out, hash, nil
}

// Run certifies r.Impl. The error is for runs that cannot produce a
// certificate: bad settings, cases that do not load, no case selected, an
// implementation that cannot be started, an interrupted run. Everything the
// implementation does wrong is in the report.
func (r *Runner) Run(ctx context.Context) (*runner.Report, error) {
	if err := r.validate(); err != nil {
		return nil, err
	}
	all, corpusHash, err := r.load()
	if err != nil {
		return nil, err
	}
	corpus := runner.CorpusInfo{Cases: len(all), SHA256: corpusHash}
	for _, l := range all {
		if strings.HasSuffix(l.Source, derivedSuffix) {
			corpus.Derived++
		}
	}
	// One seed orders the run and makes its generated cases, so that a
	// failure's rerun line (--seed) makes the same case again.
	settings := r.Settings
	settings.Seed = r.RunSeed()
	more, generated, err := r.generated(ctx, settings.Seed)
	if err == nil {
		all, err = runner.Merge(all, more, func(c *cases.Case) string { return c.Name })
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, len(all))
	for i, l := range all {
		names[i] = l.Case.Name
	}
	for _, s := range r.Sources {
		corpus.Sources = append(corpus.Sources, s.Label)
	}
	desc := r.Impl.Describe()
	var (
		features Features
		iso      *runner.Isolation
	)
	return settings.Run(ctx, runner.Job{
		Suite: Suite(), Names: names, Corpus: corpus, Implementation: desc,
		Start: func(ctx context.Context, dir, overlayDir string) (*runner.Isolation, error) {
			iso = runner.ChooseIsolation(ctx, r.Impl, r.NoIsolation, dir, overlayDir)
			for _, s := range r.Sources {
				if s.Dir != "" {
					iso.Hide(s.Dir)
				}
			}
			features, err = probe(ctx, r.Impl, dir, r.Timeout, iso)
			return iso, err
		},
		Problems: func() []string {
			var out []string
			for _, name := range slices.Sorted(maps.Keys(features.outside)) {
				out = append(out, fmt.Sprintf("probing the implementation (%s), the command wrote outside its folder: %s", name, strings.Join(features.outside[name], ", ")))
			}
			return out
		},
		Case: func(ctx context.Context, c runner.CaseRun) *runner.Result {
			return r.runCase(ctx, all[c.I], c.Pos, c.Root, features, c.Seed, desc, iso)
		},
		Certify: func(c *runner.Certificate, results []*runner.Result) {
			c.Version, c.VersionJSON = features.Version, features.VersionJSON
			c.Generated = generated
			c.Levels = r.levels(features, results)
		},
	})
}

// levels sums up the results by level, with what the implementation
// claims. A case counts in the row of every level it needs, so a claimed
// level whose cases need another, unclaimed one shows them as skipped; the
// verdict is "unsupported" only for a level neither claimed nor required.
func (r *Runner) levels(f Features, results []*runner.Result) []runner.LevelRow {
	var out []runner.LevelRow
	for _, l := range cases.Levels {
		lr := runner.LevelRow{Row: runner.Row{Name: string(l)}, Level: string(l), Claimed: f.Claims(l), How: f.How[l], Required: slices.Contains(r.Require, l)}
		for _, res := range results {
			if slices.Contains(res.Levels, string(l)) {
				lr.Add(res.Verdict)
			}
		}
		switch {
		case lr.Failed > 0:
			lr.Verdict = "failed"
		case !lr.Claimed && !lr.Required:
			lr.Verdict = "unsupported"
		case lr.Passed > 0:
			lr.Verdict = "passed"
		default:
			lr.Verdict = "no cases"
		}
		out = append(out, lr)
	}
	return out
}

func (r *Runner) validate() error {
	if r.Impl == nil {
		return errors.New("no implementation to certify")
	}
	if err := r.Settings.Validate(Suite()); err != nil {
		return err
	}
	for _, l := range r.Require {
		if !slices.Contains(cases.Levels, l) {
			return fmt.Errorf("unknown level %q: the levels are core, planner, cli", l)
		}
	}
	if len(r.Sources) == 0 {
		return errors.New("no case source")
	}
	return nil
}
