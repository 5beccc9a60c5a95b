package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// The option matrix: every option the releases know (spec.Options), in
// every way it can be written, on every command and before any. Running it
// on a release and on the reference and comparing the outcomes is how the
// question "which command takes which option" stays calibrated
// (CLI-010, CLI-028, CLI-029…CLI-034).

// Probe is one command line of the matrix.
type Probe struct {
	// Name is "<command>/<option>/<form>", the command "none" for a
	// command line that starts with the option.
	Name    string
	Command string // "check", …, "help", or "" for none
	Option  string // the spelling probed, such as "-p" or "--src"
	Form    string // see probeForms
	// Args is the command line, with the placeholders {patch},
	// {request} and {work} of MatrixFixture.
	Args []string
	// Requirements are the IDs the probe checks: the command's rule and
	// the form's; Since, the latest profile among them, is the profile
	// from which the outcome holds.
	Requirements []string
	Since        string
}

// commandRules names, by command, the requirement that says which options
// it takes ("" is no command).
var commandRules = map[string]string{
	"check": "CLI-029", "apply": "CLI-031", "plan": "CLI-032", "move": "CLI-032",
	"version": "CLI-033", "help": "CLI-035", "": "CLI-034",
}

// formRules names the requirement of a form beyond the command's rule.
var formRules = map[string]string{
	"missing": "CLI-009", "equals": "CLI-028", "joined": "CLI-007", "after-dashes": "CLI-036",
}

// Matrix commands: the argument list that precedes the option probed, the
// command succeeding without it.
var matrixBases = []struct {
	command string
	args    []string
}{
	{"check", []string{"check", "--json-output", "{patch}", "--cwd", "{work}"}},
	{"apply", []string{"apply", "--json-output", "{patch}", "--cwd", "{work}"}},
	{"plan", []string{"plan", "--json", "{request}", "--cwd", "{work}"}},
	{"move", []string{"move", "--json-output", "--json", "{request}", "--cwd", "{work}"}},
	{"version", []string{"version", "--json-output"}},
	{"help", []string{"help"}},
	{"", []string{"--json-output"}},
}

// Spellings no release knows, probed beside the known ones: the help and
// version spellings after a command, the missing --mode flag (CLI-020),
// a made-up one, and the end-of-options marker.
var strangers = []string{"-h", "--help", "-v", "--version", "--mode", "--bogus", "-x", "--", "-"}

// valueFor is the value a probe gives an option: one that keeps the base
// command line succeeding where the option is taken.
func valueFor(o spec.Option) string {
	switch o.Value {
	case "path":
		if o.Long == "--json" {
			return "{request}"
		}
		return "{patch}"
	case "dir":
		return "{work}"
	case "count":
		return "1"
	}
	switch o.Long {
	case "--src", "--dst":
		return "file.txt"
	case "--src-start":
		return "move"
	case "--src-end":
		return "me\n"
	case "--payload":
		return "x\n"
	case "--target-before":
		return "target\n"
	case "--target-after":
		return ""
	case "--expected-payload-sha256":
		return "f721166071c491fd38ac82a8432ecc349f39f537a969054ab2c8d3175c731e7e"
	}
	return "x"
}

// Matrix lists the probes: for each command (and none), each spelling of
// each option of spec.Options and each stranger, in each form it has.
func Matrix() []Probe {
	var out []Probe
	for _, b := range matrixBases {
		cmd := b.command
		add := func(option, form string, extra ...string) {
			name := cmd
			if name == "" {
				name = "none"
			}
			args := append(slices.Clone(b.args), extra...)
			reqs := []string{commandRules[cmd]}
			if r, ok := formRules[form]; ok && cmd != "help" {
				reqs = append(reqs, r)
			}
			if cmd == "check" && option == "--dry-run" && form != "equals" && form != "after-dashes" {
				reqs = append(reqs, "CLI-030")
			}
			out = append(out, Probe{Name: name + "/" + option + "/" + form, Command: cmd, Option: option, Form: form,
				Args: args, Requirements: reqs, Since: latestSince(reqs)})
		}
		for _, o := range spec.Options() {
			v := valueFor(o)
			for _, sp := range o.Spellings() {
				if o.Value == "" {
					add(sp, "flag", sp)
					add(sp, "twice", sp, sp)
					add(sp, "after-dashes", "--", sp)
					if strings.HasPrefix(sp, "--") {
						add(sp, "equals", sp+"=x")
					}
					continue
				}
				add(sp, "value", sp, v)
				add(sp, "missing", sp)
				add(sp, "twice", sp, v, sp, v)
				add(sp, "after-dashes", "--", sp, v)
				if strings.HasPrefix(sp, "--") {
					add(sp, "equals", sp+"="+v)
				} else {
					add(sp, "joined", sp+v)
					add(sp, "equals", sp+"="+v)
				}
			}
		}
		for _, s := range strangers {
			add(s, "flag", s)
		}
	}
	return out
}

// latestSince is the latest profile among the requirements' since.
func latestSince(ids []string) string {
	since := spec.Profiles[0]
	for _, id := range ids {
		if r, ok := spec.Lookup(id); ok && spec.Includes(r.Since, since) {
			since = r.Since
		}
	}
	return since
}

// MatrixFixture is the tree every probe starts from: a work folder with
// file.txt, the patch that moves its second line after its fourth, and
// the same move as a request.
var MatrixFixture = struct {
	File, Patch, Request string
}{
	File: "alpha\nmove me\nomega\ntarget\n",
	Patch: "diff --blockpatch a/file.txt b/file.txt\nblockpatch version 1\n" +
		"blockpatch move id=move-1 payload-sha256=f721166071c491fd38ac82a8432ecc349f39f537a969054ab2c8d3175c731e7e\n" +
		"--- a/file.txt\n+++ b/file.txt\n\n@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n alpha\n-move me\n omega\n\n" +
		"@@ -4,1 +4,2 @@ blockpatch-target id=move-1\n target\n+move me\n",
	Request: `{"src":"file.txt","src_start":"move","src_end":"me\n","dst":"file.txt","target_before":"target\n"}`,
}

// Result is what a probe did, reduced to what the spec decides: the exit
// status, each stream as empty, text, or the JSON document's ok and error
// code (and status on success), and whether file.txt changed. Messages,
// help and version text are not compared.
type Result struct {
	Exit   int    `json:"exit"`
	Stdout string `json:"stdout"`
	Stderr string `json:"stderr"`
	File   string `json:"file"` // "same", "moved" or "other"
}

func (r Result) String() string {
	return fmt.Sprintf("exit %d, stdout %s, stderr %s, file %s", r.Exit, r.Stdout, r.Stderr, r.File)
}

// Refused reports whether the probe was refused, and with which code.
func (r Result) Refused() (string, bool) {
	if r.Exit == 0 {
		return "", false
	}
	if c, ok := strings.CutPrefix(r.Stderr, "json error "); ok {
		return c, true
	}
	return r.Stderr, true
}

// RunProbe runs p on impl in a fresh tree under dir.
func RunProbe(ctx context.Context, impl runner.Implementation, dir string, p Probe) (Result, error) {
	work, inputs := filepath.Join(dir, "work"), filepath.Join(dir, "inputs")
	for _, d := range []string{work, inputs} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			return Result{}, err
		}
	}
	files := map[string]string{
		filepath.Join(work, "file.txt"):           MatrixFixture.File,
		filepath.Join(inputs, "patch.blockpatch"): MatrixFixture.Patch,
		filepath.Join(inputs, "request.json"):     MatrixFixture.Request,
	}
	for name, content := range files {
		if err := os.WriteFile(name, []byte(content), 0o644); err != nil {
			return Result{}, err
		}
	}
	r := strings.NewReplacer("{patch}", filepath.Join(inputs, "patch.blockpatch"), "{request}", filepath.Join(inputs, "request.json"), "{work}", work)
	args := make([]string, len(p.Args))
	for i, a := range p.Args {
		args[i] = r.Replace(a)
	}
	out := impl.Exec(ctx, runner.Invocation{Args: args, Dir: inputs})
	if out.Err != nil {
		return Result{}, out.Err
	}
	if out.TimedOut || out.Signal != "" {
		return Result{}, fmt.Errorf("%s: timed out or crashed (%s)", p.Name, out.Signal)
	}
	res := Result{Exit: out.Exit, Stdout: stream(out.Stdout), Stderr: stream(out.Stderr)}
	got, err := os.ReadFile(filepath.Join(work, "file.txt"))
	switch {
	case err == nil && string(got) == MatrixFixture.File:
		res.File = "same"
	case err == nil && string(got) == "alpha\nomega\ntarget\nmove me\n":
		res.File = "moved"
	default:
		res.File = "other"
	}
	return res, nil
}

// stream reduces an output stream to what Result compares.
func stream(b []byte) string {
	if len(b) == 0 {
		return "empty"
	}
	line, rest, _ := bytes.Cut(b, []byte("\n"))
	var doc struct {
		OK     *bool  `json:"ok"`
		Status string `json:"status"`
		Error  struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if len(rest) == 0 && json.Unmarshal(line, &doc) == nil && doc.OK != nil {
		if *doc.OK {
			if doc.Status == "" {
				return "json ok"
			}
			return "json ok " + doc.Status
		}
		return "json error " + doc.Error.Code
	}
	return "text"
}

// RunMatrix runs probes on impl, parallel at once, each in its own folder
// under dir, and returns their results in order.
func RunMatrix(ctx context.Context, impl runner.Implementation, dir string, probes []Probe, parallel int) ([]Result, error) {
	out := make([]Result, len(probes))
	errs := make([]error, len(probes))
	sem := make(chan struct{}, max(1, parallel))
	var wg sync.WaitGroup
	for i, p := range probes {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			out[i], errs[i] = RunProbe(ctx, impl, filepath.Join(dir, strconv.Itoa(i)), p)
		}()
	}
	wg.Wait()
	return out, errors.Join(errs...)
}
