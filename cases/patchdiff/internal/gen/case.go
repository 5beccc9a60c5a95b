package main

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"strings"
)

// C is one case as written by hand.
type C struct {
	name   string
	topics []string
	why    string
	rec    bool

	profile any // string, or nil to leave runtime_version out
	target  any
	tv      any // target_version: int, or nil to leave it out
	tx      any // obj or txText
	scope   obj
	cw      any // collect_warnings: bool or nil

	status string
	stage  string
	label  string
	result any
	facts  []obj
	warns  []any
	diag   obj
	drec   obj
	lens   obj
	before string
	after  string

	// batch marks an observed_batch case: tx is the envelope, sent as
	// batch; order is its assembly_order (BATCH).
	batch bool
	order []any
}

// DefaultProfile is the profile of a case that names none: the first with
// the conjunctive selectors (SELECT).
const DefaultProfile = "patchdiff-mvp-0.2.2"

// A is an accepted case: result is the canonical text after the call,
// facts its change facts in order.
func A(name, why string, target, tx, result any, facts ...obj) *C {
	return &C{name: name, why: why, profile: DefaultProfile, target: target, tv: 1, tx: tx,
		status: "accepted", stage: "ACCEPTED", result: result, facts: facts, warns: []any{}}
}

// R is a rejected case; its stage is the label's (stageOf).
func R(name, why string, target, tx any, label string) *C {
	return &C{name: name, why: why, profile: DefaultProfile, target: target, tv: 1, tx: tx,
		status: "rejected", stage: stageOf(label), label: label}
}

func (c *C) T(topics ...string) *C { c.topics = append(c.topics, topics...); return c }
func (c *C) P(profile any) *C      { c.profile = profile; return c }
func (c *C) V(tv any) *C           { c.tv = tv; return c }
func (c *C) D(pairs ...any) *C     { c.diag = c.diag.with(pairs...); return c }
func (c *C) W(ws ...obj) *C {
	for _, w := range ws {
		c.warns = append(c.warns, w)
	}
	return c
}
func (c *C) CW(b bool) *C          { c.cw = b; return c }
func (c *C) Rec() *C               { c.rec = true; return c }
func (c *C) Stage(s string) *C     { c.stage = s; return c }
func (c *C) Scope(s, e int) *C     { c.scope = o("scope_start", s, "scope_end", e); return c }
func (c *C) Hashes(b, a string) *C { c.before, c.after = b, a; return c }

// stageOf is the stage of each label (STAGE): written by hand from the
// seed's stage list and spec/patchdiff's choices.
func stageOf(label string) string {
	switch label {
	case "target_hash_mismatch", "target_version_mismatch", "context_invalid", "context_missing", "target_not_found":
		return "PRECONDITION_GUARD"
	case "manifest_missing", "manifest_invalid", "block_malformed", "target_encoding_invalid":
		return "PROTOCOL_VALIDATION"
	case "match_absent", "match_ambiguous", "disambiguation_invalid", "sequential_match_invalid",
		"span_out_of_bounds", "span_expected_text_mismatch", "transaction_internal_error":
		return "TRANSACTION_APPLICABILITY"
	}
	panic("stageOf: " + label)
}

var validity = map[string]obj{
	"PRECONDITION_GUARD":        o("protocol_valid", nil, "transaction_valid", nil),
	"PROTOCOL_VALIDATION":       o("protocol_valid", false, "transaction_valid", nil),
	"TRANSACTION_APPLICABILITY": o("protocol_valid", true, "transaction_valid", false),
	"ACCEPTED":                  o("protocol_valid", true, "transaction_valid", true),
}

// fact builds a change fact; its end and counts follow from the texts.
func fact(op, cid string, start int, matched, repl any) obj {
	return o("change_id", cid, "operation", op, "span_start", start, "span_end", start+runes(matched),
		"matched_chars", runes(matched), "replacement_chars", runes(repl), "matched_text", matched, "replacement_text", repl)
}

// M, S and RA are facts of a match, a span and a replace_all operation.
func M(cid string, start int, matched, repl any) obj { return fact("match", cid, start, matched, repl) }
func S(cid string, start int, matched, repl any) obj { return fact("span", cid, start, matched, repl) }
func RA(cid string, whole, repl any) obj             { return fact("replace_all", cid, 0, whole, repl) }
func Wn(code, cid string) obj {
	if cid == "" {
		return o("code", code)
	}
	return o("code", code, "change_id", cid)
}

func sha(s string) string {
	h := sha256.Sum256([]byte(s))
	return hex.EncodeToString(h[:])
}

func (c *C) encode() []byte {
	ids := requirementIDs(c)
	var b strings.Builder
	b.WriteString("{\n")
	fmt.Fprintf(&b, "  \"requirements\": %s,\n", enc(ids))
	fmt.Fprintf(&b, "  \"description\": %s,\n", enc(c.why))
	if c.rec {
		b.WriteString("  \"recommended\": true,\n")
	}
	txMember := "transaction"
	if c.batch {
		b.WriteString("  \"operation\": \"observed_batch\",\n")
		txMember = "batch"
	}
	req := obj{}
	if c.profile != nil {
		req = append(req, kv{"runtime_version", c.profile})
	}
	req = append(req, kv{"target", c.target})
	if c.tv != nil {
		req = append(req, kv{"target_version", c.tv})
	}
	req = append(req, kv{txMember, c.tx})
	if c.scope != nil {
		req = append(req, kv{"scope_bounds", c.scope})
	}
	if c.cw != nil {
		req = append(req, kv{"collect_warnings", c.cw})
	}
	b.WriteString("  \"request\": " + block(req, "  ") + ",\n")
	v := validity[c.stage].with("task_correct", "not_evaluated", "semantic", "not_evaluated")
	exp := o("status", c.status, "validation_stage", c.stage, "validity", v)
	if c.status == "accepted" {
		exp = exp.with("failure_reason", nil, "result_text", c.result)
		if c.batch {
			exp = exp.with("assembly_order", c.order)
		}
		exp = exp.with("change_facts", listOf(c.facts), "warnings", c.warns)
		if c.after != "" {
			exp = exp.with("after_hash", c.after)
		}
	} else {
		exp = exp.with("failure_reason", c.label)
		req, rec := splitDiag(c.diag)
		rec = append(rec, c.drec...)
		if req != nil {
			exp = exp.with("diagnostic", req)
		}
		if rec != nil {
			exp = exp.with("diagnostic_recommended", rec)
		}
		if c.lens != nil {
			exp = exp.with("diagnostic_lengths", c.lens)
		}
	}
	if c.before != "" {
		exp = exp.with("before_hash", c.before)
	}
	b.WriteString("  \"expect\": " + block(exp, "  ") + "\n}\n")
	return []byte(b.String())
}

func listOf(fs []obj) []any {
	out := make([]any, len(fs))
	for i, f := range fs {
		out[i] = f
	}
	return out
}

// block writes x one member per line; a list of objects one item per line.
func block(x obj, indent string) string {
	var b strings.Builder
	b.WriteString("{\n")
	for i, m := range x {
		b.WriteString(indent + "  " + enc(m.k) + ": ")
		if l, ok := m.v.([]any); ok && len(l) > 0 {
			if _, isObj := l[0].(obj); isObj {
				b.WriteString("[\n")
				for j, it := range l {
					b.WriteString(indent + "    " + enc(it))
					if j < len(l)-1 {
						b.WriteString(",")
					}
					b.WriteString("\n")
				}
				b.WriteString(indent + "  ]")
				goto next
			}
		}
		b.WriteString(enc(m.v))
	next:
		if i < len(x)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString(indent + "}")
	return b.String()
}

// splitDiag parts a diagnostic subset into the members whose values the
// seed states (checked strictly) and those only spec/patchdiff chose
// (diagnostic_recommended): where an excerpt starts and what it holds,
// which candidates are listed and their count, how the failing operation
// is named, spellings the seed does not give, the actual_text of a bounds
// failure.
func splitDiag(d obj) (req, rec obj) {
	boundsCheck := false
	for _, m := range d {
		if m.k == "span_check" && m.v == "bounds" {
			boundsCheck = true
		}
	}
	for _, m := range d {
		if m.k == "failure_context" {
			var fr, fo obj
			for _, f := range m.v.(obj) {
				if pdcases.SeedStates(f.k, f.v, true, boundsCheck) {
					fr = append(fr, f)
				} else {
					fo = append(fo, f)
				}
			}
			if fr != nil {
				req = append(req, kv{m.k, fr})
			}
			if fo != nil {
				rec = append(rec, kv{m.k, fo})
			}
			continue
		}
		if pdcases.SeedStates(m.k, m.v, false, boundsCheck) {
			req = append(req, m)
		} else {
			rec = append(rec, m)
		}
	}
	return req, rec
}

// DR adds members to diagnostic_recommended directly.
func (c *C) DR(pairs ...any) *C { c.drec = c.drec.with(pairs...); return c }
