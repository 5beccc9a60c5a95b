package pdfuzz

import (
	"bytes"
	"encoding/json"
	"fmt"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
)

// reasonRequirements maps a failure_reason to the requirement that most
// directly names it: a start for the reviewer of a found case, who names
// the exact requirements before it joins the corpus.
var reasonRequirements = map[string]string{
	"": "FACT-001", "manifest_missing": "DECODE-009", "manifest_invalid": "DECODE-003",
	"target_encoding_invalid": "CANON-008", "context_invalid": "PROFILE-002", "context_missing": "GUARD-001",
	"target_hash_mismatch": "GUARD-003", "target_version_mismatch": "GUARD-002", "match_absent": "FIND-004",
	"match_ambiguous": "SELECT-001", "disambiguation_invalid": "SELECT-006", "sequential_match_invalid": "SEQ-003",
	"span_out_of_bounds": "SPAN-001", "span_expected_text_mismatch": "SPAN-002", "transaction_internal_error": "STAGE-007",
}

// caseDoc is a case file, members in the order of cases/patchdiff/README.md.
type caseDoc struct {
	Requirements []string        `json:"requirements"`
	Description  string          `json:"description"`
	Request      json.RawMessage `json:"request"`
	Expect       expectDoc       `json:"expect"`
}

type expectDoc struct {
	Status                string         `json:"status"`
	ValidationStage       any            `json:"validation_stage"`
	Validity              any            `json:"validity"`
	FailureReason         any            `json:"failure_reason"`
	ResultText            *string        `json:"result_text,omitempty"`
	ChangeFacts           *[]factDoc     `json:"change_facts,omitempty"`
	Warnings              *[]any         `json:"warnings,omitempty"`
	Diagnostic            map[string]any `json:"diagnostic,omitempty"`
	DiagnosticRecommended map[string]any `json:"diagnostic_recommended,omitempty"`
}

type factDoc struct {
	ChangeID         any    `json:"change_id"`
	Operation        any    `json:"operation"`
	SpanStart        int    `json:"span_start"`
	SpanEnd          int    `json:"span_end"`
	MatchedChars     any    `json:"matched_chars"`
	ReplacementChars any    `json:"replacement_chars"`
	MatchedText      string `json:"matched_text"`
	ReplacementText  string `json:"replacement_text"`
}

// caseFile makes the case of a call whose expectation is ref, a result
// document: the request as sent, and every member of ref the case format
// holds, the diagnostic sorted by pdcases.SeedStates (its message left
// out). The facts' texts are recovered by replaying the facts on the
// canonical target with the transaction's canonical replacement texts.
func caseFile(call Call, req []byte, ref map[string]any, description string) ([]byte, error) {
	reason, _ := ref["failure_reason"].(string)
	doc := caseDoc{Requirements: []string{reasonRequirements[reason]}, Description: description, Request: req}
	e := &doc.Expect
	e.Status, _ = ref["status"].(string)
	e.ValidationStage, e.Validity, e.FailureReason = ref["validation_stage"], ref["validity"], ref["failure_reason"]
	if doc.Requirements[0] == "" {
		doc.Requirements[0] = "STAGE-005"
	}
	if e.Status == pdcases.Accepted {
		text, _ := ref["result_text"].(string)
		e.ResultText = &text
		facts, err := factTexts(call, ref)
		if err != nil {
			return nil, err
		}
		e.ChangeFacts = &facts
		ws, _ := ref["warnings"].([]any)
		if ws == nil {
			ws = []any{}
		}
		e.Warnings = &ws
	} else if d, ok := ref["diagnostic"].(map[string]any); ok {
		e.Diagnostic, e.DiagnosticRecommended = splitDiagnostic(d)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// splitDiagnostic parts a diagnostic into what the seed states and what
// only spec/patchdiff chose, by pdcases.SeedStates.
func splitDiagnostic(d map[string]any) (stated, recommended map[string]any) {
	stated, recommended = map[string]any{}, map[string]any{}
	bounds := d["span_check"] == "bounds"
	for k, v := range d {
		switch {
		case k == "message":
		case k == "failure_context":
			fc, _ := v.(map[string]any)
			s, r := map[string]any{}, map[string]any{}
			for fk, fv := range fc {
				if pdcases.SeedStates(fk, fv, true, bounds) {
					s[fk] = fv
				} else {
					r[fk] = fv
				}
			}
			if len(s) > 0 {
				stated[k] = s
			}
			if len(r) > 0 {
				recommended[k] = r
			}
		case pdcases.SeedStates(k, v, false, bounds):
			stated[k] = v
		default:
			recommended[k] = v
		}
	}
	if len(stated) == 0 {
		stated = nil
	}
	if len(recommended) == 0 {
		recommended = nil
	}
	return stated, recommended
}

// factTexts replays an accepted result's facts on the canonical target
// and returns them with their matched and replacement texts.
func factTexts(call Call, ref map[string]any) ([]factDoc, error) {
	tx, err := pd.Decode(call.Request.RuntimeVersion, call.Request.Transaction)
	if err != nil {
		return nil, fmt.Errorf("an accepted transaction does not decode: %w", err)
	}
	facts, _ := ref["change_facts"].([]any)
	if len(facts) != len(tx.Operations) {
		return nil, fmt.Errorf("%d facts for %d operations", len(facts), len(tx.Operations))
	}
	buf := []rune(call.Start)
	out := []factDoc{}
	for i, f := range facts {
		m, _ := f.(map[string]any)
		from, _ := m["span_start"].(float64)
		to, _ := m["span_end"].(float64)
		a, b := int(from), int(to)
		if a < 0 || a > b || b > len(buf) {
			return nil, fmt.Errorf("fact %d: span [%d, %d) outside the buffer's %d code points", i+1, a, b, len(buf))
		}
		repl := []rune(pdcases.Canonicalize(tx.Operations[i].Replace))
		out = append(out, factDoc{ChangeID: m["change_id"], Operation: m["operation"], SpanStart: a, SpanEnd: b,
			MatchedChars: m["matched_chars"], ReplacementChars: m["replacement_chars"],
			MatchedText: string(buf[a:b]), ReplacementText: string(repl)})
		buf = append(append(append([]rune{}, buf[:a]...), repl...), buf[b:]...)
	}
	return out, nil
}
