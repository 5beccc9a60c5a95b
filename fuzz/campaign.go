package fuzz

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// Config is one campaign: the settings every campaign has (seed,
// iterations, shards, output, workers, shrinking; package
// fuzz/internal/campaign) and blockpatch's own.
type Config struct {
	campaign.Config
	// Impl is the implementation under test; Reference the oracle (nil:
	// the reference run in process).
	Impl, Reference Impl
	// CasesFormat adds corpus metadata (requirements, since) to the case
	// files, a guess from the error code for a reviewer to correct, and
	// checks them with cases.CorpusOptions.
	CasesFormat bool
	// Timeout bounds each command; 0 means 10s.
	Timeout time.Duration
	// MaxOutput is the bytes of stdout and of stderr kept of each command
	// run as a process; 0 means runner.DefaultMaxOutput.
	MaxOutput int
	// Options bias the generator.
	Options gen.Options
	// TempDir is where the work folders go; empty means os.TempDir().
	TempDir string
	// Levels are the feature levels the implementation implements; nil
	// means probe them as the certifier does (blockpatch.Probe). Without
	// the planner level no request scenario is drawn: the reference plans
	// and the implementation checks and applies the planned patch
	// (gen.ProtoPlanned); without the cli level the patch never comes
	// through -i or --input.
	Levels []cases.Level
	// Warnings says whether the implementation prints the adjacent_bytes
	// warnings of OUT-024 (profile 1.1.1): then every step's warnings are
	// compared, their absence included; otherwise none are, a 1.1.0
	// release printing none. Probed with the levels when Levels is nil.
	Warnings bool
}

// NewConfig returns a configuration with the defaults filled in.
func NewConfig(impl Impl) Config {
	return Config{Config: campaign.Defaults(), Impl: impl, Timeout: 10 * time.Second, Options: gen.Options{AllAreas: true}, Warnings: true}
}

// The campaign's report, shared with the PatchDIFF campaign.
type (
	Report     = campaign.Report
	Kind       = campaign.Kind
	Found      = campaign.Found
	Difference = campaign.Difference
)

// Campaign runs a differential campaign. Its error is a harness fault (an
// implementation that cannot be run, a folder that cannot be written, an
// invalid configuration); disagreements are in the Report.
func Campaign(ctx context.Context, cfg Config) (*Report, error) {
	if cfg.Impl == nil {
		return nil, errors.New("no implementation to test")
	}
	if cfg.Reference == nil {
		cfg.Reference = Reference()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	cfg.Impl, cfg.Reference = keeping(cfg.Impl, cfg.MaxOutput), keeping(cfg.Reference, cfg.MaxOutput)
	if err := cfg.levels(ctx); err != nil {
		return nil, err
	}
	if cfg.Options.Large && cfg.Log != nil {
		fmt.Fprintf(cfg.Log, "large: every scenario pads a file to about 64 KiB, 256 KiB, 1 MiB or 4 MiB\n")
	}
	return campaign.Run(ctx, cfg.Config, campaign.Suite[gen.Spec]{
		Random: func(seed uint64, k int64) gen.Spec {
			return gen.Random(gen.NewRand(seed, uint64(k)), cfg.Options)
		},
		Shrink:   gen.Shrink,
		NewTrial: func() (campaign.Trial[gen.Spec], error) { return newWorker(&cfg) },
	})
}

// levels probes the implementation's levels when cfg.Levels does not
// say them, and keeps the draws to those levels.
func (cfg *Config) levels(ctx context.Context) error {
	if cfg.Levels == nil {
		r, ok := cfg.Impl.(runnerImpl)
		if !ok {
			cfg.Levels = slices.Clone(cases.Levels)
		} else {
			dir, err := os.MkdirTemp(cfg.TempDir, "blockpatch-fuzz-probe-")
			if err != nil {
				return err
			}
			defer os.RemoveAll(dir)
			f, err := blockpatch.Probe(ctx, r.impl, dir, cfg.Timeout)
			if err != nil {
				return fmt.Errorf("probing the implementation's levels: %w", err)
			}
			cfg.Levels, cfg.Warnings = f.Claimed, f.Warnings
			if cfg.Log != nil {
				for _, l := range cases.Levels {
					fmt.Fprintf(cfg.Log, "level %s: %s\n", l, f.How[l])
				}
				how := "not compared: plan gave no warning of bytes joined with no newline"
				if f.Warnings {
					how = "compared: plan warns of bytes joined with no newline"
				}
				fmt.Fprintf(cfg.Log, "warnings: %s\n", how)
			}
		}
	}
	if !slices.Contains(cfg.Levels, cases.Planner) && len(cfg.Options.Protocols) == 0 {
		cfg.Options.Protocols = []int{gen.ProtoPatch, gen.ProtoPlanned}
	}
	if !slices.Contains(cfg.Levels, cases.CLI) {
		cfg.Options.NoInputFlag = true
	}
	return nil
}

// newWorker makes one worker's folders under cfg.TempDir.
func newWorker(cfg *Config) (*worker, error) {
	root, err := os.MkdirTemp(cfg.TempDir, "blockpatch-fuzz-")
	if err != nil {
		return nil, err
	}
	w := &worker{cfg: cfg, root: root}
	if w.ref, err = newSandbox(filepath.Join(root, "ref")); err == nil {
		w.imp, err = newSandbox(filepath.Join(root, "impl"))
	}
	if err != nil {
		os.RemoveAll(root)
		return nil, err
	}
	return w, nil
}

// worker holds one worker's folders.
type worker struct {
	cfg      *Config
	root     string
	ref, imp *sandbox
	// refU and impU run the unprivileged scenarios; built on first use.
	unpriv     sync.Once
	refU, impU Impl
}

// impls returns the two sides to run sc with: as the certifier runs an
// unprivileged case when sc needs a permission bit to bind them, or
// false when that cannot be done here (the scenario is then not run).
func (w *worker) impls(sc *gen.Scenario) (ref, imp Impl, ok bool) {
	if !sc.Unprivileged {
		return w.cfg.Reference, w.cfg.Impl, true
	}
	w.unpriv.Do(func() {
		w.refU, _ = unprivileged(w.cfg.Reference)
		w.impU, _ = unprivileged(w.cfg.Impl)
		// The in-process reference runs as a process of its own here.
		w.refU, w.impU = keeping(w.refU, w.cfg.MaxOutput), keeping(w.impU, w.cfg.MaxOutput)
	})
	return w.refU, w.impU, w.refU != nil && w.impU != nil
}

func (w *worker) Close() error { return os.RemoveAll(w.root) }

// outcome is one scenario run on both sides.
type outcome struct {
	cfg      *Config
	sc       *gen.Scenario
	ref, imp []Step
	diffs    []Difference
}

func (o *outcome) Differences() []Difference { return o.diffs }
func (o *outcome) Scenario() string          { return o.sc.String() }

// Run runs a Spec on the reference and the implementation.
func (w *worker) Run(ctx context.Context, s gen.Spec) (campaign.Outcome, error) {
	cfg := w.cfg
	sc := gen.Build(s)
	refImpl, impImpl, ok := w.impls(sc)
	if !ok {
		return &outcome{cfg: cfg, sc: sc}, nil
	}
	steps := plan(sc, true)
	ref, err := run(ctx, refImpl, w.ref, sc, steps, cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	if !fullProtocol(sc, ref) {
		steps = plan(sc, false)
		ref = slices.DeleteFunc(ref, func(s Step) bool { return find(steps, s.Name) == nil })
	}
	imp, err := run(ctx, impImpl, w.imp, sc, steps, cfg.Timeout)
	if err != nil {
		return nil, fmt.Errorf("implementation: %w", err)
	}
	return &outcome{cfg: cfg, sc: sc, ref: ref, imp: imp, diffs: compare(ref, imp, cfg.Warnings)}, nil
}

// fullProtocol reports whether the reference passes the scenario, so
// that the passing protocol (retry and reverse, or the planned patch)
// applies.
func fullProtocol(sc *gen.Scenario, ref []Step) bool {
	if sc.Protocol == gen.ProtoRequest {
		return find(ref, StepPlan).Exit == 0
	}
	return find(ref, StepCheck).Exit == 0 && find(ref, StepApply).Exit == 0
}

// CaseFile renders the case of a disagreement as name/case.json, with the
// reference's outcomes as its expectations.
func (o *outcome) CaseFile(name string, seed uint64, k int64) (string, []byte, error) {
	d := o.diffs[0]
	desc := fmt.Sprintf("Found by blockpatch-fuzz (seed %d, iteration %d; %s): an implementation differed from the reference at %s: %s. "+
		"The expectations are the reference's outcomes.", seed, k, strings.Join(o.sc.Notes, ", "), d.Key(), d.Detail)
	var meta *caseMeta
	if o.cfg.CasesFormat {
		meta = metaFor(o.sc, o.ref)
	}
	data, err := caseFile(o.sc, o.ref, desc, d.Step, meta)
	if err != nil {
		return "", nil, err
	}
	if err := loadable(name, data, o.cfg.CasesFormat); err != nil {
		return "", nil, fmt.Errorf("%w\n%s", err, data)
	}
	return name + "/case.json", data, nil
}
