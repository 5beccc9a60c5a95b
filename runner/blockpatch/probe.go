package blockpatch

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Features is what an implementation says about itself.
type Features struct {
	// Claimed lists the levels the implementation claims, smallest first.
	// Core is always claimed: it is what blockpatch is.
	Claimed []cases.Level `json:"claimed"`
	// How says, per level, how the claim was decided.
	How map[cases.Level]string `json:"how"`
	// Version is the output of `version`, bounded; empty when the command
	// is missing.
	Version string `json:"version,omitempty"`
	// VersionJSON is the object printed by `version --json-output`, when
	// there is one.
	VersionJSON map[string]any `json:"version_json,omitempty"`
	// Warnings says whether plan printed the adjacent_bytes warning of
	// OUT-024 (profile 1.1.1) for an insertion that joins its bytes; a
	// 1.1.0 release prints no warnings at all.
	Warnings bool `json:"warnings,omitempty"`
	// outside maps each probe whose command wrote outside its folder to
	// what it wrote (Outcome.Outside); the run reports them as problems.
	outside map[string][]string
}

// Has reports whether the implementation lists feature in the "features"
// of its `version --json-output`, such as cases.HoldFeature.
func (f Features) Has(feature string) bool {
	list, _ := f.VersionJSON["features"].([]any)
	return slices.Contains(list, any(feature))
}

// Claims reports whether the implementation claims level l.
func (f Features) Claims(l cases.Level) bool { return slices.Contains(f.Claimed, l) }

// missing returns the levels of needs that the implementation does not
// claim and require does not name: a case runs when there are none. The
// levels are independent, so a case about check on stdin (core and cli)
// runs for an implementation without a planner.
func (f Features) missing(needs, require []cases.Level) []cases.Level {
	var out []cases.Level
	for _, l := range needs {
		if !f.Claims(l) && !slices.Contains(require, l) {
			out = append(out, l)
		}
	}
	return out
}

// probeRequest is a move request for a file that does not exist: any
// implementation of plan and move answers it with an error (file_not_found)
// and writes nothing.
const probeRequest = `{"src":"absent.txt","src_start":"a","src_end":"b","target_before":"c"}`

// warningsRequest inserts "P" right after "key=" in warningsFile, which
// holds "key=\n": the bytes meet with no newline between them, so a plan
// of profile 1.1.1 warns (OUT-024).
const (
	warningsRequest = `{"src":"/dev/null","dst":"probe.txt","payload":"P","target_before":"key="}`
	warningsFile    = "probe.txt"
)

// Probe asks impl which levels it implements, each on its own. When
// `version --json-output` prints an object with a "features" list, the list
// decides. Otherwise core is assumed, and a level counts as claimed unless
// the implementation cleanly rejects it: planner when `plan` or `move`
// answers unknown_command, cli when `check -d DIR -i PATCH` answers
// unknown_option or unknown_command. A missing or failing version command is tolerated.
// Whether plan prints warnings (Features.Warnings) is probed beside them.
// The probes run in parallel inside dir, which must exist and be empty.
func Probe(ctx context.Context, impl runner.Implementation, dir string, timeout time.Duration) (Features, error) {
	return probe(ctx, impl, dir, timeout, nil)
}

// probe is Probe with the run's isolation.
func probe(ctx context.Context, impl runner.Implementation, dir string, timeout time.Duration, iso *runner.Isolation) (Features, error) {
	patch := filepath.Join(dir, "probe.blockpatch")
	work := filepath.Join(dir, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return Features{}, err
	}
	if err := os.WriteFile(patch, []byte("not a patch\n"), 0o644); err != nil {
		return Features{}, err
	}
	if err := os.WriteFile(filepath.Join(work, warningsFile), []byte("key=\n"), 0o644); err != nil {
		return Features{}, err
	}
	probes := map[string]runner.Invocation{
		"version json": {Args: []string{"version", "--json-output"}},
		"version":      {Args: []string{"version"}},
		"plan":         {Args: []string{"plan", "--json", "-", "--cwd", work}, Stdin: []byte(probeRequest)},
		"move":         {Args: []string{"move", "--json", "-", "--cwd", work, "--json-output"}, Stdin: []byte(probeRequest)},
		"cli":          {Args: []string{"check", "-d", work, "--json-output", "-i", patch}},
		"warnings":     {Args: []string{"plan", "--json", "-", "--cwd", work}, Stdin: []byte(warningsRequest)},
	}
	out := map[string]runner.Outcome{}
	var mu sync.Mutex
	var wg sync.WaitGroup
	for name, inv := range probes {
		inv.Dir, inv.Isolation, inv.Writable = dir, iso, []string{dir}
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, timeout)
			defer cancel()
			o := impl.Exec(ctx, inv)
			mu.Lock()
			out[name] = o
			mu.Unlock()
		})
	}
	wg.Wait()
	for _, o := range out {
		if o.Err != nil {
			return Features{}, fmt.Errorf("running the implementation: %w", o.Err)
		}
	}
	if err := ctx.Err(); err != nil {
		return Features{}, err
	}

	f := Features{How: map[cases.Level]string{}}
	for name, o := range out {
		if len(o.Outside) > 0 {
			if f.outside == nil {
				f.outside = map[string][]string{}
			}
			f.outside[strings.Join(probes[name].Args, " ")] = o.Outside
		}
	}
	f.Warnings = warns(out["warnings"])
	if o := out["version"]; o.Exit == 0 {
		f.Version = strings.TrimSpace(string(firstLines(o.Stdout, 3, 300)))
	}
	if o := out["version json"]; o.Exit == 0 {
		if doc, _, err := oneObject(o.Stdout); err == nil {
			f.VersionJSON = doc
			if f.Version == "" {
				if v, ok := doc["version"].(string); ok {
					f.Version = v
				}
			}
			if list, ok := doc["features"].([]any); ok {
				for _, l := range cases.Levels {
					if slices.Contains(list, any(string(l))) || l == cases.Core {
						f.Claimed = append(f.Claimed, l)
						f.How[l] = "listed by version --json-output"
					} else {
						f.How[l] = "not listed by version --json-output"
					}
				}
				f.How[cases.Core] = "always claimed"
				return f, nil
			}
		}
	}
	f.Claimed = []cases.Level{cases.Core}
	f.How[cases.Core] = "always claimed"
	switch {
	case rejects(out["plan"], "unknown_command"):
		f.How[cases.Planner] = "not claimed: plan answered unknown_command"
	case rejects(out["move"], "unknown_command"):
		f.How[cases.Planner] = "not claimed: move answered unknown_command"
	default:
		f.Claimed = append(f.Claimed, cases.Planner)
		f.How[cases.Planner] = "claimed: plan and move are not unknown commands"
	}
	if code, ok := rejectsAny(out["cli"], "unknown_option", "unknown_command"); ok {
		f.How[cases.CLI] = "not claimed: check -d DIR -i PATCH answered " + code
	} else {
		f.Claimed = append(f.Claimed, cases.CLI)
		f.How[cases.CLI] = "claimed: check -d DIR -i PATCH is understood"
	}
	return f, nil
}

// warns reports whether o is a success whose warnings hold one.
func warns(o runner.Outcome) bool {
	if o.Exit != 0 {
		return false
	}
	doc, _, err := oneObject(o.Stdout)
	if err != nil {
		return false
	}
	list, _ := doc["warnings"].([]any)
	return len(list) > 0
}

// rejects reports whether o is a clean error with the given code.
func rejects(o runner.Outcome, code string) bool {
	_, ok := rejectsAny(o, code)
	return ok
}

func rejectsAny(o runner.Outcome, codes ...string) (string, bool) {
	if o.Exit != 1 {
		return "", false
	}
	for _, stream := range [][]byte{o.Stderr, o.Stdout} {
		doc, _, err := oneObject(stream)
		if err != nil {
			continue
		}
		if e, ok := doc["error"].(map[string]any); ok {
			if c, ok := e["code"].(string); ok && slices.Contains(codes, c) {
				return c, true
			}
		}
	}
	return "", false
}

// firstLines returns at most n lines and max bytes of b.
func firstLines(b []byte, n, max int) []byte {
	if len(b) > max {
		b = b[:max]
	}
	lines := strings.SplitAfterN(string(b), "\n", n+1)
	if len(lines) > n {
		lines = lines[:n]
	}
	return []byte(strings.Join(lines, ""))
}

// oneObject decodes b when it holds exactly one JSON object, surrounded by
// nothing but white space. It also returns the trimmed JSON text.
func oneObject(b []byte) (map[string]any, []byte, error) {
	t := []byte(strings.TrimSpace(string(b)))
	if len(t) == 0 {
		return nil, nil, fmt.Errorf("no output")
	}
	if t[0] != '{' || !json.Valid(t) {
		return nil, nil, fmt.Errorf("not one JSON object")
	}
	var m map[string]any
	if err := json.Unmarshal(t, &m); err != nil {
		return nil, nil, err
	}
	return m, t, nil
}
