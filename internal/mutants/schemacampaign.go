package mutants

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"go/build"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"
)

// NotReached is the status of a mutant whose site no case reaches: it
// survives without a case run.
const NotReached Status = "not-reached"

// OtherPlatform is the status of a mutant of a file this platform's build
// leaves out (fsops_other.go on Linux): no build here holds it, so it is
// not counted.
const OtherPlatform Status = "other-platform"

// otherPlatform reports whether the build constraints of the Go file at
// rel (slash path under module) leave it out of this platform's build.
func otherPlatform(module, rel string) bool {
	dir, name := filepath.Split(filepath.Join(module, filepath.FromSlash(rel)))
	ok, err := build.Default.MatchFile(dir, name)
	return err == nil && !ok
}

// markOtherPlatform sets the status of the records of mutants in files
// this platform does not build.
func markOtherPlatform(module string, recs []Record) {
	for i, r := range recs {
		if file, _, ok := strings.Cut(r.Name, ":"); ok && otherPlatform(module, file) {
			recs[i].Status, recs[i].Killer, recs[i].Verdict, recs[i].Reason = OtherPlatform, "", "", "the file is built only on other platforms"
		}
	}
}

// SchemaCampaign judges mechanical mutants through the schemata: one
// build of every mutant (Schemata.Build), one run of the corpus with no
// mutant active that records which sites each case reaches, then for each
// mutant a judge process of its own that runs only the cases reaching its
// site, the likeliest killers first, until the first failing case. A
// mutant outside every function body gets a build of its own and all the
// cases.
type SchemaCampaign struct {
	Module   string
	Suite    Suite // Blockpatch: the judge links the blockpatch reference
	Dir      string
	Parallel int
	// Timeout bounds one mutant's judge process; zero means 5 minutes.
	Timeout  time.Duration
	Progress io.Writer
}

// Coverage is what the covering run found: the cases reaching each site,
// and each case's time.
type Coverage struct {
	Reach   map[int][]string
	Seconds map[string]float64
	Cases   []string
}

// Run judges the mutants keep selects (nil: all) and returns their
// records, in generation order.
func (c *SchemaCampaign) Run(ctx context.Context, keep func(name string) bool) ([]Record, error) {
	sites, err := generateSites(c.Module, c.Suite)
	if err != nil {
		return nil, err
	}
	if keep != nil {
		sites = slices.DeleteFunc(sites, func(s site) bool { return !keep(s.Name) })
	}
	sc, err := newSchemata(c.Module, sites)
	if err != nil {
		return nil, err
	}
	c.logf("%d mutants; building the schemata", len(sites))
	bin, err := sc.Build(ctx, c.Dir)
	if err != nil {
		return nil, err
	}
	c.logf("built (%d mutants do not compile, %d outside function bodies); covering", len(sc.BuildFailed), len(sc.Outside))
	cov, err := c.cover(ctx, bin)
	if err != nil {
		return nil, err
	}
	c.logf("%d cases; judging", len(cov.Cases))

	todo := slices.Clone(sites)
	slices.SortStableFunc(todo, func(a, b site) int { return cmp.Compare(nameHash(a.Name), nameHash(b.Name)) })
	var (
		mu    sync.Mutex
		kills = map[string]int{}
		done  = map[string]Record{}
		start = time.Now()
	)
	jobs := make(chan site)
	var wg sync.WaitGroup
	for range max(c.Parallel, 1) {
		wg.Go(func() {
			for st := range jobs {
				t0 := time.Now()
				rec := Record{Name: st.Name, Mistake: st.Mistake, DiffSum: diffSum(st.Mutant)}
				mu.Lock()
				ranked := rank(cov, kills)
				mu.Unlock()
				switch {
				case otherPlatform(c.Module, st.File):
					rec.Status, rec.Reason = OtherPlatform, "the file is built only on other platforms"
				case sc.BuildFailed[st.Name] != "":
					rec.Status, rec.Reason = BuildFailed, sc.BuildFailed[st.Name]
				case sc.Outside[st.Name]:
					c.judgeAlone(ctx, st.Mutant, batches(ranked), &rec)
				default:
					reach := cov.Reach[sc.ID[st.Name]]
					rec.Reach = len(reach)
					if len(reach) == 0 {
						rec.Status = NotReached
						break
					}
					in := map[string]bool{}
					for _, n := range reach {
						in[n] = true
					}
					c.judge(ctx, bin, sc.ID[st.Name], batches(slices.DeleteFunc(ranked, func(n string) bool { return !in[n] })), &rec)
				}
				if ctx.Err() != nil {
					return
				}
				if rec.Status == Survived || rec.Status == NotReached || rec.Status == RunError {
					rec.Diff = string(st.Diff)
				}
				rec.Seconds = time.Since(t0).Round(10 * time.Millisecond).Seconds()
				mu.Lock()
				if rec.Killer != "" {
					kills[rec.Killer]++
				}
				done[st.Name] = rec
				c.logf("[%d/%d %s] %s: %s %s", len(done), len(todo), time.Since(start).Round(time.Second), st.Name, rec.Status, rec.Killer)
				mu.Unlock()
			}
		})
	}
	for _, st := range todo {
		select { // the workers stop taking jobs once ctx is done
		case jobs <- st:
		case <-ctx.Done():
		}
		if ctx.Err() != nil {
			break
		}
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	recs := make([]Record, len(sites))
	for i, st := range sites {
		recs[i] = done[st.Name]
	}
	return recs, nil
}

// env is the judge's environment: the case trees go under c.Dir.
func (c *SchemaCampaign) env() []string {
	return append(os.Environ(), "TMPDIR="+c.Dir)
}

// FastTempDir is the folder a campaign keeps its files and case trees in
// when it can: a tmpfs, where the reference's syncs cost nothing (a run of
// the corpus took a third of the time there than in /tmp on disk).
func FastTempDir() string {
	if info, err := os.Stat("/dev/shm"); err == nil && info.IsDir() {
		if f, err := os.CreateTemp("/dev/shm", "probe-"); err == nil {
			f.Close()
			os.Remove(f.Name())
			return "/dev/shm"
		}
	}
	return ""
}

func (c *SchemaCampaign) logf(format string, args ...any) {
	if c.Progress != nil {
		fmt.Fprintf(c.Progress, format+"\n", args...)
	}
}

// rank orders every case: the most kills so far first, then the quickest.
func rank(cov *Coverage, kills map[string]int) []string {
	out := slices.Clone(cov.Cases)
	slices.SortStableFunc(out, func(a, b string) int {
		if kills[a] != kills[b] {
			return kills[b] - kills[a]
		}
		return cmp.Compare(cov.Seconds[a], cov.Seconds[b])
	})
	return out
}

// batches splits ranked cases into runs of growing size, so a mutant the
// likeliest killers catch costs one short run.
func batches(ranked []string) [][]string {
	var out [][]string
	for _, n := range []int{3, 30} {
		if len(ranked) <= n {
			break
		}
		out = append(out, ranked[:n])
		ranked = ranked[n:]
	}
	return append(out, ranked)
}

func (c *SchemaCampaign) cover(ctx context.Context, bin string) (*Coverage, error) {
	dir, err := os.MkdirTemp(c.Dir, "cover-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(dir)
	cmd := exec.CommandContext(ctx, bin, "cover")
	cmd.Dir, cmd.Env = dir, c.env()
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("covering: %v: %s", err, stderr.Bytes())
	}
	cov := &Coverage{Reach: map[int][]string{}, Seconds: map[string]float64{}}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		var l CoverLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			return nil, fmt.Errorf("covering: %w", err)
		}
		if l.Verdict != "pass" {
			return nil, fmt.Errorf("covering: with no mutant active, case %s: %s", l.Case, l.Verdict)
		}
		cov.Cases = append(cov.Cases, l.Case)
		cov.Seconds[l.Case] = l.Seconds
		for _, s := range l.Sites {
			cov.Reach[s] = append(cov.Reach[s], l.Case)
		}
	}
	return cov, sc.Err()
}

// judge runs bin's judge mode on mutant id and fills in rec.
func (c *SchemaCampaign) judge(ctx context.Context, bin string, id int, batches [][]string, rec *Record) {
	timeout := cmp.Or(c.Timeout, 5*time.Minute)
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	dir, err := os.MkdirTemp(c.Dir, "judge-")
	if err != nil {
		rec.Status, rec.Reason = RunError, err.Error()
		return
	}
	defer os.RemoveAll(dir)
	req, _ := json.Marshal(JudgeRequest{Mutant: id, Batches: batches})
	cmd := exec.CommandContext(ctx, bin, "judge")
	cmd.Dir, cmd.Env = dir, c.env() // a mutant that writes where it stands writes here
	cmd.Stdin = bytes.NewReader(req)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Second
	out, runErr := cmd.Output()
	var last JudgeLine
	for _, line := range bytes.Split(out, []byte{'\n'}) {
		var l JudgeLine
		if json.Unmarshal(line, &l) == nil {
			last = l
		}
	}
	switch {
	case last.Done && last.Error != "":
		rec.Status, rec.Reason = RunError, last.Error
	case last.Done && last.Killer == "":
		rec.Status = Survived
	case last.Done:
		rec.Status, rec.Killer, rec.Verdict, rec.Reason = Killed, last.Killer, last.Verdict, last.Reason
		if last.Verdict == "timeout" {
			rec.Status = TimedOut
		}
	case ctx.Err() != nil && !errors.Is(ctx.Err(), context.Canceled):
		rec.Status, rec.Reason = TimedOut, fmt.Sprintf("the judge ran past %v in batch %d", timeout, last.Batch)
	case ctx.Err() != nil:
		rec.Status = RunError // interrupted
	default: // the judge itself died: the mutant crashed it
		rec.Status, rec.Verdict = Killed, "crash"
		rec.Killer = fmt.Sprintf("(batch %d of %d)", last.Batch, len(batches))
		rec.Reason = fmt.Sprintf("the judge process ended: %v: %s", runErr, lastLines(stderr.String(), 3))
	}
}

// judgeAlone builds a judge with m's diff alone and runs every case.
func (c *SchemaCampaign) judgeAlone(ctx context.Context, m Mutant, batches [][]string, rec *Record) {
	b := &Builder{Module: c.Module, Dir: c.Dir, Package: JudgePackage}
	bin, err := b.Build(ctx, m)
	switch {
	case errors.Is(err, ErrStale):
		rec.Status, rec.Reason = Stale, err.Error()
		return
	case errors.Is(err, ErrBuild):
		rec.Status, rec.Reason = BuildFailed, firstLine(err.Error())
		return
	case err != nil:
		rec.Status, rec.Reason = RunError, err.Error()
		return
	}
	defer os.RemoveAll(filepath.Dir(bin))
	c.judge(ctx, bin, 0, batches, rec)
}

func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.Join(lines[max(0, len(lines)-n):], " | ")
}
