package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// OptionCasesDir is where the option matrix's cases live in the corpus.
const OptionCasesDir = "cli/options"

// OptionCases turns the option matrix into step cases, one per command and
// option (the spellings no release knows share one case per command), and
// fills in each step's expectation from what impl, the canonical release,
// does when the steps run in order on one tree. It returns the case files
// by name under OptionCasesDir. Only the release's outcomes go into the
// files, never the reference's.
func OptionCases(ctx context.Context, impl runner.Implementation, dir string) (map[string][]byte, error) {
	type group struct {
		name   string
		probes []Probe
	}
	var groups []*group
	byName := map[string]*group{}
	for _, p := range Matrix() {
		name := OptionCasesDir + "/" + caseKey(p)
		g := byName[name]
		if g == nil {
			g = &group{name: name}
			byName[name] = g
			groups = append(groups, g)
		}
		g.probes = append(g.probes, p)
	}
	out := map[string][]byte{}
	for i, g := range groups {
		data, err := optionCase(ctx, impl, filepath.Join(dir, fmt.Sprint(i)), g.probes)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", g.name, err)
		}
		out[g.name] = data
	}
	return out, nil
}

// caseKey is a probe's case below OptionCasesDir: "check/strip",
// "none/json-output", "move/others".
func caseKey(p Probe) string {
	cmd := p.Command
	if cmd == "" {
		cmd = "none"
	}
	o, ok := spec.LookupOption(p.Option)
	if !ok {
		return cmd + "/others"
	}
	return cmd + "/" + strings.TrimPrefix(o.Long, "--")
}

var (
	caseOrder = cases.FieldNames(cases.CaseFields)
	stepOrder = cases.FieldNames(cases.StepFields)
)

// optionCase runs probes in order on one tree and writes them as a case.
func optionCase(ctx context.Context, impl runner.Implementation, dir string, probes []Probe) ([]byte, error) {
	work, inputs := filepath.Join(dir, "work"), filepath.Join(dir, "inputs")
	file := filepath.Join(work, "file.txt")
	patch := filepath.Join(inputs, "patch.blockpatch")
	for _, d := range []string{work, inputs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return nil, err
		}
	}
	for name, content := range map[string]string{file: MatrixFixture.File, patch: MatrixFixture.Patch} {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			return nil, err
		}
	}
	expand := strings.NewReplacer("{patch}", patch, "{inputs}", inputs, "{work}", work)
	var (
		steps            []any
		reqs             []string
		usesPatch, wrote bool
	)
	for _, p := range probes {
		args := make([]string, len(p.Args))
		real := make([]string, len(p.Args))
		for i, a := range p.Args {
			args[i] = strings.ReplaceAll(a, "{request}", "{inputs}/request.json")
			real[i] = expand.Replace(args[i])
			usesPatch = usesPatch || strings.Contains(a, "{patch}")
		}
		step := map[string]any{"description": p.Form + ": " + strings.Join(p.Args[len(baseArgs(p.Command)):], " "), "args": args}
		if !wrote && slices.ContainsFunc(args, func(a string) bool { return strings.Contains(a, "{inputs}") }) {
			step["inputs"] = cases.Object{{Key: "request.json", Value: MatrixFixture.Request}}
			if err := os.WriteFile(filepath.Join(inputs, "request.json"), []byte(MatrixFixture.Request), 0o644); err != nil {
				return nil, err
			}
			wrote = true
		}
		before, _ := os.ReadFile(file)
		got := impl.Exec(ctx, runner.Invocation{Args: real, Dir: work})
		if got.Err != nil || got.TimedOut || got.Signal != "" {
			return nil, fmt.Errorf("%s: could not run: %v %s", p.Name, got.Err, got.Signal)
		}
		step["exit"] = got.Exit
		doc := stream(got.Stdout)
		if got.Exit != 0 {
			doc = stream(got.Stderr)
		}
		switch {
		case strings.HasPrefix(doc, "json error "):
			step["json"] = cases.Object{{Key: "ok", Value: false}, {Key: "error", Value: cases.Object{{Key: "code", Value: strings.TrimPrefix(doc, "json error ")}}}}
		case strings.HasPrefix(doc, "json ok"):
			j := cases.Object{{Key: "ok", Value: true}}
			if st := strings.TrimSpace(strings.TrimPrefix(doc, "json ok")); st != "" {
				j = append(j, cases.Member{Key: "status", Value: st})
			}
			step["json"] = j
		}
		after, err := os.ReadFile(file)
		switch {
		case err == nil && string(after) == string(before):
			step["unchanged"] = true
		case err == nil:
			step["files"] = cases.Object{{Key: "file.txt", Value: string(after)}}
		default:
			step["files"] = cases.Object{}
		}
		steps = append(steps, cases.Order(step, stepOrder...))
		for _, id := range p.Requirements {
			if !slices.Contains(reqs, id) {
				reqs = append(reqs, id)
			}
		}
	}
	p := probes[0]
	c := map[string]any{
		"description":  describe(p),
		"requirements": reqs,
		"since":        latestSince(reqs),
		"files":        cases.Object{{Key: "file.txt", Value: MatrixFixture.File}},
		"steps":        steps,
	}
	if usesPatch {
		c["patch"] = cases.ContentValue([]byte(MatrixFixture.Patch), true)
	}
	return cases.Encode(cases.Order(c, caseOrder...))
}

// baseArgs is the command line a probe of command extends.
func baseArgs(command string) []string {
	for _, b := range matrixBases {
		if b.command == command {
			return b.args
		}
	}
	return nil
}

// describe is the description of the case holding p.
func describe(p Probe) string {
	where := "on " + p.Command
	if p.Command == "" {
		where = "before any command"
	}
	o, ok := spec.LookupOption(p.Option)
	what := strings.Join(o.Spellings(), " and ") + " in every form they can be written"
	if !ok {
		what = "spellings no release knows as options (" + strings.Join(strangers, " ") + ")"
	}
	observed := "1.0.0, 1.1.0 and 1.1.1"
	if !spec.Includes("1.0", latestSince(p.Requirements)) {
		observed = "1.1.0 and 1.1.1; 1.0.0 ignores them"
	}
	return fmt.Sprintf("Generated from the option matrix (internal/calibrate, spec's options table): %s %s, each step on the tree the one before left; "+
		"the expectations are what the releases do (observed %s).", what, where, observed)
}
