package props

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

// This file holds the properties that need the command line on a real
// folder: what is (not) written, and the verdicts of the three ways to ask.

// sandbox is a scenario laid out on disk: work is the --cwd, the patch and
// request live beside it.
type sandbox struct {
	dir, work string
	sc        *gen.Scenario
}

func newSandbox(t *testing.T, sc *gen.Scenario) (*sandbox, error) {
	dir, err := os.MkdirTemp(t.TempDir(), "case")
	if err != nil {
		return nil, err
	}
	sb := &sandbox{dir: dir, work: filepath.Join(dir, "work"), sc: sc}
	if err := os.Mkdir(sb.work, 0o755); err != nil {
		return nil, err
	}
	if err := fstree.Write(sb.work, sc.Files); err != nil {
		return nil, err
	}
	return sb, os.WriteFile(filepath.Join(dir, "patch.blockpatch"), sc.Patch, 0o644)
}

// outcome is one command's exit status and parsed JSON document.
type outcome struct {
	exit int
	doc  map[string]any
	raw  string
}

// run runs the reference CLI in process on the sandbox: check or apply of
// the patch, or plan or move of the request, with extra flags.
func (sb *sandbox) run(command string, extra ...string) outcome {
	var args []string
	var stdin []byte
	switch command {
	case "check", "apply":
		args = append([]string{command, filepath.Join(sb.dir, "patch.blockpatch")}, sb.sc.Args...)
		if sb.sc.StripFlag {
			args = append(args, "-p"+strconv.Itoa(sb.sc.Strip))
		}
	default:
		args, stdin = []string{command, "--json", "-"}, sb.sc.Request
	}
	args = append(append(args, extra...), "--cwd", sb.work, "--json-output")
	var stdout, stderr bytes.Buffer
	exit := cli.Run(args, cli.Env{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Dir: sb.dir})
	o := outcome{exit: exit, raw: stdout.String() + stderr.String()}
	out := stdout.Bytes()
	if exit != 0 {
		out = stderr.Bytes()
	}
	_ = json.Unmarshal(out, &o.doc)
	return o
}

func (sb *sandbox) tree() fstree.Tree {
	t, err := fstree.Read(sb.work)
	if err != nil {
		return fstree.Tree{Other: map[string]string{"(read error)": err.Error()}}
	}
	return t
}

// verdict is what check, --dry-run and apply must agree on: the exit
// status and the document without the members that differ by design.
// errorCode is the code of o's error, or "" when it has none.
func errorCode(o outcome) string {
	e, _ := o.doc["error"].(map[string]any)
	c, _ := e["code"].(string)
	return c
}

func verdict(o outcome) map[string]any {
	v := map[string]any{"exit": o.exit}
	for k, val := range o.doc {
		switch k {
		case "written", "patch":
		case "error":
			e, _ := val.(map[string]any)
			delete(e, "message")
			v[k] = e
		default:
			v[k] = val
		}
	}
	return v
}

// TestFailureLeavesTreeUntouched: whenever apply or move fails, every
// file keeps its bytes and mode and no file appears or disappears; check,
// plan and dry runs never change the tree at all.
func TestFailureLeavesTreeUntouched(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 250, 100, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		sb, err := newSandbox(t, sc)
		if err != nil {
			return "sandbox: " + err.Error()
		}
		before := sb.tree()
		commands := [][]string{{"check"}, {"apply", "--dry-run"}, {"apply"}}
		if sc.Protocol == gen.ProtoRequest {
			commands = [][]string{{"plan"}, {"move", "--dry-run"}, {"move"}}
		}
		for _, c := range commands {
			o := sb.run(c[0], c[1:]...)
			writes := len(c) == 1 && (c[0] == "apply" || c[0] == "move")
			if writes && o.exit == 0 {
				st.Add("succeeded")
				continue
			}
			if d := fstree.Diff(before, sb.tree()); d != "" {
				return failure(sc, "%v exited %d and changed the tree: %s\n%s", c, o.exit, d, o.raw)
			}
			if writes {
				st.Add("decided")
			}
		}
		return ""
	}, scenarios(gen.Options{MutationRate: 0.5}))
}

// TestCheckAndDryRunAgreeWithApply: check and apply --dry-run give the
// verdict apply gives (exit status, error code and details, status,
// changed, affected, moves), with written false; plan and move --dry-run
// agree with move the same way.
func TestCheckAndDryRunAgreeWithApply(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 250, 100, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		sb, err := newSandbox(t, sc)
		if err != nil {
			return "sandbox: " + err.Error()
		}
		asks := [][]string{{"check"}, {"apply", "--dry-run"}}
		final := "apply"
		if sc.Protocol == gen.ProtoRequest {
			asks, final = [][]string{{"plan"}, {"move", "--dry-run"}}, "move"
		}
		type answer struct {
			ask []string
			o   outcome
		}
		var got []answer
		for _, c := range asks {
			o := sb.run(c[0], c[1:]...)
			if w, _ := o.doc["written"].(bool); w {
				return failure(sc, "%v reported written: true", c)
			}
			if c[0] == "plan" && errorCode(o) == "invalid_utf8" {
				// plan always renders its patch, which move does only
				// with --diff: there it agrees with move --dry-run --diff.
				diff := sb.run("move", "--dry-run", "--diff")
				if d := cmp.Diff(verdict(diff), verdict(o)); d != "" {
					return failure(sc, "plan and move --dry-run --diff disagree (-move +plan):\n%s", d)
				}
				st.Add("plan cannot render")
				continue
			}
			got = append(got, answer{c, o})
		}
		dry := sc.Protocol == gen.ProtoRequest && bytes.Contains(sc.Request, []byte(`"dry_run":true`))
		applied := sb.run(final)
		if w, _ := applied.doc["written"].(bool); w != (applied.exit == 0 && !dry && applied.doc["noop"] == false) {
			return failure(sc, "%s: written %v with %s", final, w, applied.raw)
		}
		for _, a := range got {
			if d := cmp.Diff(verdict(applied), verdict(a.o)); d != "" {
				return failure(sc, "%v and %s disagree (-%s +%v):\n%s", a.ask, final, final, a.ask, d)
			}
		}
		if applied.exit == 0 {
			st.Add("both succeed")
		} else {
			st.Add("both fail")
		}
		st.Add("decided")
		return ""
	}, scenarios(gen.Options{MutationRate: 0.3}))
}
