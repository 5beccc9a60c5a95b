package main

import "strings"

func init() { areas = append(areas, evidenceCases) }

// Lens pins the code-point lengths of diagnostic strings, by dotted path.
func (c *C) Lens(pairs ...any) *C { c.lens = c.lens.with(pairs...); return c }

func evidenceCases() []*C {
	ma, amb := "match_absent", "match_ambiguous"
	thousand := pieces{rep{"0123456789", 100}}
	big := pieces{rep{"0123456789abcdef", 65536}}
	dash := func(n int) string { return strings.Repeat("-", n) }
	x64 := strings.Repeat("q", 64)
	return []*C{
		R("evidence/absent-small", "match_absent on a short buffer: the whole buffer as prefix excerpt, near-miss query and prefix", "hello\n", tx1(e("help", "x")), ma).
			D("failure_context", o("buffer", "transaction_start", "prior_changes", 0, "buffer_length", 6, "excerpt_kind", "prefix", "excerpt_start", 0, "excerpt", "hello\n"),
				"near_miss_query", "help", "near_miss_status", "captured", "match_absent_prefix", "hello\n", "edit_index", 1, "change_id", "chg_001").T("EVIDENCE-001", "EVIDENCE-002", "EVIDENCE-006", "EVIDENCE-007", "EVIDENCE-009"),
		R("evidence/absent-excerpt-256", "the excerpt of a 1000-point buffer is its first 256 code points", thousand, tx1(e("x", "y")), ma).
			D("failure_context", o("buffer_length", 1000, "excerpt_kind", "prefix", "excerpt_start", 0, "excerpt", strings.Repeat("0123456789", 25)+"012345")).
			Lens("match_absent_prefix", 1000).T("EVIDENCE-001", "EVIDENCE-002"),
		R("evidence/absent-one-mib", "a 1 MiB buffer: excerpt 256 code points, match_absent_prefix exactly 65,536", big, tx1(e("zz", "y")), ma).
			D("failure_context", o("buffer_length", 1048576, "excerpt_kind", "prefix", "excerpt_start", 0), "near_miss_query", "zz").
			Lens("match_absent_prefix", 65536, "failure_context.excerpt", 256).T("EVIDENCE-007", "EVIDENCE-001"),
		R("evidence/absent-prefix-emoji", "the prefix budget counts code points: 70,000 emoji give 65,536 of them", pieces{rep{"\U0001F600", 70000}}, tx1(e("x", "y")), ma).
			D("failure_context", o("buffer_length", 70000)).Lens("match_absent_prefix", 65536, "failure_context.excerpt", 256).T("EVIDENCE-007", "FIND-005"),
		R("evidence/near-miss-64", "a 64-point match is captured as the near-miss query", "abc", tx1(e(x64, "y")), ma).D("near_miss_query", x64, "near_miss_status", "captured").T("EVIDENCE-006"),
		R("evidence/near-miss-65", "a 65-point match is match_too_large, with no query", "abc", tx1(e(x64+"q", "y")), ma).D("near_miss_query", nil, "near_miss_status", "match_too_large").T("EVIDENCE-006"),
		R("evidence/near-miss-64-emoji", "64 emoji are 64 code points (256 bytes): captured", "abc", tx1(e(strings.Repeat("\U0001F600", 64), "y")), ma).D("near_miss_query", strings.Repeat("\U0001F600", 64), "near_miss_status", "captured").T("EVIDENCE-006", "FIND-005"),
		R("evidence/near-miss-canonical", "the query is the canonical match: \"q\\r\\nr\" is \"q\\nr\"", "abc", tx1(e("q\r\nr", "y")), ma).D("near_miss_query", "q\nr").T("EVIDENCE-006", "CANON-001"),
		R("evidence/near-miss-canonical-64", "65 submitted code points with one CRLF are 64 canonical: captured", "abc", tx1(e(strings.Repeat("x", 62)+"\r\ny", "y")), ma).
			D("near_miss_query", strings.Repeat("x", 62)+"\ny", "near_miss_status", "captured").T("EVIDENCE-006", "CANON-001"),
		R("evidence/candidates-five", "seven occurrences: five candidates, the first five of the global list, and the count 7", "aaaaaaa", tx1(e("a", "b")), amb).
			D("candidate_count", 7, "candidates", []any{cand(1, 0, 1), cand(2, 1, 2), cand(3, 2, 3), cand(4, 3, 4), cand(5, 4, 5)}).T("EVIDENCE-004"),
		R("evidence/candidates-disambiguation", "disambiguation_invalid carries the candidates too", TS, tx1(e("x", "y", "occurrence_index", 9)), "disambiguation_invalid").
			D("candidate_count", 3, "candidates", []any{cand(1, 0, 1), cand(2, 6, 7), cand(3, 12, 13)}, "failure_detail", nil).T("EVIDENCE-004", "SELECT-007"),
		R("evidence/candidate-context-20", "candidate contexts of 20 code points each side, cut at the buffer's ends", "abcdefghijklmnopqrstuvwxyzXabcdefghijklmnopqrstuvwxyzX0123", tx1(e("X", "y")), amb).
			D("candidates", []any{
				cand(1, 26, 27).with("context_before", "ghijklmnopqrstuvwxyz", "context_after", "abcdefghijklmnopqrst", "preview", "X"),
				cand(2, 53, 54).with("context_before", "ghijklmnopqrstuvwxyz", "context_after", "0123", "preview", "X")}).Rec().T("EVIDENCE-004"),
		R("evidence/candidate-preview-64", "a 100-point match previews its first 64 code points", strings.Repeat("m", 100)+"|"+strings.Repeat("m", 100), tx1(e(strings.Repeat("m", 100), "y")), amb).
			D("candidate_count", 2).Lens("candidates.0.preview", 64, "candidates.0.context_before", 0, "candidates.0.context_after", 20).Rec().T("EVIDENCE-004"),
		R("evidence/window-middle", "ambiguous x at 500 and 701 of 1000: a window from 372, 128 points before the first candidate", pieces{rep{"-", 500}, "x", rep{"-", 200}, "x", rep{"-", 298}}, tx1(e("x", "y")), amb).
			D("failure_context", o("buffer_length", 1000, "excerpt_kind", "window", "excerpt_start", 372, "excerpt", dash(128)+"x"+dash(127))).T("EVIDENCE-002"),
		R("evidence/window-at-end", "a window near the end starts at length - 256 = 744", pieces{rep{"-", 995}, "xx---"}, tx1(e("x", "y")), amb).
			D("failure_context", o("excerpt_kind", "window", "excerpt_start", 744, "excerpt", dash(251)+"xx---")).T("EVIDENCE-002"),
		R("evidence/window-at-start", "a window around position 0 starts at 0", pieces{"x", rep{"-", 500}, "x"}, tx1(e("x", "y")), amb).
			D("failure_context", o("excerpt_kind", "window", "excerpt_start", 0, "excerpt", "x"+dash(255))).T("EVIDENCE-002"),
		R("evidence/window-short-buffer", "a window over a buffer shorter than 256 is the whole buffer", "aaa", tx1(e("aa", "b")), amb).
			D("failure_context", o("excerpt_kind", "window", "excerpt_start", 0, "excerpt", "aaa", "buffer_length", 3)).T("EVIDENCE-002"),
		R("evidence/window-span", "a span failure's window is around its start 600", thousand, tx2(os_(600, 602, "zz", "")), "span_expected_text_mismatch").P(P030).
			D("failure_context", o("excerpt_kind", "window", "excerpt_start", 472), "actual_text", "01").Lens("failure_context.excerpt", 256).T("EVIDENCE-002", "SPAN-004"),
		R("evidence/original-occurrences-five", "seven original occurrences all removed: five recorded", "x x x x x x x", tx1(e("x x x x x x x", "y"), e("x", "z")), "sequential_match_invalid").
			D("original_occurrences", []any{
				o("occurrence_index", 1, "span_start", 0, "span_end", 1, "overlapped_by", "chg_001"), o("occurrence_index", 2, "span_start", 2, "span_end", 3, "overlapped_by", "chg_001"),
				o("occurrence_index", 3, "span_start", 4, "span_end", 5, "overlapped_by", "chg_001"), o("occurrence_index", 4, "span_start", 6, "span_end", 7, "overlapped_by", "chg_001"),
				o("occurrence_index", 5, "span_start", 8, "span_end", 9, "overlapped_by", "chg_001")}).T("EVIDENCE-008"),
		R("evidence/overlapped-by-first", "an original occurrence overlapped by two earlier changes names the first", "abc abc", tx1(e("abc ", "Q"), e("Q", ""), e("abc ", "z")), "sequential_match_invalid").
			DR("original_occurrences", []any{o("occurrence_index", 1, "span_start", 0, "span_end", 4, "overlapped_by", "chg_001")}).T("EVIDENCE-008", "EVIDENCE-011"),
		R("evidence/named-operation", "the failing operation is named by index and given change_id", "a b c", tx1(e("a", "A"), e("b", "B"), e("zz", "y", "change_id", "third")), ma).
			D("edit_index", 3, "change_id", "third", "failure_context", fc("intermediate_buffer", 2, 5)).T("EVIDENCE-009", "EVIDENCE-001", "EVIDENCE-003"),
		R("evidence/no-detail-first-edit", "an ambiguity on the first operation has no failure_detail", "aa", tx1(e("a", "b")), amb).D("failure_detail", nil, "failure_context", fc("transaction_start", 0, 2)).T("EVIDENCE-005", "EVIDENCE-003"),
		R("evidence/one-mib-ambiguous", "524,288 overlapping-free occurrences of \"ab\" in 1 MiB: five candidates and the exact count", pieces{rep{"ab", 524288}}, tx1(e("ab", "x")), amb).
			D("candidate_count", 524288, "candidates", []any{cand(1, 0, 2), cand(2, 2, 4), cand(3, 4, 6), cand(4, 6, 8), cand(5, 8, 10)},
				"failure_context", o("buffer_length", 1048576, "excerpt_kind", "window", "excerpt_start", 0)).Lens("failure_context.excerpt", 256).T("EVIDENCE-004", "FIND-003"),
		A("evidence/one-mib-accepted", "a unique match at the end of a 1 MiB target", pieces{rep{"0123456789abcdef", 65536}, "END"}, tx1(e("END", "end")),
			pieces{rep{"0123456789abcdef", 65536}, "end"}, M("chg_001", 1048576, "END", "end")).T("FIND-005", "FACT-002"),
	}
}
