package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"math/rand/v2"
	"os"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"
)

// Settings are the plain settings every suite's runner shares: which cases
// run and how, and how the run is reported. A suite's Runner embeds them.
type Settings struct {
	// RunRegexp selects the cases whose names match; SkipRegexp leaves out
	// those that match. Nil selects everything and leaves out nothing.
	// Narrowing makes the certificate partial.
	RunRegexp, SkipRegexp *regexp.Regexp
	// SkipList holds cases expected to fail, with reasons: they run, and
	// count as skipped when they fail and as failed when they pass.
	SkipList *SkipList
	// PruneSkipList removes the skip list's stale entries from its file
	// after the run (SkipList.Stale), instead of failing the run for
	// them; the cases they listed count as they ran.
	PruneSkipList bool
	// WriteSkipFile, when set, is where the run writes every case that
	// failed, with its reason, as a skip list the next run accepts
	// (SkipListText).
	WriteSkipFile string

	// Profile is the suite's profile certified; cases that hold only for
	// a newer profile are skipped.
	Profile string

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
	// Seed orders the cases and makes the generated ones; 0 picks one.
	// The report prints it.
	Seed uint64
	// Generated is how many cases the suite's generator (Generator) makes
	// from the seed besides the corpus; 0 makes none. The certifiers'
	// default is DefaultGenerated.
	Generated int

	// Progress, when set, is called after each case, from one goroutine at
	// a time.
	Progress func(Progress)
	// Rerun, when set, returns a command line that runs one case again,
	// for reports.
	Rerun func(name string, seed uint64) string
}

// DefaultTimeout bounds each invocation unless Settings.Timeout says
// otherwise.
const DefaultTimeout = 5 * time.Second

// DefaultSettings are the settings a suite's New starts from: the given
// profile, DefaultTimeout, one case per CPU at a time.
func DefaultSettings(profile string) Settings {
	return Settings{Profile: profile, Timeout: DefaultTimeout, Parallel: runtime.NumCPU()}
}

// Progress is the state of a run after a case finished.
type Progress struct {
	Done, Total, Failed int
	Last                *Result
}

// ErrNoCases is returned when the selection holds no case: a certificate
// of nothing is not a pass.
var ErrNoCases = errors.New("no case selected")

// Select returns a RunRegexp that selects exactly the named cases.
func Select(names []string) *regexp.Regexp {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = regexp.QuoteMeta(n)
	}
	return regexp.MustCompile("^(" + strings.Join(quoted, "|") + ")$")
}

// Validate checks the settings every suite shares against the suite's
// profiles.
func (s *Settings) Validate(suite Suite) error {
	if !slices.Contains(suite.Profiles, s.Profile) {
		return fmt.Errorf("unknown profile %q: the profiles are %s", s.Profile, strings.Join(suite.Profiles, ", "))
	}
	if s.Timeout <= 0 {
		return errors.New("the timeout must be positive")
	}
	return nil
}

// Choose returns the indexes of the names that RunRegexp and SkipRegexp
// select, in order. It returns ErrNoCases when nothing is selected.
func (s *Settings) Choose(names []string) ([]int, error) {
	var out []int
	for i, n := range names {
		if s.matches(n) {
			out = append(out, i)
		}
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: %d cases loaded, none matches the -run/-skip selection", ErrNoCases, len(names))
	}
	return out, nil
}

// RunSeed is the seed of this run: Seed, or a random one.
func (s *Settings) RunSeed() uint64 {
	seed := s.Seed
	for seed == 0 {
		seed = rand.Uint64()
	}
	return seed
}

// Schedule runs n cases, Parallel at a time, in an order shuffled by seed:
// run gets a case's index and its position in that order. It reports
// progress and returns the results sorted by name; an interrupted run
// returns ctx's error.
func (s *Settings) Schedule(ctx context.Context, n int, seed uint64, run func(ctx context.Context, i, pos int) *Result) ([]*Result, error) {
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rng := rand.New(rand.NewPCG(seed, seed^0x9e3779b97f4a7c15))
	rng.Shuffle(n, func(i, j int) { order[i], order[j] = order[j], order[i] })

	results := make([]*Result, n)
	var (
		mu       sync.Mutex
		done     int
		failed   int
		wg       sync.WaitGroup
		jobs     = make(chan int)
		parallel = max(s.Parallel, 1)
	)
	for range parallel {
		wg.Go(func() {
			for pos := range jobs {
				res := run(ctx, order[pos], pos)
				mu.Lock()
				results[pos] = res
				done++
				if res.Verdict.Failed() {
					failed++
				}
				if s.Progress != nil {
					s.Progress(Progress{Done: done, Total: n, Failed: failed, Last: res})
				}
				mu.Unlock()
			}
		})
	}
	for pos := range order {
		if ctx.Err() != nil {
			break
		}
		jobs <- pos
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for _, res := range results {
		if res.Verdict == Error {
			return nil, fmt.Errorf("case %s: %s", res.Name, res.Reason)
		}
	}
	slices.SortFunc(results, func(a, b *Result) int { return strings.Compare(a.Name, b.Name) })
	return results, nil
}

// TempRoot is a run's temp folder. Every name in it is one the runner
// made; Check reports anything else as written by an implementation.
type TempRoot struct {
	Dir    string
	before fs.FileInfo
}

// NewTempRoot makes the run's temp folder under TempDir.
func (s *Settings) NewTempRoot(prefix string) (*TempRoot, error) {
	dir, err := os.MkdirTemp(s.TempDir, prefix)
	if err != nil {
		return nil, err
	}
	info, err := os.Lstat(dir)
	if err != nil {
		os.RemoveAll(dir)
		return nil, err
	}
	return &TempRoot{Dir: dir, before: info}, nil
}

// Check returns the run-level problems the temp root shows once every case
// ended: names the runner did not make (made lists those it did), a mode or
// owner changed, and processes still running from any implementation's
// command.
func (t *TempRoot) Check(made map[string]bool) []string {
	var out []string
	if entries, err := os.ReadDir(t.Dir); err == nil {
		for _, e := range entries {
			if !made[e.Name()] {
				out = append(out, fmt.Sprintf("%q appeared in the run's temp root %s: something wrote outside its case folder", e.Name(), t.Dir))
			}
		}
	}
	if after, err := os.Lstat(t.Dir); err != nil || after.Mode() != t.before.Mode() || Owner(after) != Owner(t.before) {
		out = append(out, fmt.Sprintf("the run's temp root %s changed mode or owner, or went away", t.Dir))
	}
	for _, p := range sweep() {
		out = append(out, "a process an implementation's command started was still running at the end of the run and was killed: "+p)
	}
	return out
}

// Remove removes the temp root, never following a symlink.
func (t *TempRoot) Remove() error { return RemoveAll(t.Dir) }

// Apply turns a case's verdict into what the skip list says of it: a listed
// case that passed fails the run (the list is stale), a listed case that
// failed is skipped with the list's reason. A nil list changes nothing.
func (l *SkipList) Apply(res *Result) {
	reason, listed := l.Reason(res.Name)
	if !listed {
		return
	}
	res.SkipReason = reason
	switch {
	case res.Verdict == Pass:
		res.Verdict, res.Reason = UnexpectedPass, "listed in the skip file as failing, but passed: remove it from the list (--prune-skip-file does)"
	case res.Verdict.Failed():
		res.Verdict = Skip
	}
}

// ChooseIsolation decides how impl's commands run: under bwrap when impl is
// an external Command, isolation is not turned off, and bwrap is installed
// and works here (tried once, in dir); else none, with the reason. Under
// bwrap, writes outside are observed through overlays whose folders live
// in overlayDir, where they can be mounted. It also makes the runner the
// subreaper of orphans when commands run unconfined.
func ChooseIsolation(ctx context.Context, impl Implementation, off bool, dir, overlayDir string) *Isolation {
	iso := chooseIsolation(ctx, impl, off, dir, overlayDir)
	if !iso.Isolated() && iso.Why != inProcess {
		adoptOrphans()
	}
	return iso
}
