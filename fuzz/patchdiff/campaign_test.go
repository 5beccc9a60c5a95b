package pdfuzz

import (
	"bytes"
	"context"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign/campaigntest"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

func testConfig(impl pdrunner.Applier, iterations int64) Config {
	cfg := NewConfig(impl)
	cfg.Seed, cfg.Iterations = 20251204, iterations
	cfg.Workers = runtime.GOMAXPROCS(0)
	cfg.ShrinkBudget, cfg.MaxCasesPerKind = 150, 1
	return cfg
}

// broken is the reference runtime with one planted mistake: every
// disambiguation_invalid is reported as match_ambiguous, as an applier
// that does not tell advisory and failed selectors from none would.
func broken() pdrunner.Applier {
	hello := embedded.PatchDIFFHello()
	return pdrunner.InProcess{Name: "broken", Serve: func(line []byte) []byte {
		return pdrunner.Respond(line, hello, func(req []byte) ([]byte, error) {
			res, err := embedded.ApplyPatchDIFF(req)
			return bytes.ReplaceAll(res, []byte(`"disambiguation_invalid"`), []byte(`"match_ambiguous"`)), err
		})
	}}
}

// TestCampaignReferenceAgainstItself: the reference asked in process and
// as a separate stream adapter (the built cmd/patchdiff) never disagree.
func TestCampaignReferenceAgainstItself(t *testing.T) {
	t.Parallel()
	bin := filepath.Join(t.TempDir(), "patchdiff")
	if out, err := exec.Command("go", "build", "-o", bin, "github.com/blockpatch-conformance/blockpatch-conformance/cmd/patchdiff").CombinedOutput(); err != nil {
		t.Fatalf("building cmd/patchdiff: %v\n%s", err, out)
	}
	cmd, err := runner.NewCommand([]string{bin})
	if err != nil {
		t.Fatal(err)
	}
	n := int64(400)
	if testing.Short() {
		n = 150
	}
	r, err := Campaign(context.Background(), testConfig(pdrunner.Stream{Cmd: cmd}, n))
	campaigntest.Agrees(t, n, r, err)
}

// TestCampaignFindsPlantedBug: against an applier with a planted mistake
// the campaign finds the disagreement, shrinks it, and writes a case that
// loads, passes the reference and fails the broken applier under the
// runner.
func TestCampaignFindsPlantedBug(t *testing.T) {
	t.Parallel()
	cfg := testConfig(broken(), 300)
	cfg.Out = t.TempDir()
	r, err := Campaign(context.Background(), cfg)
	campaigntest.Run(t, r, err)
	want := "apply: rejected disambiguation_invalid -> rejected match_ambiguous"
	i := slices.IndexFunc(r.Kinds, func(k *campaign.Kind) bool { return k.Key == want })
	if i < 0 {
		t.Fatalf("no disagreement of kind %q", want)
	}
	k := r.Kinds[i]
	if len(k.Cases) != 1 || k.Cases[0].Case == "" || k.Cases[0].Tried == 0 {
		t.Fatalf("the disagreement was not shrunk and written: %+v", k.Cases)
	}
	if n := len(k.Cases[0].Scenario); n > 400 {
		t.Errorf("the shrunk request is %d bytes, want a small one:\n%s", n, k.Cases[0].Scenario)
	}
	loaded, err := pdcases.LoadDir(cfg.Out)
	if err != nil {
		t.Fatalf("the written cases do not load: %v", err)
	}
	if len(loaded) != len(r.Kinds) {
		t.Errorf("%d cases written for %d kinds", len(loaded), len(r.Kinds))
	}
	certify(t, cfg.Out, embedded.PatchDIFF(), true)
	certify(t, cfg.Out, broken(), false)
}

// certify runs the cases under dir on a with the runner and checks that
// every case passes (pass) or fails (!pass).
func certify(t *testing.T, dir string, a pdrunner.Applier, pass bool) {
	t.Helper()
	r := pdrunner.New(a)
	r.Sources = []pdrunner.Source{pdrunner.Dir(dir)}
	r.Parallel = 2
	rep, err := r.Run(context.Background())
	campaigntest.Certified(t, a.Describe().Name, rep, err, pass)
}

// TestShrinkGetsSmaller: every candidate is smaller, Build never panics on
// one, and shrinking everything away ends.
func TestShrinkGetsSmaller(t *testing.T) {
	t.Parallel()
	for k := range int64(40) {
		s := Random(NewRand(5, k))
		for _, c := range Shrink(s) {
			if size(c) >= size(s) {
				t.Fatalf("candidate not smaller: %d >= %d", size(c), size(s))
			}
			Build(c)
		}
		small, _ := campaign.Minimize(s, Shrink, 100000, time.Time{}, func(Spec) bool { return true })
		if small.Mutation != 0 || len(small.Ops) != 1 || len(small.Target) != 0 {
			t.Fatalf("shrinking everything away left %+v", small)
		}
	}
}

// TestShardsMergeToOneFolder: three shards of one campaign against the
// broken applier, each writing its own folder as on its own machine,
// merge into one folder of cases that load and fail the broken applier,
// each case once; the shards' cases that shrank to the same call are
// written once.
func TestShardsMergeToOneFolder(t *testing.T) {
	t.Parallel()
	const shards = 3
	var outs []string
	written := 0
	for i := range shards {
		cfg := testConfig(broken(), 300)
		cfg.Shard, cfg.Shards, cfg.Workers, cfg.MaxCasesPerKind = i, shards, 1, 3
		cfg.Out = t.TempDir()
		r, err := Campaign(context.Background(), cfg)
		campaigntest.Run(t, r, err)
		for _, k := range r.Kinds {
			written += len(k.Cases)
		}
		outs = append(outs, cfg.Out)
	}
	merged := filepath.Join(t.TempDir(), "merged")
	var stdout, stderr bytes.Buffer
	if code := Main(context.Background(), "patchdiff-fuzz", append([]string{"merge", "--out", merged}, outs...), &stdout, &stderr); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr.String())
	}
	t.Log(stdout.String())
	loaded, err := pdcases.LoadDir(merged)
	if err != nil {
		t.Fatalf("the merged cases do not load: %v", err)
	}
	// 7 written and 5 merged when this was written: with one worker a
	// shard is deterministic, and shrinking led two cases of shard 0 to
	// the calls of shards 1 and 2.
	if len(loaded) == 0 || len(loaded) > written {
		t.Errorf("%d cases merged from %d written", len(loaded), written)
	}
	t.Logf("%d cases written by %d shards, %d merged", written, shards, len(loaded))
	certify(t, merged, broken(), false)
}
