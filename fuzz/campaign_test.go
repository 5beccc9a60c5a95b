package fuzz

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign/campaigntest"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// mutant builds the hand-written mutant name (internal/mutants) as an
// implementation: a realistic broken reference, run as a separate process
// like any external one.
func mutant(t *testing.T, name string) *runner.Command {
	t.Helper()
	ms, err := mutants.Hand()
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(ms, func(m mutants.Mutant) bool { return m.Name == name })
	if i < 0 {
		t.Fatalf("no hand-written mutant %s", name)
	}
	root, err := mutants.ModuleRoot()
	if err != nil {
		t.Fatal(err)
	}
	b := &mutants.Builder{Module: root, Dir: t.TempDir()}
	bin, err := b.Build(context.Background(), ms[i])
	if err != nil {
		t.Fatal(err)
	}
	c, err := runner.NewCommand([]string{bin})
	if err != nil {
		t.Fatal(err)
	}
	return c
}

var (
	buildOnce sync.Once
	built     string
	buildErr  error
)

// referenceBinary builds cmd/blockpatch once per test run.
func referenceBinary(t *testing.T) string {
	t.Helper()
	buildOnce.Do(func() {
		dir, err := os.MkdirTemp("", "blockpatch-fuzz-test-bin-")
		if err != nil {
			buildErr = err
			return
		}
		built = filepath.Join(dir, "blockpatch")
		out, err := exec.Command("go", "build", "-o", built, "github.com/blockpatch-conformance/blockpatch-conformance/cmd/blockpatch").CombinedOutput()
		if err != nil {
			buildErr = err
			t.Logf("%s", out)
		}
	})
	if buildErr != nil {
		t.Fatalf("building the reference CLI: %v", buildErr)
	}
	return built
}

func testConfig(impl Impl, iterations int64) Config {
	cfg := NewConfig(impl)
	cfg.Seed, cfg.Iterations = 20251202, iterations
	cfg.Workers = runtime.GOMAXPROCS(0)
	cfg.ShrinkBudget, cfg.MaxCasesPerKind = 120, 1
	return cfg
}

// TestCampaignReferenceAgainstItself: the built reference CLI, run as an
// external command, never disagrees with the reference run in process.
func TestCampaignReferenceAgainstItself(t *testing.T) {
	t.Parallel()
	impl, err := runner.NewCommand([]string{referenceBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	n := int64(150)
	if testing.Short() {
		n = 50
	}
	cfg := testConfig(FromRunner(impl), n)
	cfg.Out = t.TempDir()
	r, err := Campaign(context.Background(), cfg)
	campaigntest.Agrees(t, n, r, err)
}

// TestCampaignFindsPlantedBugs: against broken implementations (mutants
// of the reference, and a wrapper script that rewrites one error code) a
// short campaign finds the planted bug and writes case files that load,
// pass the reference and fail the broken implementation under the runner.
func TestCampaignFindsPlantedBugs(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "broken.sh")
	wrapper := "#!/bin/sh\n# The reference, reporting target_ambiguous as target_not_found.\n" +
		"err=$(mktemp)\n'" + referenceBinary(t) + "' \"$@\" 2>\"$err\"; rc=$?\n" +
		"sed 's/\"target_ambiguous\"/\"target_not_found\"/' \"$err\" >&2; rm -f \"$err\"; exit $rc\n"
	if err := os.WriteFile(script, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	wrapped, err := runner.NewCommand([]string{script})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		impl *runner.Command
		// want is a part of the expected difference kind.
		want string
	}{
		{"wrapper rewriting target_ambiguous", wrapped, "code target_ambiguous -> target_not_found"},
		{"mutant first-match", mutant(t, "first-match"), ""},
		{"mutant applied-not-already-applied", mutant(t, "applied-not-already-applied"), "retry: result.status"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			cfg := testConfig(FromRunner(tc.impl), 100)
			cfg.ShrinkBudget = 30
			cfg.Out = t.TempDir()
			r, err := Campaign(context.Background(), cfg)
			campaigntest.Run(t, r, err)
			if r.Disagreements == 0 {
				t.Fatal("the campaign found no disagreement")
			}
			if tc.want != "" && !slices.ContainsFunc(r.Kinds, func(k *Kind) bool { return strings.Contains(k.Key, tc.want) }) {
				t.Errorf("no disagreement of kind %q", tc.want)
			}
			loaded, err := cases.LoadDir(cfg.Out)
			if err != nil {
				t.Fatalf("the written cases do not load: %v", err)
			}
			if len(loaded) != len(r.Kinds) {
				t.Errorf("%d cases written for %d kinds", len(loaded), len(r.Kinds))
			}
			certify(t, cfg.Out, embedded.Reference(), true)
			certify(t, cfg.Out, tc.impl, false)
		})
	}
}

// certify runs the cases under dir on impl with the runner and checks
// that every case passes (pass) or fails (!pass).
func certify(t *testing.T, dir string, impl runner.Implementation, pass bool) {
	t.Helper()
	r := blockpatch.New(impl)
	r.Sources = []blockpatch.Source{blockpatch.Dir(dir)}
	r.Parallel = 2
	rep, err := r.Run(context.Background())
	campaigntest.Certified(t, impl.Describe().Name, rep, err, pass)
}

// TestShardsPartitionTheIterations: the shards of a campaign run disjoint
// sets of iterations that together cover the whole space, and a replay
// runs exactly the iterations asked for.
func TestShardsPartitionTheIterations(t *testing.T) {
	t.Parallel()
	const n, shards = 40, 3
	seen := map[int64]int{}
	for i := range shards {
		cfg := testConfig(Reference(), n)
		cfg.Shard, cfg.Shards = i, shards
		r, err := Campaign(context.Background(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		if r.Disagreements != 0 {
			t.Errorf("shard %d: the reference disagrees with itself", i)
		}
		for _, k := range r.Ran {
			if k%shards != int64(i) {
				t.Errorf("shard %d ran iteration %d", i, k)
			}
			seen[k]++
		}
	}
	for k := range int64(n) {
		if seen[k] != 1 {
			t.Errorf("iteration %d ran %d times across the shards, want once", k, seen[k])
		}
	}
	if len(seen) != n {
		t.Errorf("the shards ran %d distinct iterations, want %d", len(seen), n)
	}
	cfg := testConfig(Reference(), 0)
	cfg.Replay = []int64{7, 3}
	r, err := Campaign(context.Background(), cfg)
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(r.Ran, []int64{3, 7}) {
		t.Errorf("replay ran %v, want [3 7]", r.Ran)
	}
}

// ambiguousAsNotFound is the reference in process, reporting
// target_ambiguous as target_not_found: a broken implementation with no
// process to start.
var ambiguousAsNotFound = runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
	o := embedded.Reference().Exec(ctx, inv)
	o.Stdout = bytes.ReplaceAll(o.Stdout, []byte(`"target_ambiguous"`), []byte(`"target_not_found"`))
	o.Stderr = bytes.ReplaceAll(o.Stderr, []byte(`"target_ambiguous"`), []byte(`"target_not_found"`))
	return o
})

// TestShardsMergeToOneFolder: three shards of one campaign against a
// broken implementation, each writing its own folder as on its own
// machine, merge into one folder of NAME/case.json cases that load, pass
// the reference and fail the broken implementation, each case once.
func TestShardsMergeToOneFolder(t *testing.T) {
	t.Parallel()
	const shards = 3
	var outs []string
	written := 0
	for i := range shards {
		cfg := testConfig(FromRunner(ambiguousAsNotFound), 60)
		cfg.Shard, cfg.Shards, cfg.Workers, cfg.MaxCasesPerKind, cfg.ShrinkBudget = i, shards, 1, 2, 30
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
	if code := Main(context.Background(), "blockpatch-fuzz", append([]string{"merge", "--out", merged}, outs...), &stdout, &stderr); code != 0 {
		t.Fatalf("merge: exit %d\n%s", code, stderr.String())
	}
	t.Log(stdout.String())
	loaded, err := cases.LoadDir(merged)
	if err != nil {
		t.Fatalf("the merged cases do not load: %v", err)
	}
	if len(loaded) == 0 || len(loaded) > written {
		t.Errorf("%d cases merged from %d written", len(loaded), written)
	}
	t.Logf("%d cases written by %d shards, %d merged", written, shards, len(loaded))
	certify(t, merged, embedded.Reference(), true)
	certify(t, merged, ambiguousAsNotFound, false)
}

// TestCampaignCoreOnly: an implementation of check and apply alone (plan
// and move answer unknown_command) is probed as the certifier probes it,
// the reference plans for it, and the campaign reports no disagreement.
func TestCampaignCoreOnly(t *testing.T) {
	t.Parallel()
	script := filepath.Join(t.TempDir(), "core-only.sh")
	wrapper := "#!/bin/sh\n# The reference without a planner (and no version, so the probes decide).\ncase \"$1\" in plan|move|version)\n" +
		"  echo '{\"ok\":false,\"error\":{\"code\":\"unknown_command\",\"message\":\"no planner\"}}' >&2; exit 1;;\nesac\n" +
		"exec '" + referenceBinary(t) + "' \"$@\"\n"
	if err := os.WriteFile(script, []byte(wrapper), 0o755); err != nil {
		t.Fatal(err)
	}
	impl, err := runner.NewCommand([]string{script})
	if err != nil {
		t.Fatal(err)
	}
	n := int64(80)
	cfg := testConfig(FromRunner(impl), n)
	cfg.Out = t.TempDir()
	r, err := Campaign(context.Background(), cfg)
	campaigntest.Agrees(t, n, r, err)
}

// TestCampaignKeepsLargeOutput: a --large scenario whose plan prints more
// than the runner keeps by default, run unprivileged (the in-process
// reference then runs as a process of its own), agrees once the campaign
// keeps MaxOutput bytes, and did not while only the implementation did.
func TestCampaignKeepsLargeOutput(t *testing.T) {
	t.Parallel()
	const seed, k = 5203, 102
	o := NewConfig(nil).Options
	o.Large = true
	sc := gen.Build(gen.Random(gen.NewRand(seed, k), o))
	req, err := reference.DecodeRequest(sc.Request)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := reference.PlanRequest(req, sc.Files)
	if err != nil || !sc.Unprivileged || len(*plan.Result.Patch) <= runner.DefaultMaxOutput {
		t.Fatalf("iteration %d of seed %d is no longer an unprivileged plan of a patch over %d bytes (%v): pick another", k, seed, runner.DefaultMaxOutput, err)
	}
	impl, err := runner.NewCommand([]string{referenceBinary(t)})
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(FromRunner(impl), 1)
	cfg.Seed, cfg.Replay, cfg.Options.Large, cfg.MaxOutput = seed, []int64{k}, true, largeOutput
	cfg.Out = t.TempDir()
	r, err := Campaign(context.Background(), cfg)
	campaigntest.Agrees(t, 1, r, err)
}
