// Package calibrate rewrites the JSON expectations of case files to what an
// implementation does, for the points the documentation leaves open: run
// the canonical release, let the runner say where it differs, and change
// just those values in place (internal/jsonedit), so the diff can be
// reviewed against the documents before it is committed.
package calibrate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/jsonedit"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Edit is one change made to a case file, or one difference left for a
// person (Skipped says why).
type Edit struct {
	Case    string
	Step    string
	Path    jsonedit.Path
	Old     any
	New     any
	Deleted bool
	Skipped string
}

func (e Edit) String() string {
	switch {
	case e.Skipped != "":
		return fmt.Sprintf("%s: %s: left as is: %s", e.Case, e.Step, e.Skipped)
	case e.Deleted:
		return fmt.Sprintf("%s: %s: %s: dropped %s", e.Case, e.Step, e.Path, jsonedit.Marshal(e.Old))
	}
	return fmt.Sprintf("%s: %s: %s: %s -> %s", e.Case, e.Step, e.Path, jsonedit.Marshal(e.Old), jsonedit.Marshal(e.New))
}

// Options say what may change.
type Options struct {
	// Codes allows error codes to change, not only details and results.
	Codes bool
	// DryRun reports the edits without writing them.
	DryRun bool
}

// Apply rewrites, under dir, the case files of the failed results of rep.
// It returns every edit made and every failure it could not turn into one.
func Apply(dir string, rep *runner.Report, o Options) ([]Edit, error) {
	var all []Edit
	for _, res := range rep.Results {
		if !res.Verdict.Failed() {
			continue
		}
		file := filepath.Join(dir, filepath.FromSlash(res.Name), "case.json")
		data, err := os.ReadFile(file)
		if err != nil {
			all = append(all, Edit{Case: res.Name, Step: "-", Skipped: err.Error()})
			continue
		}
		edits, out, err := fix(data, res, o)
		if err != nil {
			return all, fmt.Errorf("%s: %w", res.Name, err)
		}
		all = append(all, edits...)
		if !o.DryRun && !bytes.Equal(out, data) {
			if err := os.WriteFile(file, out, 0o644); err != nil {
				return all, err
			}
		}
	}
	return all, nil
}

var stepNumber = regexp.MustCompile(`^step (\d+) of \d+`)

// fix returns data with the expectations of res's failing step changed to
// what the implementation printed.
func fix(data []byte, res *runner.Result, o Options) ([]Edit, []byte, error) {
	f := res.Failure
	skip := func(why string) ([]Edit, []byte, error) {
		return []Edit{{Case: res.Name, Step: f.Step, Skipped: why}}, data, nil
	}
	if f == nil || f.Got == nil {
		return skip(firstLine(res.Reason))
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		return nil, nil, err
	}
	base, ignore := where(doc, f.Step)
	if base == nil {
		return skip("no expectation in the file for this step: " + firstLine(res.Reason))
	}
	got := any(f.Got)
	ok, _ := f.Got["ok"].(bool)
	codePath := append(clonePath(base[:len(base)-1]), "error_code")
	if !ok {
		e, _ := f.Got["error"].(map[string]any)
		got = e
		if base[0] == "steps" {
			// A step's json holds the whole document.
			got = f.Got
		}
	}
	want, present := lookup(doc, base)
	c := &collector{data: data, name: res.Name, step: f.Step, ignore: ignore, codes: o.Codes}
	if !ok && base[0] != "steps" {
		gotCode, _ := got.(map[string]any)["code"].(string)
		wantCode, _ := lookupString(doc, codePath)
		if gotCode != wantCode {
			if !o.Codes {
				return skip(fmt.Sprintf("error code %s, want %s", gotCode, wantCode))
			}
			c.replace(codePath, wantCode, gotCode)
		}
	}
	if present {
		c.diff(base, want, got)
	}
	if len(c.edits) == 0 {
		return skip(firstLine(res.Reason))
	}
	c.dropIfEmpty(base)
	return c.edits, c.data, c.err
}

// where is the path of the expectation a step is judged by, and the top
// members of it that the step does not report.
func where(doc map[string]any, step string) (jsonedit.Path, map[string]bool) {
	if m := stepNumber.FindStringSubmatch(step); m != nil {
		n, _ := strconv.Atoi(m[1])
		return jsonedit.Path{"steps", strconv.Itoa(n - 1), "json"}, nil
	}
	field := "result"
	if doc["expect"] == "fail" {
		field = "error"
	}
	switch step {
	case "check", "plan":
		// Dry commands are judged without the apply's written.
		return jsonedit.Path{field}, map[string]bool{"written": true}
	case "apply", "move":
		return jsonedit.Path{field}, nil
	case "retry", "reverse":
		o, ok := doc[step].(map[string]any)
		if !ok {
			return nil, nil
		}
		if o["expect"] == "fail" {
			return jsonedit.Path{step, "error"}, nil
		}
		return jsonedit.Path{step, "result"}, nil
	}
	return nil, nil
}

type collector struct {
	data   []byte
	name   string
	step   string
	ignore map[string]bool
	codes  bool
	edits  []Edit
	err    error
}

func (c *collector) replace(p jsonedit.Path, old, new any) {
	if c.err != nil {
		return
	}
	c.data, c.err = jsonedit.Replace(c.data, p, jsonedit.Marshal(new))
	c.edits = append(c.edits, Edit{Case: c.name, Step: c.step, Path: clonePath(p), Old: old, New: new})
}

func (c *collector) drop(p jsonedit.Path, old any) {
	if c.err != nil {
		return
	}
	c.data, c.err = jsonedit.Delete(c.data, p)
	c.edits = append(c.edits, Edit{Case: c.name, Step: c.step, Path: clonePath(p), Old: old, Deleted: true})
}

// dropIfEmpty removes the expectation at p when the edits left it empty:
// the loader refuses an empty error or result, which asserts nothing.
func (c *collector) dropIfEmpty(p jsonedit.Path) {
	if c.err != nil {
		return
	}
	var doc any
	if c.err = json.Unmarshal(c.data, &doc); c.err != nil {
		return
	}
	if v, ok := lookup(doc, p); ok {
		if m, ok := v.(map[string]any); ok && len(m) == 0 {
			c.data, c.err = jsonedit.Delete(c.data, p)
		}
	}
}

// diff changes want, at p, to agree with got, member by member: members
// got lacks are dropped, members want does not name are left unasserted.
func (c *collector) diff(p jsonedit.Path, want, got any) {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			c.replace(p, want, got)
			return
		}
		for k, wv := range w {
			if c.ignore[k] && len(p) == 1 {
				continue
			}
			gv, ok := g[k]
			if k == "code" && !c.codes && !reflect.DeepEqual(wv, gv) {
				c.edits = append(c.edits, Edit{Case: c.name, Step: c.step, Skipped: fmt.Sprintf("error code %v, want %v", gv, wv)})
				continue
			}
			switch {
			case !ok && wv == nil:
			case !ok:
				c.drop(append(clonePath(p), k), wv)
			default:
				c.diff(append(clonePath(p), k), wv, gv)
			}
		}
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			c.replace(p, want, got)
			return
		}
		for i := range w {
			c.diff(append(clonePath(p), strconv.Itoa(i)), w[i], g[i])
		}
	default:
		if !reflect.DeepEqual(want, got) {
			c.replace(p, want, got)
		}
	}
}

func clonePath(p jsonedit.Path) jsonedit.Path { return append(jsonedit.Path{}, p...) }

func lookup(doc any, p jsonedit.Path) (any, bool) {
	cur := doc
	for _, k := range p {
		switch x := cur.(type) {
		case map[string]any:
			v, ok := x[k]
			if !ok {
				return nil, false
			}
			cur = v
		case []any:
			i, err := strconv.Atoi(k)
			if err != nil || i < 0 || i >= len(x) {
				return nil, false
			}
			cur = x[i]
		default:
			return nil, false
		}
	}
	return cur, true
}

func lookupString(doc any, p jsonedit.Path) (string, bool) {
	v, ok := lookup(doc, p)
	s, _ := v.(string)
	return s, ok
}

func firstLine(s string) string {
	s, _, _ = strings.Cut(s, "\n")
	return s
}
