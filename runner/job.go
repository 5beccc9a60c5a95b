package runner

import (
	"context"
	"fmt"
	"os"
	"path"
	"path/filepath"
	"time"
)

// Job is one run of a suite as the core drives it: the suite loads its
// cases and says how to start and how to run one; the core selects,
// orders, runs them in parallel in a temp root of the run's own, checks
// what was left there, and writes the report and its certificate.
type Job struct {
	Suite Suite
	// Names are the loaded cases' names, sorted; Corpus describes them.
	Names  []string
	Corpus CorpusInfo
	// Implementation names what is certified.
	Implementation Description
	// Start prepares the run once the temp root exists, with an empty
	// folder dir in it for probes and the folder overlayDir for the
	// overlays that observe writes outside (ChooseIsolation): it decides
	// the isolation and asks the implementation what it supports. An error
	// ends the run.
	Start func(ctx context.Context, dir, overlayDir string) (*Isolation, error)
	// Case runs one case; it applies the skip list itself, before keeping
	// a failed case, whose folder it names in Result.Kept.
	Case func(ctx context.Context, c CaseRun) *Result
	// Stop, when set, runs after the last case and before the temp root
	// is checked: it ends what Start started (adapter sessions).
	Stop func()
	// Problems, when set, lists the run's problems the suite found outside
	// any case (an implementation that wrote outside while probed); it is
	// asked after Stop.
	Problems func() []string
	// Made, when set, lists the other names the suite made in the temp
	// root (sessions' folders); anything else there is a problem.
	Made func() []string
	// Certify, when set, adds the suite's own lines to the certificate:
	// levels, version.
	Certify func(c *Certificate, results []*Result)
}

// CaseRun says which case to run and where: the case Names[I], the Pos-th
// of the run's order, in the temp root Root, in the run ordered by Seed
// (for the rerun line).
type CaseRun struct {
	I, Pos int
	Root   string
	Seed   uint64
}

// Run runs job under the settings: selection, seed, temp root, the
// cases in parallel, the temp root's check, the certificate. The error is
// for runs that cannot produce a certificate.
func (s *Settings) Run(ctx context.Context, job Job) (*Report, error) {
	start := time.Now()
	chosen, err := s.Choose(job.Names)
	if err != nil {
		return nil, err
	}
	seed := s.RunSeed()
	root, err := s.NewTempRoot(job.Suite.Name + "-conformance-")
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
	iso, err := job.Start(ctx, probeDir, filepath.Join(root.Dir, OverlaysDir))
	if err != nil {
		return nil, err
	}
	results, err := s.Schedule(ctx, len(chosen), seed, func(ctx context.Context, i, pos int) *Result {
		return job.Case(ctx, CaseRun{I: chosen[i], Pos: pos, Root: root.Dir, Seed: seed})
	})
	if err != nil {
		return nil, err
	}

	if job.Stop != nil {
		job.Stop()
	}
	rep := &Report{Results: results}
	if job.Problems != nil {
		rep.Problems = job.Problems()
	}
	// Every name in the temp root is one the runner made: the probe
	// folder, the overlays' folder, the suite's own and the cases it kept. Anything else came
	// from an implementation.
	made := map[string]bool{"probe": true, OverlaysDir: true}
	if job.Made != nil {
		for _, name := range job.Made() {
			made[name] = true
		}
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
	if err := s.settleSkipList(rep, job.Names); err != nil {
		return nil, err
	}
	rep.Certificate = s.Certificate(Tally{
		Suite: job.Suite, Implementation: job.Implementation, Corpus: job.Corpus,
		Loaded: len(job.Names), Selected: len(chosen), Seed: seed, Results: results,
	})
	if job.Certify != nil {
		job.Certify(&rep.Certificate, results)
	}
	rep.Certificate.Isolation = iso
	rep.Finish()
	rep.Certificate.Elapsed = Duration(time.Since(start))
	if s.WriteSkipFile != "" {
		header := fmt.Sprintf("Written by %s-conformance --write-skip-file: every case that failed,\nwith the reason of each, for --skip-file. Implementation: %s", job.Suite.Name, oneLine(job.Implementation.Name))
		if err := os.WriteFile(s.WriteSkipFile, SkipListText(header, results), 0o644); err != nil {
			return nil, fmt.Errorf("--write-skip-file: %w", err)
		}
	}
	if keepRoot {
		rep.Certificate.TempRoot = root.Dir
	}
	return rep, nil
}

// settleSkipList finds the skip list's stale entries. Pruning removes
// them from the file, and a case whose entry went counts as it ran (a
// pass); otherwise each entry that matches no case is a problem of the
// run, as a listed case that passed already fails.
func (s *Settings) settleSkipList(rep *Report, names []string) error {
	stale := s.SkipList.Stale(names, rep.Results)
	rep.StaleSkips = stale
	if len(stale) == 0 {
		return nil
	}
	if !s.PruneSkipList {
		for _, e := range stale {
			if e.Gone {
				rep.Problems = append(rep.Problems, fmt.Sprintf("skip list line %d: %q %s (--prune-skip-file removes it)", e.Line, e.Pattern, e.Why))
			}
		}
		return nil
	}
	if err := s.SkipList.Prune(stale); err != nil {
		return fmt.Errorf("--prune-skip-file: %w", err)
	}
	rep.Pruned = true
	for _, res := range rep.Results {
		if res.Verdict != UnexpectedPass {
			continue
		}
		for _, e := range stale {
			if ok, _ := path.Match(e.Pattern, res.Name); ok {
				res.Verdict, res.Reason = Pass, ""
				res.Warnings = append(res.Warnings, fmt.Sprintf("passed; its skip-list entry (line %d) was pruned", e.Line))
				break
			}
		}
	}
	return nil
}
