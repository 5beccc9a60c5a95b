package fuzz

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// This file turns the reference's run of a scenario into a case file: a
// Standard case (check, apply, retry, reverse) or a Planned case (plan,
// apply of the planned patch, move) when the reference's outcomes fit that
// protocol, else a step case that replays the commands as they ran.

// ordered is a JSON object that keeps its members in insertion order, so
// case files read like the hand-written ones.
type ordered []member

type member struct {
	key string
	val any
}

func (o *ordered) set(k string, v any) { *o = append(*o, member{k, v}) }

func (o ordered) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, m := range o {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := json.Marshal(m.key)
		v, err := marshal(m.val)
		if err != nil {
			return nil, err
		}
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// marshal encodes without HTML escaping, so "<" and "&" stay readable.
func marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// content is bytes in the case format: a string when they are UTF-8, else
// base64; patches as lines when they read well that way.
func content(data []byte, asLines bool) any {
	if !utf8.Valid(data) {
		return map[string]string{"base64": base64.StdEncoding.EncodeToString(data)}
	}
	if asLines && len(data) > 0 && bytes.HasSuffix(data, []byte("\n")) && !bytes.Contains(data, []byte("\r")) {
		ls := strings.Split(strings.TrimSuffix(string(data), "\n"), "\n")
		return map[string][]string{"lines": ls}
	}
	return string(data)
}

func tree(t reference.MapFiles) ordered {
	paths := make([]string, 0, len(t))
	for p := range t {
		paths = append(paths, p)
	}
	slices.Sort(paths)
	o := ordered{}
	for _, p := range paths {
		o.set(p, content(t[p], false))
	}
	return o
}

func treeOf(t fstree.Tree) ordered { return tree(t.Files) }

// errorDetails are the details of a reference error document: everything
// but code and message; nil when there are none.
func errorDetails(doc map[string]any) map[string]any {
	e, _ := doc["error"].(map[string]any)
	out := map[string]any{}
	for k, v := range e {
		if k != "code" && k != "message" {
			out[k] = v
		}
	}
	if len(out) == 0 {
		return nil
	}
	return out
}

// result is a success document as a case's result: every member but the
// planned patch text and the warnings' messages, which are not part of
// the contract.
func result(doc map[string]any) map[string]any {
	out := map[string]any{}
	for k, v := range doc {
		if k != "patch" {
			out[k] = v
		}
	}
	if ws, ok := out["warnings"].([]any); ok {
		kept := make([]any, len(ws))
		for i, w := range ws {
			m, _ := w.(map[string]any)
			c := map[string]any{}
			for k, v := range m {
				if k != "message" {
					c[k] = v
				}
			}
			kept[i] = c
		}
		out["warnings"] = kept
	}
	return out
}

func (o *ordered) expectFail(s *Step) {
	o.set("expect", "fail")
	o.set("error_code", s.Code())
	if d := errorDetails(s.Doc); d != nil {
		o.set("error", order(d, errorKeys...))
	}
}

// caseFile builds the case for a scenario from the reference's steps.
// description is the case's one-line description; upTo names the step a
// step case must reach (the one where an implementation differed), or is
// empty.
func caseFile(sc *gen.Scenario, ref []Step, description, upTo string, meta *caseMeta) ([]byte, error) {
	var c ordered
	c.set("description", description)
	if meta != nil {
		c.set("requirements", meta.requirements)
		c.set("since", meta.since)
	}
	ok := false
	switch sc.Protocol {
	case gen.ProtoRequest:
		ok = plannerCase(&c, sc, ref)
	default:
		ok = standardCase(&c, sc, ref)
	}
	if !ok {
		c = c[:0]
		c.set("description", description+" (as steps: the reference's outcomes do not fit the case's protocol)")
		if meta != nil {
			c.set("requirements", meta.requirements)
			c.set("since", meta.since)
		}
		stepsCase(&c, sc, ref, upTo)
	}
	data, err := marshal(c)
	if err != nil {
		return nil, err
	}
	var pretty bytes.Buffer
	if err := json.Indent(&pretty, data, "", "  "); err != nil {
		return nil, err
	}
	pretty.WriteByte('\n')
	return tidy(pretty.Bytes()), nil
}

var (
	rangeRE      = regexp.MustCompile(`\{\s*"(start|end)": (\d+),\s*"(start|end)": (\d+)\s*\}`)
	rangeListRE  = regexp.MustCompile(`\[\s*(\{"start": \d+, "end": \d+\}(?:,\s*\{"start": \d+, "end": \d+\})*)\s*\]`)
	shortListRE  = regexp.MustCompile(`\[\s*("(?:[^"\\\n]|\\.)*"(?:,\s*"(?:[^"\\\n]|\\.)*")*)\s*\]`)
	listSpacesRE = regexp.MustCompile(`,\s+`)
)

// tidy puts ranges, lists of ranges and short lists of strings on one
// line, as the hand-written cases do.
func tidy(b []byte) []byte {
	b = rangeRE.ReplaceAllFunc(b, func(m []byte) []byte {
		s := rangeRE.FindSubmatch(m)
		start, end := s[2], s[4]
		if string(s[1]) == "end" {
			start, end = s[4], s[2]
		}
		return []byte(`{"start": ` + string(start) + `, "end": ` + string(end) + `}`)
	})
	b = rangeListRE.ReplaceAllFunc(b, func(m []byte) []byte {
		items := listSpacesRE.ReplaceAll(rangeListRE.FindSubmatch(m)[1], []byte(", "))
		return append(append([]byte("["), items...), ']')
	})
	return shortListRE.ReplaceAllFunc(b, func(m []byte) []byte {
		items := listSpacesRE.ReplaceAll(shortListRE.FindSubmatch(m)[1], []byte(", "))
		if len(items) > 100 {
			return m
		}
		return append(append([]byte("["), items...), ']')
	})
}

// order lists a document's members in the order the spec gives them,
// others after them by name.
func order(m map[string]any, keys ...string) ordered {
	var o ordered
	for _, k := range keys {
		if v, ok := m[k]; ok {
			o.set(k, v)
		}
	}
	rest := make([]string, 0, len(m))
	for k := range m {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range rest {
		o.set(k, m[k])
	}
	return o
}

var (
	errorKeys = []string{"code", "path", "phase", "field", "anchor", "matches", "matches_truncated", "ranges",
		"line_ranges", "source_range", "target_range", "payload_sha256", "suggested_action"}
	resultKeys = []string{"ok", "status", "changed", "affected", "written", "noop", "strip_components", "moves"}
	moveKeys   = []string{"id", "src", "dst", "payload_sha256", "payload_bytes", "source_range", "target_range", "insert_index"}
)

// orderedResult is a success document with its members and its moves'
// members in spec order.
func orderedResult(m map[string]any) ordered {
	o := order(m, resultKeys...)
	for i, mem := range o {
		if mv, ok := mem.val.([]any); ok && mem.key == "moves" {
			var moves []any
			for _, x := range mv {
				if xm, ok := x.(map[string]any); ok {
					moves = append(moves, order(xm, moveKeys...))
				} else {
					moves = append(moves, x)
				}
			}
			o[i].val = moves
		}
	}
	return o
}

func find(steps []Step, name string) *Step {
	for i := range steps {
		if steps[i].Name == name {
			return &steps[i]
		}
	}
	return nil
}

func standardCase(c *ordered, sc *gen.Scenario, ref []Step) bool {
	check, apply := find(ref, StepCheck), find(ref, StepApply)
	if check == nil || apply == nil || check.Exit != apply.Exit || check.Shape != "" || apply.Shape != "" {
		return false
	}
	if check.Exit == 1 {
		if check.Code() != apply.Code() || !jsonEqual(errorDetails(check.Doc), errorDetails(apply.Doc)) {
			return false
		}
		c.expectFail(apply)
	} else {
		c.set("expect", "pass")
	}
	c.set("patch", content(sc.Patch, true))
	c.set("files", tree(sc.Files))
	if len(sc.Args) > 0 {
		c.set("args", sc.Args)
	}
	if sc.StripFlag {
		c.set("strip", sc.Strip)
	}
	if apply.Exit == 1 {
		return true
	}
	retry, reverse := find(ref, StepRetry), find(ref, StepReverse)
	if retry == nil || reverse == nil || !jsonEqual(without(result(check.Doc), "written"), without(result(apply.Doc), "written")) {
		return false
	}
	c.set("expected_files", treeOf(apply.After))
	c.set("result", orderedResult(result(apply.Doc)))
	for _, o := range []struct {
		name string
		s    *Step
	}{{"retry", retry}, {"reverse", reverse}} {
		if o.s.Shape != "" {
			return false
		}
		var out ordered
		if o.s.Exit == 1 {
			out.expectFail(o.s)
		} else {
			out.set("expect", "pass")
			out.set("result", orderedResult(result(o.s.Doc)))
			out.set("expected_files", treeOf(o.s.After))
		}
		c.set(o.name, out)
	}
	return true
}

func plannerCase(c *ordered, sc *gen.Scenario, ref []Step) bool {
	var req map[string]any
	if err := json.Unmarshal(sc.Request, &req); err != nil || !compact(sc.Request) {
		return false // not one JSON object as written: a step case sends it as stdin
	}
	plan, move := find(ref, StepPlan), find(ref, StepMove)
	if plan == nil || move == nil || plan.Exit != move.Exit || plan.Shape != "" || move.Shape != "" {
		return false
	}
	c.set("request", json.RawMessage(sc.Request))
	if plan.Exit == 1 {
		if plan.Code() != move.Code() || !jsonEqual(errorDetails(plan.Doc), errorDetails(move.Doc)) {
			return false
		}
		c.expectFail(move)
		c.set("files", tree(sc.Files))
		return true
	}
	planned := find(ref, StepPlanned)
	if planned == nil || planned.Exit != 0 || fstree.Diff(planned.After, move.After) != "" ||
		!jsonEqual(without(result(plan.Doc), "written"), without(result(move.Doc), "written")) {
		return false
	}
	c.set("expect", "pass")
	c.set("files", tree(sc.Files))
	c.set("expected_files", treeOf(move.After))
	c.set("result", orderedResult(result(move.Doc)))
	return true
}

// compact reports whether a request is already in compact form, as the
// runner sends a case's request, with no member given twice.
func compact(req []byte) bool {
	var b bytes.Buffer
	if json.Compact(&b, req) != nil || !bytes.Equal(b.Bytes(), req) {
		return false
	}
	_, err := reference.DecodeRequest(req)
	return err == nil || !strings.Contains(err.Error(), "given twice")
}

// stepsCase replays the steps as a step case: each step's command line,
// exit status, JSON and tree, up to the step upTo. A step case runs on one
// tree, so move, which the protocol runs on a fresh tree, comes alone.
func stepsCase(c *ordered, sc *gen.Scenario, ref []Step, upTo string) {
	var steps []Step
	for _, s := range ref {
		if s.Skipped {
			continue
		}
		if s.Fresh && len(steps) > 0 {
			if s.Name != upTo {
				break
			}
			steps = nil // a step on a fresh tree comes alone
		}
		steps = append(steps, s)
		if s.Name == upTo {
			break
		}
	}
	patch := sc.Patch
	if sc.Protocol == gen.ProtoRequest {
		patch = nil
		if p := find(ref, StepPlan); p != nil {
			if text, ok := p.Doc["patch"].(string); ok {
				patch = []byte(text)
			}
		}
	}
	if patch != nil {
		c.set("patch", content(patch, true))
	}
	c.set("files", tree(sc.Files))
	var out []ordered
	for _, s := range steps {
		var o ordered
		o.set("description", s.Name)
		args := slices.Clone(s.Args)
		for i, a := range args {
			if a == cases.InputsPlaceholder+"/"+plannedFile {
				args[i] = cases.PatchPlaceholder
			}
		}
		if patch == nil && slices.Contains(args, cases.PatchPlaceholder) {
			continue
		}
		o.set("args", args)
		if len(s.Stdin) > 0 {
			o.set("stdin", content(s.Stdin, false))
		}
		o.set("exit", s.Exit)
		if s.Doc != nil && s.Shape == "" {
			doc := orderedResult(result(s.Doc))
			if s.Exit == 1 {
				e := errorDetails(s.Doc)
				if e == nil {
					e = map[string]any{}
				}
				e["code"] = s.Code()
				doc = ordered{{"ok", false}, {"error", order(e, errorKeys...)}}
			}
			o.set("json", doc)
		}
		if fstree.Diff(s.Before, s.After) == "" {
			o.set("unchanged", true)
		} else {
			o.set("files", treeOf(s.After))
		}
		out = append(out, o)
	}
	c.set("steps", out)
}

func without(m map[string]any, k string) map[string]any {
	out := map[string]any{}
	for key, v := range m {
		if key != k {
			out[key] = v
		}
	}
	return out
}

func jsonEqual(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// caseMeta is the corpus metadata of --cases-format.
type caseMeta struct {
	requirements []string
	since        string
}

// codeRequirements maps error codes to the requirement that most
// directly names them; metaFor starts a reviewer off with it.
var codeRequirements = map[string]string{
	"parse_error": "FMT-001", "invalid_path": "PATH-001", "path_outside_cwd": "PATH-004",
	"symlink_path": "PATH-005", "file_not_found": "PATH-007", "not_regular_file": "PATH-006",
	"source_not_found": "MATCH-008", "source_ambiguous": "MATCH-005", "target_not_found": "MATCH-009",
	"target_ambiguous": "MATCH-009", "payload_mismatch": "MATCH-016", "hash_mismatch": "MATCH-017",
	"target_overlaps_source": "MATCH-020", "invalid_move_args": "PLAN-012", "invalid_utf8": "PLAN-032",
	"destination_exists": "SHAPE-012", "partial_applied_duplicate": "IDEM-011",
}

// metaFor guesses corpus metadata from the reference's outcome: the
// requirement of the error code, or of the shape. It is a start for a
// reviewer, who should name the exact requirements.
func metaFor(sc *gen.Scenario, ref []Step) *caseMeta {
	code := ""
	for _, s := range ref {
		if s.Exit == 1 {
			code = s.Code()
			break
		}
	}
	req, ok := codeRequirements[code]
	if !ok {
		req = "SHAPE-005"
		if sc.Move != nil {
			req = map[reference.Shape]string{
				reference.ShapeRelocate: "SHAPE-001", reference.ShapeInsert: "SHAPE-002",
				reference.ShapeDelete: "SHAPE-003", reference.ShapeCreate: "SHAPE-010",
				reference.ShapeRemove: "SHAPE-013",
			}[sc.Move.Shape]
		}
	}
	return &caseMeta{requirements: []string{req}, since: "1.1"}
}

// loadable checks a case file the way the runner will load it.
func loadable(name string, data []byte, corpus bool) error {
	opts := cases.Options{}
	if corpus {
		opts = cases.CorpusOptions
	}
	_, err := opts.Parse(name, data)
	if err != nil {
		return fmt.Errorf("the written case does not load: %w", err)
	}
	return nil
}
