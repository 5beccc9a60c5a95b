package calibrate

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"

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
	// Since is the profile from which the outcome holds (the command's
	// argument rules of CLI-029…CLI-034).
	Since string
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
			since := commandSince(cmd)
			out = append(out, Probe{Name: name + "/" + option + "/" + form, Command: cmd, Option: option, Form: form, Args: args, Since: since})
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

// commandSince is the profile from which a command's argument rules hold.
func commandSince(command string) string {
	return spec.Profiles[0]
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
		filepath.Join(work, "file.txt"):             MatrixFixture.File,
		filepath.Join(inputs, "patch.blockpatch"):   MatrixFixture.Patch,
		filepath.Join(inputs, "request.json"):       MatrixFixture.Request,
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
