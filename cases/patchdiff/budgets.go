package pdcases

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// checkBudgets checks what the seed states as bounds rather than values
// (EVIDENCE-001, EVIDENCE-004, EVIDENCE-006 to EVIDENCE-008, SPAN-004),
// whatever a case pins: no diagnostic string exceeds its budget, and where
// the failing buffer is the transaction-start buffer (the canonical target,
// which the case knows) each excerpt, context, preview and prefix is the
// buffer text it claims to be.
func checkBudgets(c *Case, got *Result) []string {
	var d []string
	add := func(format string, args ...any) { d = append(d, fmt.Sprintf(format, args...)) }
	b := pdspec.Budget()
	diag := got.Diagnostic
	var buf []rune // the transaction-start buffer, when it is the failing one
	fc, _ := diag["failure_context"].(map[string]any)
	// An observed batch's failing buffer is a group's slice (BATCH-015),
	// which only its scope locates: no text is compared there.
	if fc != nil && fc["buffer"] == "transaction_start" && c.Operation != OperationObservedBatch {
		if t, err := c.Request.Target.String(); err == nil {
			buf = []rune(Canonicalize(t))
		}
	}
	within := func(name string, v any, limit int) (string, bool) {
		s, ok := v.(string)
		if !ok {
			return "", false
		}
		if n := utf8.RuneCountInString(s); n > limit {
			add("diagnostic.%s: %d code points, over the budget of %d", name, n, limit)
		}
		return s, true
	}
	if fc != nil {
		if s, ok := within("failure_context.excerpt", fc["excerpt"], b.FailureContext); ok && buf != nil {
			start, _ := intOf(fc["excerpt_start"])
			if start < 0 || start > len(buf) || !strings.HasPrefix(string(buf[start:]), s) {
				add("diagnostic.failure_context.excerpt: not the buffer's text at excerpt_start %d", start)
			}
		}
	}
	if cs, ok := diag["candidates"].([]any); ok {
		if len(cs) > b.Candidates {
			add("diagnostic.candidates: %d, over the budget of %d", len(cs), b.Candidates)
		}
		for i, x := range cs {
			m, _ := x.(map[string]any)
			name := "candidates." + strconv.Itoa(i)
			before, okB := within(name+".context_before", m["context_before"], b.CandidateContext)
			after, okA := within(name+".context_after", m["context_after"], b.CandidateContext)
			preview, okP := within(name+".preview", m["preview"], b.CandidatePreview)
			s, okS := intOf(m["span_start"])
			e, okE := intOf(m["span_end"])
			if buf == nil || !okS || !okE || s < 0 || s > e || e > len(buf) {
				continue
			}
			if okB && !strings.HasSuffix(string(buf[:s]), before) {
				add("diagnostic.%s.context_before: not the text before the candidate", name)
			}
			if okA && !strings.HasPrefix(string(buf[e:]), after) {
				add("diagnostic.%s.context_after: not the text after the candidate", name)
			}
			if okP && !strings.HasPrefix(string(buf[s:e]), preview) {
				add("diagnostic.%s.preview: not the candidate's text", name)
			}
		}
	}
	within("near_miss_query", diag["near_miss_query"], b.NearMissQuery)
	within("actual_text", diag["actual_text"], b.ActualText)
	if s, ok := within("match_absent_prefix", diag["match_absent_prefix"], b.MatchAbsentPrefix); ok && buf != nil && !strings.HasPrefix(string(buf), s) {
		add("diagnostic.match_absent_prefix: not a prefix of the buffer")
	}
	if oo, ok := diag["original_occurrences"].([]any); ok && len(oo) > b.OriginalOccurrences {
		add("diagnostic.original_occurrences: %d, over the budget of %d", len(oo), b.OriginalOccurrences)
	}
	return d
}

// checkLengths checks the code-point lengths a case pins
// (diagnostic_lengths).
func checkLengths(c *Case, got *Result) []string {
	var d []string
	for _, p := range sortedKeys(c.Expect.DiagnosticLengths) {
		want := c.Expect.DiagnosticLengths[p]
		s, ok := stringAt(got.Diagnostic, p)
		switch {
		case !ok:
			d = append(d, fmt.Sprintf("diagnostic.%s: want a string of %d code points, got none", p, want))
		case utf8.RuneCountInString(s) != want:
			d = append(d, fmt.Sprintf("diagnostic.%s: want %d code points, got %d", p, want, utf8.RuneCountInString(s)))
		}
	}
	return d
}

// stringAt follows a dotted path (numbers index lists) to a string.
func stringAt(v any, path string) (string, bool) {
	for _, part := range strings.Split(path, ".") {
		switch x := v.(type) {
		case map[string]any:
			v = x[part]
		case []any:
			i, err := strconv.Atoi(part)
			if err != nil || i < 0 || i >= len(x) {
				return "", false
			}
			v = x[i]
		default:
			return "", false
		}
	}
	s, ok := v.(string)
	return s, ok
}

func intOf(v any) (int, bool) {
	n, ok := number(v)
	if !ok || !n.IsInt() || !n.Num().IsInt64() {
		return 0, false
	}
	return int(n.Num().Int64()), true
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
