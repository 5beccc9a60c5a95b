package pdfuzz

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/leanovate/gopter"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/proptest"
	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// specs draws calls with Random, narrowed by narrow, and shrinks them
// with Shrink, so counterexamples come out as small requests.
func specs(narrow func(*Spec)) gopter.Gen {
	return func(gp *gopter.GenParameters) *gopter.GenResult {
		s := Random(NewRand(gp.Rng.Uint64(), 0))
		if narrow != nil {
			narrow(&s)
		}
		return gopter.NewGenResult(s, proptest.Shrinker(Shrink))
	}
}

// check runs one property with n cases (proptest.Check) over calls from
// specs(narrow); a failure shows the shrunk call as its request document.
func check(t *testing.T, n, minDecided int, st *proptest.Stats, narrow func(*Spec), condition func(Spec) string) {
	t.Helper()
	proptest.Check(t, "./fuzz/patchdiff", n, minDecided, st, func(s Spec) string {
		if msg := condition(s); msg != "" {
			req, _ := Build(s).Request.MarshalJSON()
			return msg + "\nrequest: " + string(req)
		}
		return ""
	}, specs(narrow))
}

// clean narrows a Spec to an undamaged transaction with a matching guard
// and no scope, so the operations decide the verdict.
func clean(s *Spec) { s.Mutation, s.Guard, s.Scope = 0, 0, nil }

// accepted builds and applies s; a rejection is counted by its label and
// leaves the property undecided.
func accepted(st *proptest.Stats, s Spec) (Call, pd.Result, bool) {
	c := Build(s)
	r := pd.Apply(c.Request)
	if !r.Accepted() {
		st.Add("rejected " + string(r.Reason()))
	}
	return c, r, r.Accepted()
}

// oneEdit narrows a Spec further to one patchdiff-tx/1 edit.
func oneEdit(s *Spec) {
	clean(s)
	s.Format, s.Ops = 1, s.Ops[:1]
}

// profileIndex returns the index of profile in pdspec.ProfileNames.
func profileIndex(profile string) int { return slices.Index(pdspec.ProfileNames(), profile) }

// operations returns the transaction's operation objects as built.
func operations(c Call) []map[string]any {
	list, ok := c.Transaction["edits"].([]any)
	if !ok {
		list, _ = c.Transaction["operations"].([]any)
	}
	out := make([]map[string]any, len(list))
	for i, op := range list {
		out[i] = op.(map[string]any)
	}
	return out
}

// naiveCount counts the occurrences of m in text by trying every code
// point position (FIND-003's overlapping enumeration, quadratic).
func naiveCount(text, m string) int {
	t, n := []rune(text), []rune(m)
	count := 0
	for i := 0; len(n) > 0 && i+len(n) <= len(t); i++ {
		if slices.Equal(t[i:i+len(n)], n) {
			count++
		}
	}
	return count
}

// replay applies an accepted result's facts to the canonical start text
// with the operations' canonical replacement texts and returns what
// disagrees: a hash, a length, or the final text.
func replay(c Call, r pd.Result) string {
	buf := []rune(c.Start)
	ops := operations(c)
	if len(r.ChangeFacts) != len(ops) {
		return fmt.Sprintf("%d facts for %d operations", len(r.ChangeFacts), len(ops))
	}
	for i, f := range r.ChangeFacts {
		repl := []rune(pdcases.Canonicalize(ops[i]["replace"].(string)))
		if f.SpanStart < 0 || f.SpanStart > f.SpanEnd || f.SpanEnd > len(buf) {
			return fmt.Sprintf("fact %d: span [%d, %d) outside the buffer's %d code points", i+1, f.SpanStart, f.SpanEnd, len(buf))
		}
		matched := string(buf[f.SpanStart:f.SpanEnd])
		switch {
		case f.MatchedChars != f.SpanEnd-f.SpanStart || f.ReplacementChars != len(repl):
			return fmt.Sprintf("fact %d: lengths %d and %d, want %d and %d", i+1, f.MatchedChars, f.ReplacementChars, f.SpanEnd-f.SpanStart, len(repl))
		case f.MatchedSHA256 != pdcases.SHA256(matched):
			return fmt.Sprintf("fact %d: matched_sha256 is not the hash of %q, the text at [%d, %d)", i+1, matched, f.SpanStart, f.SpanEnd)
		case f.ReplacementSHA256 != pdcases.SHA256(string(repl)):
			return fmt.Sprintf("fact %d: replacement_sha256 is not the hash of %q", i+1, string(repl))
		}
		buf = slices.Concat(buf[:f.SpanStart], repl, buf[f.SpanEnd:])
	}
	if string(buf) != *r.ResultText || *r.AfterHash != pdcases.SHA256(string(buf)) {
		return fmt.Sprintf("the facts replayed give %q, result_text is %q", string(buf), *r.ResultText)
	}
	return ""
}

// TestCanonicalizeIsIdempotent: canonical text has no CR, canonicalizing
// it again changes nothing, the reference agrees with the case package's
// own rule, and before_hash is the hash of that canonical text (CANON-001,
// HASH-002).
func TestCanonicalizeIsIdempotent(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 1500, 300, st, nil, func(s Spec) string {
		c := Build(s)
		once := pd.Canonicalize(c.Request.Target)
		switch {
		case strings.Contains(once, "\r"):
			return fmt.Sprintf("canonical text %q holds a CR", once)
		case pd.Canonicalize(once) != once:
			return fmt.Sprintf("canonicalizing %q again gives %q", once, pd.Canonicalize(once))
		case once != pdcases.Canonicalize(c.Request.Target):
			return fmt.Sprintf("the reference canonicalizes %q to %q, the rule to %q", c.Request.Target, once, pdcases.Canonicalize(c.Request.Target))
		}
		r := pd.Apply(c.Request)
		if r.Reason() != pdspec.ContextInvalid && (r.BeforeHash == nil || *r.BeforeHash != pdcases.SHA256(once)) {
			return "before_hash is not the hash of the canonical target"
		}
		if strings.Contains(c.Request.Target, "\r") {
			st.Add("decided")
		}
		return ""
	})
}

// TestOccurrenceCountIsNaive: one match edit without selectors is
// accepted exactly when a quadratic count finds one occurrence, rejected
// with match_absent when it finds none, and with match_ambiguous and that
// candidate_count when it finds more (FIND-003, SELECT-001).
func TestOccurrenceCountIsNaive(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 2000, 400, st, func(s *Spec) {
		oneEdit(s)
		s.Ops[0].Select, s.Ops[0].ChangeID = 0, 0
	}, func(s Spec) string {
		c := Build(s)
		m := pdcases.Canonicalize(operations(c)[0]["match"].(string))
		n := naiveCount(c.Start, m)
		r := pd.Apply(c.Request)
		switch {
		case n == 0 && r.Reason() != pdspec.MatchAbsent,
			n == 1 && !r.Accepted(),
			n > 1 && (r.Reason() != pdspec.MatchAmbiguous || r.Diagnostic.CandidateCount == nil || *r.Diagnostic.CandidateCount != n):
			return fmt.Sprintf("%d occurrences of %q in %q, the runtime says %s %+v", n, m, c.Start, r.Status, r.Diagnostic)
		}
		st.Add(fmt.Sprint("occurrences ", min(n, 2)))
		if n > 1 {
			st.Add("decided")
		}
		return ""
	})
}

// TestOffsetsCountCodePoints: an accepted fact's span, read in code
// points of the buffer, holds the match, also where supplementary
// characters or combining marks before it make bytes and UTF-16 units
// count otherwise (FIND-005, FACT-002).
func TestOffsetsCountCodePoints(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 2000, 200, st, func(s *Spec) {
		oneEdit(s)
		s.Target = append([]int{9, 12, 8}, s.Target...) // 😀, a flag, e and a combining accent first
	}, func(s Spec) string {
		c, r, ok := accepted(st, s)
		if !ok {
			return ""
		}
		f := r.ChangeFacts[0]
		m := pdcases.Canonicalize(operations(c)[0]["match"].(string))
		if got := string([]rune(c.Start)[f.SpanStart:f.SpanEnd]); got != m {
			return fmt.Sprintf("code points [%d, %d) of %q are %q, not the match %q", f.SpanStart, f.SpanEnd, c.Start, got, m)
		}
		if prefix := string([]rune(c.Start)[:f.SpanStart]); len(prefix) != f.SpanStart {
			st.Add("decided") // bytes would count otherwise
		}
		return ""
	})
}

// TestFactsReplayToResult: applying the change facts, in order, to the
// canonical start text with the operations' canonical replacement texts
// finds the matched text each hash names and ends in result_text
// (FACT-001 to FACT-003, HASH-004, HASH-005).
func TestFactsReplayToResult(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 2500, 500, st, clean, func(s Spec) string {
		c, r, ok := accepted(st, s)
		if !ok {
			return ""
		}
		if msg := replay(c, r); msg != "" {
			return msg
		}
		st.Add("decided")
		return ""
	})
}

// TestWarningsChangeNothing: the same call with collect_warnings true and
// false gives the same result but for the warnings, and none when false
// (WARN-005, WARN-006).
func TestWarningsChangeNothing(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 2500, 100, st, nil, func(s Spec) string {
		c := Build(s)
		c.Request.CollectWarnings = true
		loud := pd.Apply(c.Request)
		c.Request.CollectWarnings = false
		quiet := pd.Apply(c.Request)
		if len(quiet.Warnings) != 0 {
			return fmt.Sprintf("warnings with collect_warnings false: %+v", quiet.Warnings)
		}
		quiet.Warnings = loud.Warnings
		a, _ := loud.MarshalJSON()
		b, _ := quiet.MarshalJSON()
		if !bytes.Equal(a, b) {
			return fmt.Sprintf("warnings changed the result:\n%s\n%s", a, b)
		}
		if len(loud.Warnings) > 0 {
			st.Add("decided")
		}
		return ""
	})
}

// TestEditEqualsSpan: an accepted patchdiff-tx/1 transaction and the
// patchdiff-tx/2 transaction of span operations at its facts' spans, with
// the matched texts as expected_text and the same replacements, give the
// same result_text and the same facts but for their operation "span",
// under every profile with spans (SPAN-002, SPAN-003, FACT-004).
func TestEditEqualsSpan(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	spans := []int{profileIndex("patchdiff-mvp-0.3.0"), profileIndex("patchdiff-mvp-0.4.0"), profileIndex("patchdiff-mvp-0.5.0")}
	check(t, 2000, 400, st, func(s *Spec) {
		clean(s)
		s.Format, s.Profile = 1, spans[abs(s.Profile)%len(spans)]
	}, func(s Spec) string {
		c, edits, ok := accepted(st, s)
		if !ok {
			return ""
		}
		buf := []rune(c.Start)
		var ops []any
		for i, f := range edits.ChangeFacts {
			e := operations(c)[i]
			op := map[string]any{"op": "span", "start": f.SpanStart, "end": f.SpanEnd, "expected_text": string(buf[f.SpanStart:f.SpanEnd]), "replace": e["replace"]}
			if id, ok := e["change_id"]; ok {
				op["change_id"] = id
			}
			ops = append(ops, op)
			repl := []rune(pdcases.Canonicalize(e["replace"].(string)))
			buf = slices.Concat(buf[:f.SpanStart], repl, buf[f.SpanEnd:])
		}
		tx := map[string]any{"format": "patchdiff-tx/2", "target_file_id": "target-1", "intent": "fuzz", "expected_target_version": version, "operations": ops}
		req := c.Request
		req.Transaction = Encode(tx)
		spans := pd.Apply(req)
		if !spans.Accepted() || *spans.ResultText != *edits.ResultText {
			return fmt.Sprintf("the edits give %q, the spans %s %v", *edits.ResultText, spans.Status, spans.Reason())
		}
		for i := range edits.ChangeFacts {
			e, sp := edits.ChangeFacts[i], spans.ChangeFacts[i]
			e.Operation = pdspec.OpSpan
			if e != sp {
				return fmt.Sprintf("fact %d: edit %+v, span %+v", i+1, edits.ChangeFacts[i], sp)
			}
		}
		st.Add("decided")
		return ""
	})
}

// TestResultsAreDeterministic: the same request gives byte-identical
// result documents, in process and through the adapter protocol's Respond
// (ADAPTER-005), and the document is one line of valid UTF-8 whose
// change_facts and warnings are lists, never null (ADAPTER-004, WARN-006).
func TestResultsAreDeterministic(t *testing.T) {
	t.Parallel()
	st := &proptest.Stats{}
	check(t, 1500, 1500, st, nil, func(s Spec) string {
		c := Build(s)
		a, _ := pd.Apply(c.Request).MarshalJSON()
		b, _ := pd.Apply(c.Request).MarshalJSON()
		if !bytes.Equal(a, b) || !utf8.Valid(a) || bytes.ContainsAny(a, "\n\r") {
			return fmt.Sprintf("two results of one request differ or are not one line:\n%s\n%s", a, b)
		}
		if bytes.Contains(a, []byte(`"change_facts":null`)) || bytes.Contains(a, []byte(`"warnings":null`)) {
			return fmt.Sprintf("change_facts and warnings must be lists (ADAPTER-004, WARN-006): %s", a)
		}
		req, _ := c.Request.MarshalJSON()
		back, err := pd.DecodeRequest(req)
		if err != nil {
			return fmt.Sprintf("the request document does not decode: %v", err)
		}
		d, _ := pd.Apply(back).MarshalJSON()
		if !bytes.Equal(a, d) {
			return fmt.Sprintf("through the request document the result differs:\n%s\n%s", a, d)
		}
		st.Add("decided")
		return ""
	})
}
