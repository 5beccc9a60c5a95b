package pdfuzz

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

// Config is one PatchDIFF campaign: the settings every campaign has
// (fuzz/internal/campaign) and PatchDIFF's own.
type Config struct {
	campaign.Config
	// Impl is the applier under test; Reference the oracle (nil: the
	// reference runtime in process). Both are asked through the adapter
	// protocol (runner/patchdiff's Stream, OneShot or InProcess).
	Impl, Reference pdrunner.Applier
	// Timeout bounds each request; 0 means 10s.
	Timeout time.Duration
	// NoRecommended ignores differences in what the seed leaves open
	// (diagnostic_recommended); by default they are disagreements of
	// their own kinds, "recommended: ...", found only when nothing else
	// differs.
	NoRecommended bool
	// TempDir is where the sessions' folders go; empty means os.TempDir().
	TempDir string
}

// NewConfig returns a configuration with the defaults filled in.
func NewConfig(impl pdrunner.Applier) Config {
	return Config{Config: campaign.Defaults(), Impl: impl, Timeout: 10 * time.Second}
}

// Campaign runs generated calls on the reference and the applier under
// test, each through the adapter protocol, judges the applier's result by
// the case the reference's result makes (pdcases' Compare, so a
// disagreement is exactly what the written case will fail on), and writes
// each disagreement, shrunk, as a case file fuzz/NAME.json. Its error is
// a harness fault (an applier that cannot be started or fails its
// handshake, a reference that gives no result).
func Campaign(ctx context.Context, cfg Config) (*campaign.Report, error) {
	if cfg.Impl == nil {
		return nil, errors.New("no applier to test")
	}
	if cfg.Reference == nil {
		cfg.Reference = embedded.PatchDIFF()
	}
	if cfg.Timeout <= 0 {
		cfg.Timeout = 10 * time.Second
	}
	return campaign.Run(ctx, cfg.Config, campaign.Suite[Spec]{
		Random: func(seed uint64, k int64) Spec { return Random(NewRand(seed, k)) },
		Shrink: Shrink,
		NewTrial: func() (campaign.Trial[Spec], error) {
			root, err := os.MkdirTemp(cfg.TempDir, "patchdiff-fuzz-")
			if err != nil {
				return nil, err
			}
			t := &trial{cfg: &cfg, root: root}
			for _, side := range []string{"ref", "impl"} {
				if err := os.Mkdir(filepath.Join(root, side), 0o755); err != nil {
					os.RemoveAll(root)
					return nil, err
				}
			}
			t.ref = pdrunner.NewClient(cfg.Reference, filepath.Join(root, "ref"), cfg.Timeout)
			t.imp = pdrunner.NewClient(cfg.Impl, filepath.Join(root, "impl"), cfg.Timeout)
			return t, nil
		},
	})
}

// trial is one worker's two clients.
type trial struct {
	cfg      *Config
	root     string
	ref, imp *pdrunner.Client
}

func (t *trial) Close() error {
	t.ref.Close()
	t.imp.Close()
	return os.RemoveAll(t.root)
}

// outcome is one call asked of both appliers.
type outcome struct {
	call  Call
	req   []byte
	ref   map[string]any // the reference's result
	file  []byte         // the case it makes
	diffs []campaign.Difference
}

func (o *outcome) Differences() []campaign.Difference { return o.diffs }
func (o *outcome) Scenario() string                   { return string(o.req) }

// step names the one protocol step of a PatchDIFF call.
const step = "apply"

func (t *trial) Run(ctx context.Context, s Spec) (campaign.Outcome, error) {
	call := Build(s)
	req, _ := call.Request.MarshalJSON()
	want, err := t.ref.Call(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	if want.Verdict != runner.Pass {
		return nil, fmt.Errorf("reference: %s: %s\nrequest: %s", want.Verdict, want.Why, req)
	}
	var ref map[string]any
	if err := json.Unmarshal(want.Result, &ref); err != nil {
		return nil, fmt.Errorf("reference: %w", err)
	}
	o := &outcome{call: call, req: req, ref: ref}
	if o.file, err = caseFile(call, req, ref, "the reference's result"); err != nil {
		return nil, err
	}
	c, err := pdcases.Options{}.Parse("fuzz/candidate", o.file)
	if err != nil {
		return nil, fmt.Errorf("the case made of the reference's result does not load: %w\n%s", err, o.file)
	}
	got, err := t.imp.Call(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("implementation: %w", err)
	}
	if got.Verdict != runner.Pass {
		o.diffs = []campaign.Difference{{Step: step, Kind: string(got.Verdict), Detail: firstLine(got.Why)}}
		return o, nil
	}
	res, err := pdcases.ParseResult(got.Result)
	if err != nil {
		o.diffs = []campaign.Difference{{Step: step, Kind: "not a result", Detail: err.Error()}}
		return o, nil
	}
	o.diffs = differences(c, res, t.cfg.NoRecommended)
	return o, nil
}

// differences turns Compare's differences into campaign differences: one
// "verdict" difference when status or failure_reason differ, else one per
// failing member, else (unless ignored) the recommended ones.
func differences(c *pdcases.Case, got *pdcases.Result, noRecommended bool) []campaign.Difference {
	var failing, recommended []campaign.Difference
	for _, d := range c.Compare(got) {
		label, detail, _ := strings.Cut(d.Text, ":")
		label, _, _ = strings.Cut(label, " (")
		if label == "diagnostic" { // "diagnostic: failure_context.buffer_length: want …"
			if member, _, ok := strings.Cut(strings.TrimSpace(detail), ":"); ok && !strings.ContainsAny(member, " \n") {
				label += "." + member
			}
		}
		diff := campaign.Difference{Step: step, Kind: label, Detail: firstLine(strings.TrimSpace(d.Text))}
		if d.Recommended {
			diff.Kind = "recommended " + label
			recommended = append(recommended, diff)
		} else {
			failing = append(failing, diff)
		}
	}
	if len(failing) > 0 {
		want, have := verdict(c.Expect.Status, c.Expect.FailureReason), verdict(got.Status, deref(got.FailureReason))
		if want != have {
			return []campaign.Difference{{Step: step, Kind: want + " -> " + have, Detail: failing[0].Detail}}
		}
		return failing
	}
	if noRecommended {
		return nil
	}
	return recommended
}

func verdict(status, reason string) string {
	if reason != "" {
		return status + " " + reason
	}
	return status
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

func firstLine(s string) string {
	line, _, _ := strings.Cut(s, "\n")
	return line
}

// CaseFile writes the case below the output folder as fuzz/NAME.json.
func (o *outcome) CaseFile(name string, seed uint64, k int64) (string, []byte, error) {
	d := o.diffs[0]
	why := fmt.Sprintf("found by patchdiff-fuzz (seed %d, iteration %d): an applier differed from the reference at %s: %s; the expectation is the reference's result, to be checked against the seed before the case joins the corpus",
		seed, k, d.Key(), d.Detail)
	data, err := caseFile(o.call, o.req, o.ref, why)
	if err != nil {
		return "", nil, err
	}
	if _, err := (pdcases.Options{}).Parse("fuzz/"+name, data); err != nil {
		return "", nil, fmt.Errorf("the written case does not load: %w\n%s", err, data)
	}
	return "fuzz/" + name + ".json", data, nil
}
