package patchdiff

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strconv"
	"strings"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Source is a folder of PatchDIFF case files.
type Source struct {
	// Label names the source in reports: "embedded corpus", a path.
	Label string
	FS    fs.FS
	// Root is the corpus folder inside FS, usually ".".
	Root    string
	Options pdcases.Options
	// Dir is the folder on disk FS reads, if any: an adapter under bwrap
	// cannot see it (runner.Isolation.Hide).
	Dir string
}

// Corpus is the project's embedded PatchDIFF corpus.
func Corpus() Source {
	return Source{Label: "embedded corpus", FS: pdcases.Corpus(), Root: "."}
}

// Dir is a folder of case files on disk.
func Dir(dir string) Source {
	return Source{Label: dir, FS: os.DirFS(dir), Root: ".", Dir: dir}
}

// Runner certifies a PatchDIFF applier over cases. Its fields are plain
// settings; New fills in the defaults.
type Runner struct {
	runner.Settings
	// Sources are the case folders, loaded together; case names must be
	// unique across them.
	Sources []Source
	// Applier is what is certified.
	Applier Applier
	// Isolate is the external command whose sessions run under the run's
	// isolation; nil for an applier in process.
	Isolate *runner.Command

	// Generate (pdfuzz.Generate) makes Settings.Generated cases for the
	// run from its seed, named generated/NNN, besides the corpus and
	// outside its hash; nil makes none.
	Generate runner.Generator
}

// New returns a Runner for a with the defaults: the embedded corpus, the
// newest runtime profile, runner.DefaultSettings.
func New(a Applier) *Runner {
	profiles := Suite().Profiles
	return &Runner{
		Settings: runner.DefaultSettings(profiles[len(profiles)-1]),
		Sources:  []Source{Corpus()},
		Applier:  a,
	}
}

// ForCommand returns the applier for an adapter program: kept running
// (stream mode), or run once per request when oneShot is set.
func ForCommand(cmd *runner.Command, oneShot bool) Applier {
	if oneShot {
		return OneShot{cmd}
	}
	return Stream{cmd}
}

type loaded = runner.Loaded[*pdcases.Case]

// Load loads every source and returns the cases sorted by name, with the
// corpus hash: the SHA-256 over every case's name and file.
func (r *Runner) Load() ([]*pdcases.Case, string, error) {
	ls, hash, err := r.load()
	out := make([]*pdcases.Case, len(ls))
	for i, l := range ls {
		out[i] = l.Case
	}
	return out, hash, err
}

// load loads every source; files, when not nil, gets the bytes of every
// case file by case name.
func (r *Runner) load(files ...map[string][]byte) ([]loaded, string, error) {
	return runner.Gather(len(r.Sources), func(i int) (string, []*pdcases.Case, error) {
		s := r.Sources[i]
		cs, err := s.Options.Load(s.FS, cmp.Or(s.Root, "."))
		return s.Label, cs, err
	}, func(i int, c *pdcases.Case) (string, []byte, error) {
		s := r.Sources[i]
		data, err := fs.ReadFile(s.FS, path.Join(cmp.Or(s.Root, "."), c.Name+".json"))
		for _, f := range files {
			f[c.Name] = data
		}
		return c.Name, data, err
	})
}

// Run certifies r.Applier. The error is for runs that cannot produce a
// certificate: bad settings, cases that do not load, no case selected, an
// applier that cannot be started or fails its handshake, an interrupted
// run. Everything the applier does wrong is in the report.
func (r *Runner) Run(ctx context.Context) (*runner.Report, error) {
	if r.Applier == nil {
		return nil, errors.New("no applier to certify")
	}
	if err := r.Validate(Suite()); err != nil {
		return nil, err
	}
	if len(r.Sources) == 0 {
		return nil, errors.New("no case source")
	}
	all, corpusHash, err := r.load()
	if err != nil {
		return nil, err
	}
	corpus := runner.CorpusInfo{Sources: sourceLabels(r.Sources), Cases: len(all), SHA256: corpusHash}
	// One seed orders the run and makes its generated cases, so that a
	// failure's rerun line (--seed) makes the same case again.
	settings := r.Settings
	settings.Seed = r.RunSeed()
	more, generated, err := r.generated(ctx, settings.Seed)
	if err == nil {
		all, err = runner.Merge(all, more, func(c *pdcases.Case) string { return c.Name })
	}
	if err != nil {
		return nil, err
	}
	names := make([]string, len(all))
	for i, l := range all {
		names[i] = l.Case.Name
	}
	var (
		pool  *sessions
		hello *Hello
	)
	defer func() {
		if pool != nil {
			pool.closeAll()
		}
	}()
	return settings.Run(ctx, runner.Job{
		Suite: Suite(), Names: names, Implementation: r.Applier.Describe(), Corpus: corpus,
		Start: func(ctx context.Context, dir, overlayDir string) (*runner.Isolation, error) {
			var impl runner.Implementation = runner.Func(nil)
			if r.Isolate != nil {
				impl = r.Isolate
			}
			iso := runner.ChooseIsolation(ctx, impl, r.NoIsolation, dir, overlayDir)
			for _, s := range r.Sources {
				if s.Dir != "" {
					iso.Hide(s.Dir)
				}
			}
			if _, oneShot := r.Applier.(OneShot); !oneShot {
				iso = iso.Blocking()
			}
			pool = &sessions{r: r, iso: iso, root: filepath.Dir(dir)}
			var err error
			hello, err = pool.handshake(ctx)
			return iso, err
		},
		Case: func(ctx context.Context, c runner.CaseRun) *runner.Result {
			res := r.runCase(ctx, pool, hello, all[c.I], c.Pos)
			if r.Rerun != nil {
				res.Rerun = r.Rerun(res.Name, c.Seed)
			}
			return res
		},
		Stop: func() { pool.closeAll() },
		Made: func() []string { return pool.made },
		Certify: func(c *runner.Certificate, _ []*runner.Result) {
			c.Version = strings.TrimSpace(hello.Name + " " + hello.Version)
			c.Generated = generated
			if b, err := json.Marshal(hello); err == nil {
				json.Unmarshal(b, &c.VersionJSON)
			}
		},
	})
}

func sourceLabels(ss []Source) []string {
	var out []string
	for _, s := range ss {
		out = append(out, s.Label)
	}
	return out
}

// caseID is the protocol id of the case at position pos of the run.
func caseID(pos int) string { return "c-" + strconv.Itoa(pos+1) }

// generated makes r.Generated cases with r.Generate from seed and loads
// them.
func (r *Runner) generated(ctx context.Context, seed uint64) ([]loaded, *runner.GeneratedInfo, error) {
	if r.Generated <= 0 || r.Generate == nil {
		return nil, nil, nil
	}
	fsys, err := r.Generate(ctx, seed, r.Generated, r.TempDir)
	if err != nil {
		return nil, nil, err
	}
	out, _, err := runner.Gather(1, func(int) (string, []*pdcases.Case, error) {
		cs, err := pdcases.Options{}.Load(fsys, ".")
		return fmt.Sprintf("generated from seed %d", seed), cs, err
	}, func(_ int, c *pdcases.Case) (string, []byte, error) {
		data, err := fs.ReadFile(fsys, c.Name+".json")
		return c.Name, data, err
	})
	if err != nil {
		return nil, nil, err
	}
	return out, &runner.GeneratedInfo{Seed: seed, Cases: len(out)}, nil
}
