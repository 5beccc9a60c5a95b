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
	"slices"
	"strconv"
	"strings"
	"time"

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
}

// Corpus is the project's embedded PatchDIFF corpus.
func Corpus() Source {
	return Source{Label: "embedded corpus", FS: pdcases.Corpus(), Root: "."}
}

// Dir is a folder of case files on disk.
func Dir(dir string) Source {
	return Source{Label: dir, FS: os.DirFS(dir), Root: "."}
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

type loaded struct {
	c      *pdcases.Case
	source string
}

// Load loads every source and returns the cases sorted by name, with the
// corpus hash: the SHA-256 over every case's name and file.
func (r *Runner) Load() ([]*pdcases.Case, string, error) {
	ls, hash, err := r.load()
	out := make([]*pdcases.Case, len(ls))
	for i, l := range ls {
		out[i] = l.c
	}
	return out, hash, err
}

func (r *Runner) load() ([]loaded, string, error) {
	var out []loaded
	var hash runner.CorpusHash
	for _, s := range r.Sources {
		root := cmp.Or(s.Root, ".")
		cs, err := s.Options.Load(s.FS, root)
		if err != nil {
			return nil, "", fmt.Errorf("loading cases from %s: %w", s.Label, err)
		}
		for _, c := range cs {
			data, err := fs.ReadFile(s.FS, path.Join(root, c.Name+".json"))
			if err != nil {
				return nil, "", err
			}
			if err := hash.Add(c.Name, s.Label, data); err != nil {
				return nil, "", err
			}
			out = append(out, loaded{c, s.Label})
		}
	}
	slices.SortFunc(out, func(a, b loaded) int { return strings.Compare(a.c.Name, b.c.Name) })
	return out, hash.Sum(), nil
}

// Run certifies r.Applier. The error is for runs that cannot produce a
// certificate: bad settings, cases that do not load, no case selected, an
// applier that cannot be started or fails its handshake, an interrupted
// run. Everything the applier does wrong is in the report.
func (r *Runner) Run(ctx context.Context) (*runner.Report, error) {
	start := time.Now()
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
	names := make([]string, len(all))
	for i, l := range all {
		names[i] = l.c.Name
	}
	chosen, err := r.Choose(names)
	if err != nil {
		return nil, err
	}
	seed := r.RunSeed()
	root, err := r.NewTempRoot("patchdiff-conformance-")
	if err != nil {
		return nil, err
	}
	keepRoot := false
	defer func() {
		if !keepRoot {
			root.Remove()
		}
	}()
	probeDir := filepath.Join(root.Dir, "probe")
	if err := os.Mkdir(probeDir, 0o755); err != nil {
		return nil, err
	}
	var impl runner.Implementation = runner.Func(nil)
	if r.Isolate != nil {
		impl = r.Isolate
	}
	iso := runner.ChooseIsolation(ctx, impl, r.NoIsolation, probeDir)
	pool := &sessions{r: r, iso: iso, root: root.Dir}
	defer pool.closeAll()
	hello, err := pool.handshake(ctx)
	if err != nil {
		return nil, err
	}

	desc := r.Applier.Describe()
	results, err := r.Schedule(ctx, len(chosen), seed, func(ctx context.Context, i, pos int) *runner.Result {
		l := all[chosen[i]]
		res := r.runCase(ctx, pool, hello, l, pos)
		if r.Rerun != nil {
			res.Rerun = r.Rerun(l.c.Name, seed)
		}
		return res
	})
	if err != nil {
		return nil, err
	}
	pool.closeAll()

	rep := &runner.Report{Results: results}
	made := map[string]bool{"probe": true}
	for _, name := range pool.made {
		made[name] = true
	}
	for _, res := range results {
		if res.Kept != "" {
			made[filepath.Base(res.Kept)] = true
			keepRoot = true
		}
	}
	if problems := root.Check(made); len(problems) > 0 {
		rep.Problems = append(rep.Problems, problems...)
		keepRoot = true
	}
	rep.Certificate = r.Certificate(runner.Tally{
		Suite: Suite(), Implementation: desc,
		Corpus: runner.CorpusInfo{Sources: sourceLabels(r.Sources), Cases: len(all), SHA256: corpusHash},
		Loaded: len(all), Selected: len(chosen), Seed: seed, Results: results,
	})
	rep.Certificate.Version = strings.TrimSpace(hello.Name + " " + hello.Version)
	if b, err := json.Marshal(hello); err == nil {
		json.Unmarshal(b, &rep.Certificate.VersionJSON)
	}
	rep.Certificate.Isolation = iso
	rep.Finish()
	rep.Certificate.Elapsed = runner.Duration(time.Since(start))
	if keepRoot {
		rep.Certificate.TempRoot = root.Dir
	}
	return rep, nil
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
