package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"math/rand/v2"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
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
}

// Corpus is the project's embedded corpus, loaded under
// cases.CorpusOptions.
func Corpus() Source {
	return Source{Label: "embedded corpus", FS: cases.Corpus(), Root: ".", Options: cases.CorpusOptions}
}

// Dir is a folder of cases on disk in any accepted shape, upstream's
// conformance/cases folder included.
func Dir(dir string) Source {
	return Source{Label: dir, FS: os.DirFS(dir), Root: "."}
}

// Runner certifies an implementation over cases. Its fields are plain
// settings; New fills in the defaults.
type Runner struct {
	// Sources are the case folders, loaded together; case names must be
	// unique across them.
	Sources []Source
	// Impl is the implementation under test.
	Impl Implementation

	// RunRegexp selects the cases whose names match; SkipRegexp leaves out
	// those that match. Nil selects everything and leaves out nothing.
	// Narrowing makes the certificate partial.
	RunRegexp, SkipRegexp *regexp.Regexp
	// SkipList holds cases expected to fail, with reasons: they run, and
	// count as skipped when they fail and as failed when they pass.
	SkipList *SkipList

	// Derived adds the fail cases cases.Derive makes from every pass case
	// loaded: each breaks one rule and expects that rule's error code.
	Derived bool

	// Profile is the spec profile certified (spec.Profiles); cases that
	// hold only for a newer profile are skipped.
	Profile string
	// Require lists levels that must be supported: their cases run, and
	// fail, even when the implementation does not claim the level.
	Require []cases.Level

	// Timeout bounds each invocation.
	Timeout time.Duration
	// Parallel is the number of cases run at once.
	Parallel int
	// Keep keeps the folders of failed cases, with what is needed to rerun
	// the failing command, instead of removing them.
	Keep bool
	// TempDir is where the run's temp root is made; "" is os.TempDir().
	TempDir string
	// NoIsolation runs an external implementation's commands without
	// bubblewrap even when it is installed (see Isolation).
	NoIsolation bool
	// Seed orders the cases; 0 picks one. The report prints it.
	Seed uint64

	// Progress, when set, is called after each case, from one goroutine at
	// a time.
	Progress func(Progress)
	// Rerun, when set, returns a command line that runs one case again,
	// for reports.
	Rerun func(name string, seed uint64) string
}

// Progress is the state of a run after a case finished.
type Progress struct {
	Done, Total, Failed int
	Last                *Result
}

// DefaultTimeout bounds each invocation unless Runner.Timeout says
// otherwise.
const DefaultTimeout = 5 * time.Second

// New returns a Runner for impl with the defaults: the embedded corpus,
// profile 1.1, DefaultTimeout, one case per CPU at a time.
func New(impl Implementation) *Runner {
	return &Runner{
		Sources:  []Source{Corpus()},
		Impl:     impl,
		Profile:  spec.Profiles[len(spec.Profiles)-1],
		Timeout:  DefaultTimeout,
		Parallel: runtime.NumCPU(),
	}
}

// ErrNoCases is returned when the selection holds no case: a certificate
// of nothing is not a pass.
var ErrNoCases = errors.New("no case selected")

// loaded is a case with the source it came from.
type loaded struct {
	c      *cases.Case
	source string
}

// Load loads every source and returns the cases sorted by name, with the
// Select returns a RunRegexp that selects exactly the named cases.
func Select(names []string) *regexp.Regexp {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
}

// corpus hash: the SHA-256 over every case's name and case file.
func (r *Runner) Load() ([]*cases.Case, string, error) {
	ls, hash, err := r.load()
	out := make([]*cases.Case, len(ls))
	for i, l := range ls {
		out[i] = l.c
	}
	return out, hash, err
}

func (r *Runner) load() ([]loaded, string, error) {
	var out []loaded
	from := map[string]string{}
	type fileHash struct{ name, sum string }
	var hashes []fileHash
	for _, s := range r.Sources {
		root := s.Root
		if root == "" {
			root = "."
		}
		cs, err := s.Options.Load(s.FS, root)
		if err != nil {
			return nil, "", fmt.Errorf("loading cases from %s: %w", s.Label, err)
		}
		for _, c := range cs {
			if other, dup := from[c.Name]; dup {
				return nil, "", fmt.Errorf("case %s is in both %s and %s", c.Name, other, s.Label)
			}
			from[c.Name] = s.Label
			data, err := fs.ReadFile(s.FS, path.Join(root, c.Name, cases.CaseFile))
			if err != nil {
				return nil, "", err
			}
			sum := sha256.Sum256(data)
			hashes = append(hashes, fileHash{c.Name, hex.EncodeToString(sum[:])})
			out = append(out, loaded{c, s.Label})
		}
	}
	if r.Derived {
		for _, l := range slices.Clone(out) {
			for _, d := range cases.Derive(l.c) {
				out = append(out, loaded{d, l.source + " (derived)"})
			}
		}
	}
	slices.SortFunc(out, func(a, b loaded) int { return strings.Compare(a.c.Name, b.c.Name) })
	slices.SortFunc(hashes, func(a, b fileHash) int { return strings.Compare(a.name, b.name) })
	h := sha256.New()
	for _, fh := range hashes {
		fmt.Fprintf(h, "%s %s\n", fh.sum, fh.name)
	}
	return out, hex.EncodeToString(h.Sum(nil)), nil
}

// Run certifies r.Impl. The error is for runs that cannot produce a
// certificate: bad settings, cases that do not load, no case selected, an
// implementation that cannot be started, an interrupted run. Everything the
// implementation does wrong is in the report.
func (r *Runner) Run(ctx context.Context) (*Report, error) {
	start := time.Now()
	if err := r.validate(); err != nil {
		return nil, err
	}
	all, corpusHash, err := r.load()
	if err != nil {
		return nil, err
	}
	if r.SkipList != nil {
		names := make([]string, len(all))
		for i, l := range all {
			names[i] = l.c.Name
		}
		if err := r.SkipList.check(names); err != nil {
			return nil, err
		}
	}
	var selected []loaded
	for _, l := range all {
		if (r.RunRegexp == nil || r.RunRegexp.MatchString(l.c.Name)) && (r.SkipRegexp == nil || !r.SkipRegexp.MatchString(l.c.Name)) {
			selected = append(selected, l)
		}
	}
	if len(selected) == 0 {
		return nil, fmt.Errorf("%w: %d cases loaded, none matches the -run/-skip selection", ErrNoCases, len(all))
	}
	seed := r.Seed
	for seed == 0 {
		seed = rand.Uint64()
	}
	root, err := os.MkdirTemp(r.TempDir, "blockpatch-conformance-")
	if err != nil {
		return nil, err
	}
	keepRoot := false
	defer func() {
		if !keepRoot {
			removeAll(root)
		}
	}()
	probeDir := filepath.Join(root, "probe")
	if err := os.Mkdir(probeDir, 0o755); err != nil {
		return nil, err
	}
	rootBefore, err := os.Lstat(root)
	if err != nil {
		return nil, err
	}
	iso := r.chooseIsolation(ctx, probeDir, filepath.Join(root, overlaysDir))
	if !iso.Isolated() && iso.Why != inProcess {
		adoptOrphans()
	}
	features, err := probe(ctx, r.Impl, probeDir, r.Timeout, iso)
	if err != nil {
		return nil, err
	}
	var problems []string
	for _, name := range slices.Sorted(maps.Keys(features.outside)) {
		problems = append(problems, fmt.Sprintf("probing the implementation (%s), the command wrote outside its folder: %s", name, strings.Join(features.outside[name], ", ")))
	}

	desc := r.Impl.Describe()
	order := slices.Clone(selected)
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(len(order), func(i, j int) { order[i], order[j] = order[j], order[i] })

	results := make([]*Result, len(order))
	var (
		mu       sync.Mutex
		done     int
		failed   int
		wg       sync.WaitGroup
		jobs     = make(chan int)
		parallel = max(r.Parallel, 1)
	)
	for range parallel {
		wg.Go(func() {
			for i := range jobs {
				res := r.runCase(ctx, order[i], i, root, features, seed, desc, iso)
				mu.Lock()
				results[i] = res
				done++
				if res.Verdict.Failed() {
					failed++
				}
				if r.Progress != nil {
					r.Progress(Progress{Done: done, Total: len(order), Failed: failed, Last: res})
				}
				mu.Unlock()
			}
		})
	}
	for i := range order {
		if ctx.Err() != nil {
			break
		}
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, res := range results {
		if res.Kept != "" {
			keepRoot = true
		}
		if res.Verdict == Error {
			return nil, fmt.Errorf("case %s: %s", res.Name, res.Reason)
		}
	}
	slices.SortFunc(results, func(a, b *Result) int { return strings.Compare(a.Name, b.Name) })

	rep := &Report{Results: results, Problems: problems}
	// Every name in the temp root is one the runner made: the probe
	// folder, the overlays' folder and the boxes it kept. Anything else, box-like or not, came
	// from an implementation.
	kept := map[string]bool{"probe": true, overlaysDir: true}
	for _, res := range results {
		if res.Kept != "" {
			kept[filepath.Base(res.Kept)] = true
		}
	}
	if entries, err := os.ReadDir(root); err == nil {
		for _, e := range entries {
			if !kept[e.Name()] {
				rep.Problems = append(rep.Problems, fmt.Sprintf("%q appeared in the run's temp root %s: something wrote outside its case folder", e.Name(), root))
				keepRoot = true
			}
		}
	}
	if rootAfter, err := os.Lstat(root); err != nil || rootAfter.Mode() != rootBefore.Mode() || owner(rootAfter) != owner(rootBefore) {
		rep.Problems = append(rep.Problems, fmt.Sprintf("the run's temp root %s changed mode or owner, or went away", root))
	}
	for _, p := range sweep() {
		rep.Problems = append(rep.Problems, "a process an implementation's command started was still running at the end of the run and was killed: "+p)
	}

	rep.Certificate = r.certificate(all, selected, corpusHash, features, seed, results, desc)
	rep.Certificate.Isolation = iso
	rep.finish()
	rep.Certificate.Elapsed = Duration(time.Since(start))
	if keepRoot {
		rep.Certificate.TempRoot = root
	}
	return rep, nil
}

func (r *Runner) validate() error {
	if r.Impl == nil {
		return errors.New("no implementation to certify")
	}
	if !slices.Contains(spec.Profiles, r.Profile) {
		return fmt.Errorf("unknown profile %q: the profiles are %s", r.Profile, strings.Join(spec.Profiles, ", "))
	}
	for _, l := range r.Require {
		if !slices.Contains(cases.Levels, l) {
			return fmt.Errorf("unknown level %q: the levels are core, planner, cli", l)
		}
	}
	if r.Timeout <= 0 {
		return errors.New("the timeout must be positive")
	}
	if len(r.Sources) == 0 {
		return errors.New("no case source")
	}
	return nil
}
