package fuzz

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// This file turns the reference's run of a scenario into a case file: a
// Standard case (check, apply, retry, reverse) or a Planned case (plan,
// apply of the planned patch, move) when the reference's outcomes fit that
// protocol, else a step case that replays the commands as they ran.

// caseOrder and the other orders are the member orders of a case file
// (cases.CaseFields and its companions): members set with them land where a
// hand-written case puts them.
var (
	caseOrder    = cases.FieldNames(cases.CaseFields)
	outcomeOrder = cases.FieldNames(cases.OutcomeFields)
	stepOrder    = cases.FieldNames(cases.StepFields)
	errorOrder   = cases.FieldNames(cases.ErrorFields)
	resultOrder  = cases.FieldNames(cases.ResultFields)
	moveOrder    = cases.FieldNames(cases.MoveFields)
)

// tree is a reference tree as a case-file tree.
func tree(t reference.MapFiles) cases.Object {
	ct := cases.Tree{}
	for p, data := range t {
		ct[p] = cases.Entry{Data: data}
	}
	return cases.TreeValue(ct)
}

func treeOf(t fstree.Tree) cases.Object { return tree(t.Files) }

// startTree is a scenario's tree as a case-file tree: its files and its
// extra entries (folders with a mode, symlinks, hard links).
func startTree(sc *gen.Scenario) cases.Object {
	ct := cases.Tree{}
	for p, data := range sc.Files {
		ct[p] = cases.Entry{Data: data}
	}
	for p, e := range sc.Extra {
		ct[p] = e
	}
	return cases.TreeValue(ct)
}

// errorDetails are the details of a reference error document: everything
// but code and message; nil when there are none. A count the reference
// truncated is a lower bound, where a case states the exact count (see
// cases.MatchError), so it is left out; the ranges listed stay.
func errorDetails(doc map[string]any) map[string]any {
	e, _ := doc["error"].(map[string]any)
	out := map[string]any{}
	for k, v := range e {
		if k != "code" && k != "message" {
			out[k] = v
		}
	}
	if truncated, _ := out["matches_truncated"].(bool); truncated {
		delete(out, "matches")
	}
	delete(out, "matches_truncated")
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

// expectFail sets the members of a failing expectation: expect, error_code
// and the error details.
func expectFail(o *cases.Object, s *Step, order []string) {
	o.Set("expect", "fail", order...)
	o.Set("error_code", s.Code(), order...)
	if d := errorDetails(s.Doc); d != nil {
		o.Set("error", cases.Order(d, errorOrder...), order...)
	}
}

// caseFile builds the case for a scenario from the reference's steps.
// description is the case's one-line description; upTo names the step a
// step case must reach (the one where an implementation differed), or is
// empty.
func caseFile(sc *gen.Scenario, ref []Step, description, upTo string, meta *caseMeta) ([]byte, error) {
	head := func(description string) cases.Object {
		c := cases.Object{{Key: "description", Value: description}}
		if meta != nil && len(meta.requirements) > 0 {
			c.Set("requirements", meta.requirements, caseOrder...)
		}
		if meta != nil {
			c.Set("since", meta.since, caseOrder...)
		}
		return c
	}
	c := head(description)
	ok := false
	switch {
	case sc.Deliver != gen.DeliverPath || len(sc.Extra) > 0:
		// only steps say how the patch is handed over, and the runner's
		// protocols compare no tree but the files
	case sc.Protocol == gen.ProtoRequest:
		ok = plannerCase(&c, sc, ref)
	default:
		ok = standardCase(&c, sc, ref)
	}
	if !ok {
		c = head(description + " (as steps: the reference's outcomes do not fit the case's protocol)")
		stepsCase(&c, sc, ref, upTo)
	}
	if sc.Unprivileged {
		c.Set("unprivileged", true, caseOrder...)
	}
	return cases.Encode(c)
}

// orderedResult is a success document with its members and its moves'
// members in the order of a case file.
func orderedResult(m map[string]any) cases.Object {
	o := cases.Order(m, resultOrder...)
	for i, mem := range o {
		if mv, ok := mem.Value.([]any); ok && mem.Key == "moves" {
			var moves []any
			for _, x := range mv {
				if xm, ok := x.(map[string]any); ok {
					moves = append(moves, cases.Order(xm, moveOrder...))
				} else {
					moves = append(moves, x)
				}
			}
			o[i].Value = moves
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

func standardCase(c *cases.Object, sc *gen.Scenario, ref []Step) bool {
	check, apply := find(ref, StepCheck), find(ref, StepApply)
	if check == nil || apply == nil || check.Exit != apply.Exit || check.Shape != "" || apply.Shape != "" {
		return false
	}
	if check.Exit == 1 {
		if check.Code() != apply.Code() || !jsonEqual(errorDetails(check.Doc), errorDetails(apply.Doc)) {
			return false
		}
		expectFail(c, apply, caseOrder)
	} else {
		c.Set("expect", "pass", caseOrder...)
	}
	c.Set("patch", cases.ContentValue(sc.Patch, true), caseOrder...)
	c.Set("files", startTree(sc), caseOrder...)
	if len(sc.Args) > 0 {
		c.Set("args", sc.Args, caseOrder...)
	}
	if sc.StripFlag {
		c.Set("strip", sc.Strip, caseOrder...)
	}
	if apply.Exit == 1 {
		return true
	}
	retry, reverse := find(ref, StepRetry), find(ref, StepReverse)
	if retry == nil || reverse == nil || !jsonEqual(without(result(check.Doc), "written"), without(result(apply.Doc), "written")) {
		return false
	}
	c.Set("expected_files", treeOf(apply.After), caseOrder...)
	c.Set("result", orderedResult(result(apply.Doc)), caseOrder...)
	if len(apply.Renamed) > 1 { // two files: the order WRITE-005 sets
		c.Set("write_order", apply.Renamed, caseOrder...)
	}
	for _, o := range []struct {
		name string
		s    *Step
	}{{"retry", retry}, {"reverse", reverse}} {
		if o.s.Shape != "" {
			return false
		}
		var out cases.Object
		if o.s.Exit == 1 {
			expectFail(&out, o.s, outcomeOrder)
		} else {
			out.Set("expect", "pass", outcomeOrder...)
			out.Set("result", orderedResult(result(o.s.Doc)), outcomeOrder...)
			out.Set("expected_files", treeOf(o.s.After), outcomeOrder...)
		}
		c.Set(o.name, out, caseOrder...)
	}
	return true
}

func plannerCase(c *cases.Object, sc *gen.Scenario, ref []Step) bool {
	var req map[string]any
	if err := json.Unmarshal(sc.Request, &req); err != nil || !compact(sc.Request) {
		return false // not one JSON object as written: a step case sends it as stdin
	}
	plan, move := find(ref, StepPlan), find(ref, StepMove)
	if plan == nil || move == nil || plan.Exit != move.Exit || plan.Shape != "" || move.Shape != "" {
		return false
	}
	c.Set("request", json.RawMessage(sc.Request), caseOrder...)
	if plan.Exit == 1 {
		if plan.Code() != move.Code() || !jsonEqual(errorDetails(plan.Doc), errorDetails(move.Doc)) {
			return false
		}
		expectFail(c, move, caseOrder)
		c.Set("files", startTree(sc), caseOrder...)
		return true
	}
	planned := find(ref, StepPlanned)
	if planned == nil || planned.Exit != 0 || fstree.Diff(planned.After, move.After) != "" ||
		!jsonEqual(without(result(plan.Doc), "written"), without(result(move.Doc), "written")) {
		return false
	}
	c.Set("expect", "pass", caseOrder...)
	c.Set("files", startTree(sc), caseOrder...)
	c.Set("expected_files", treeOf(move.After), caseOrder...)
	c.Set("result", orderedResult(result(move.Doc)), caseOrder...)
	return true
}

// compact reports whether a request is already in compact form, as the
// runner sends a case's request, with no member given twice.
func compact(req []byte) bool {
	var b bytes.Buffer
	if json.Compact(&b, req) != nil || !bytes.Equal(b.Bytes(), req) {
		return false
	}
	return uniqueMembers(json.NewDecoder(bytes.NewReader(req)))
}

// uniqueMembers reads one JSON value from dec and reports whether no
// object in it names a member twice: a case file refuses such an object,
// and a decoder would keep only the last.
func uniqueMembers(dec *json.Decoder) bool {
	tok, err := dec.Token()
	if err != nil {
		return false
	}
	switch tok {
	case json.Delim('{'):
		seen := map[string]bool{}
		for dec.More() {
			key, err := dec.Token()
			if err != nil || seen[key.(string)] || !uniqueMembers(dec) {
				return false
			}
			seen[key.(string)] = true
		}
	case json.Delim('['):
		for dec.More() {
			if !uniqueMembers(dec) {
				return false
			}
		}
	default:
		return true
	}
	_, err = dec.Token() // the closing delimiter
	return err == nil
}

// stepsCase replays the steps as a step case: each step's command line,
// exit status, JSON and tree, up to the step upTo. A step case runs on one
// tree, so move, which the protocol runs on a fresh tree, comes alone.
func stepsCase(c *cases.Object, sc *gen.Scenario, ref []Step, upTo string) {
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
		c.Set("patch", cases.ContentValue(patch, true), caseOrder...)
	}
	c.Set("files", startTree(sc), caseOrder...)
	var out []any
	for _, s := range steps {
		var o cases.Object
		o.Set("description", s.Name, stepOrder...)
		args := slices.Clone(s.Args)
		for i, a := range args {
			if a == cases.InputsPlaceholder+"/"+plannedFile {
				args[i] = cases.PatchPlaceholder
			}
		}
		if patch == nil && slices.Contains(args, cases.PatchPlaceholder) {
			continue
		}
		o.Set("args", args, stepOrder...)
		if sc.Deliver == gen.DeliverRelative && slices.Contains(args, cases.PatchFile) {
			o.Set("dir", cases.DirInputs, stepOrder...)
		}
		if len(s.Stdin) > 0 {
			o.Set("stdin", cases.ContentValue(s.Stdin, false), stepOrder...)
		}
		o.Set("exit", s.Exit, stepOrder...)
		if s.Doc != nil && s.Shape == "" {
			doc := orderedResult(result(s.Doc))
			if s.Exit == 1 {
				e := errorDetails(s.Doc)
				if e == nil {
					e = map[string]any{}
				}
				e["code"] = s.Code()
				doc = cases.Object{{Key: "ok", Value: false}, {Key: "error", Value: cases.Order(e, errorOrder...)}}
			}
			o.Set("json", doc, stepOrder...)
		}
		if fstree.Diff(s.Before, s.After) == "" {
			o.Set("unchanged", true, stepOrder...)
		} else {
			o.Set("files", treeOf(s.After), stepOrder...)
		}
		out = append(out, o)
	}
	c.Set("steps", out, caseOrder...)
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
