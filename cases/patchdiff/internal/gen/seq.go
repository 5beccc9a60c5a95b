package main

func init() { areas = append(areas, seqCases, factCases) }

func seqCases() []*C {
	smi := "sequential_match_invalid"
	return []*C{
		A("seq/chain", "edit 2 matches the text edit 1 wrote", "a\n", tx1(e("a", "b"), e("b", "c")), "c\n", M("chg_001", 0, "a", "b"), M("chg_002", 0, "b", "c")).T("SEQ-001", "FACT-002"),
		A("seq/shifted-offsets", "edit 2's span is in the buffer after edit 1: \"three\" is at 6, not 8", "one two three\n", tx1(e("one", "1"), e("three", "3")), "1 two 3\n", M("chg_001", 0, "one", "1"), M("chg_002", 6, "three", "3")).T("SEQ-001", "FACT-002"),
		A("seq/across-replacement", "edit 2 matches across the boundary of edit 1's replacement", "ab cd", tx1(e("b", "X"), e("aX", "Y")), "Y cd", M("chg_001", 1, "b", "X"), M("chg_002", 0, "aX", "Y")).T("SEQ-001"),
		A("seq/ambiguous-becomes-unique", "\"x\" occurs twice at the start but once after edit 1", "x x\n", tx1(e("x ", ""), e("x", "y")), "y\n", M("chg_001", 0, "x ", ""), M("chg_002", 0, "x", "y")).T("SEQ-001"),
		R("seq/match-removed", "edit 2's \"bar\" was at 4 of the start text but edit 1 replaced it", "foo bar\n", tx1(e("foo bar", "baz"), e("bar", "qux")), smi).
			D("edit_index", 2, "change_id", "chg_002", "failure_context", fc("intermediate_buffer", 1, 4),
				"original_occurrences", []any{o("occurrence_index", 1, "span_start", 4, "span_end", 7, "overlapped_by", "chg_001")}).T("SEQ-003", "EVIDENCE-008", "EVIDENCE-003"),
		R("seq/match-partly-overlapped", "\"world\" (6..11) lost its w to edit 1's span 3..7", "hello world", tx1(e("lo w", "LO_W"), e("world", "earth")), smi).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 6, "span_end", 11, "overlapped_by", "chg_001")}).T("SEQ-003", "EVIDENCE-011"),
		R("seq/both-originals-removed", "both original \"x\" were inside edit 1's span", "x-x", tx1(e("x-x", "y"), e("x", "z")), smi).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 0, "span_end", 1, "overlapped_by", "chg_001"), o("occurrence_index", 2, "span_start", 2, "span_end", 3, "overlapped_by", "chg_001")}).T("SEQ-003", "EVIDENCE-008"),
		R("seq/third-edit-removed", "edit 3's match was removed by edit 2; overlapped_by names chg_002", "a b c\n", tx1(e("a", "A"), e("b c", "B"), e("c", "C")), smi).
			D("edit_index", 3, "change_id", "chg_003", "failure_context", fc("intermediate_buffer", 2, 4),
				"original_occurrences", []any{o("occurrence_index", 1, "span_start", 4, "span_end", 5, "overlapped_by", "chg_002")}).T("SEQ-003", "EVIDENCE-008"),
		R("seq/overlap-follows-earlier-shift", "edit 1 deletes the \"aa\" before the original \"XYZ\" (2..5), edit 2 changes the \"W\" after it and edit 3 its \"Y\": the change that overlapped it is edit 3, not edit 2", "aaXYZW",
			tx1(e("aa", ""), e("W", "w"), e("Y", "y"), e("XYZ", "Q")), smi).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 2, "span_end", 5, "overlapped_by", "chg_003")}).T("SEQ-003", "EVIDENCE-008", "EVIDENCE-011"),
		R("seq/absent-in-both", "edit 2's match is in neither buffer: match_absent, on the intermediate buffer", "a\n", tx1(e("a", "b"), e("z", "y")), "match_absent").
			D("edit_index", 2, "failure_context", fc("intermediate_buffer", 1, 2), "near_miss_query", "z", "match_absent_prefix", "b\n").T("FIND-004", "SEQ-003", "EVIDENCE-003"),
		R("seq/first-edit-never-sequential", "edit 1 that finds nothing is match_absent, never sequential", "abc", tx1(e("zz", "y")), "match_absent").
			D("edit_index", 1, "change_id", "chg_001", "failure_context", fc("transaction_start", 0, 3)).T("FIND-004", "EVIDENCE-009"),
		R("seq/becomes-ambiguous", "edit 1 makes a second \"b\": edit 2 is ambiguous in the sequential buffer", "ab\n", tx1(e("a", "b"), e("b", "c")), "match_ambiguous").
			D("failure_detail", "selectors_count_sequential_buffer", "candidate_count", 2, "failure_context", fc("intermediate_buffer", 1, 3)).T("SEQ-004", "EVIDENCE-005"),
		R("seq/index-out-of-range-sequential", "occurrence_index counts the sequential buffer: after edit 1 only one \"x\" is left, so index 2 selects nothing", "x x\n", tx1(e("x ", ""), e("x", "y", "occurrence_index", 2)), "disambiguation_invalid").
			D("failure_detail", "selectors_count_sequential_buffer").T("SEQ-004", "EVIDENCE-005", "SELECT-010"),
		R("seq/no-partial-result", "edit 3 fails, so edits 1 and 2 leave no result_text and no fact", "a b c\n", tx1(e("a", "A"), e("b", "B"), e("q", "Q")), "match_absent").
			D("edit_index", 3, "failure_context", fc("intermediate_buffer", 2, 6)).T("SEQ-002", "FACT-006"),
		R("seq/unique-in-original-removed", "edit 2's only original occurrence was deleted by edit 1", "keep drop\n", tx1(e(" drop", ""), e("drop", "x")), smi).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 5, "span_end", 9, "overlapped_by", "chg_001")}).T("SEQ-003"),
		R("seq/no-near-miss-for-sequential", "sequential_match_invalid records original occurrences and no near-miss query", "ab\n", tx1(e("ab", "c"), e("b", "d")), smi).
			D("near_miss_query", nil).T("EVIDENCE-008"),
		A("seq/delete-then-insert", "a deletion then an edit at the same place", "abc", tx1(e("b", ""), e("ac", "aXc")), "aXc", M("chg_001", 1, "b", ""), M("chg_002", 0, "ac", "aXc")).T("SEQ-001", "FACT-002"),
		A("seq/crlf-sequential", "sequential offsets are in canonical code points: CRLF counts one", "a\r\nb\r\nc", tx1(e("a", "AA"), e("c", "C")), "AA\nb\nC", M("chg_001", 0, "a", "AA"), M("chg_002", 5, "c", "C")).T("SEQ-001", "CANON-001"),
	}
}

func factCases() []*C {
	return []*C{
		A("fact/sequential-coordinates", "\"ccc\" is at 8 of the start text but at 6 of the buffer edit 2 saw", "aaa bbb ccc", tx1(e("aaa", "A"), e("ccc", "C")), "A bbb C", M("chg_001", 0, "aaa", "A"), M("chg_002", 6, "ccc", "C")).T("FACT-002"),
		A("fact/growth", "a longer replacement pushes later spans right", "a b", tx1(e("a", "xyz"), e("b", "B")), "xyz B", M("chg_001", 0, "a", "xyz"), M("chg_002", 4, "b", "B")).T("FACT-002", "FACT-003"),
		A("fact/code-points-after-non-ascii-replacement", "edit 1 writes \u00e9 (one code point, two UTF-8 bytes) into an ASCII target: edit 2's \"b\" is at code point 2 of \"\u00e9 b\", not at its byte offset 3", "a b",
			tx1(e("a", "\u00e9"), e("b", "B")), "\u00e9 B", M("chg_001", 0, "a", "\u00e9"), M("chg_002", 2, "b", "B")).T("FACT-002", "FIND-005", "SEQ-001"),
		A("fact/deletion-chars", "a deletion has replacement_chars 0", "a--b", tx1(e("--", "")), "ab", M("chg_001", 1, "--", "")).T("FACT-003"),
		A("fact/order", "facts come in operation order, not offset order", "a b c", tx1(e("c", "C"), e("a", "A"), e("b", "B")), "A B C", M("chg_001", 4, "c", "C"), M("chg_002", 0, "a", "A"), M("chg_003", 2, "b", "B")).T("FACT-001"),
		A("fact/given-change-ids", "facts carry the given change_ids", "a b", tx1(e("a", "A", "change_id", "upper-a"), e("b", "B", "change_id", "upper-b")), "A B", M("upper-a", 0, "a", "A"), M("upper-b", 2, "b", "B")).T("FACT-001", "DECODE-013"),
		A("fact/operation-match", "a tx/1 edit's fact has operation \"match\"", T0, tx1(ok0()), R0, F0).T("FACT-004"),
		A("fact/tx2-match-operation", "a tx/2 match operation's fact has operation \"match\"", T0, tx2(om("beta", "BETA")), R0, F0).P(P030).T("FACT-004", "PROFILE-004"),
		A("fact/supplementary-chars", "matched_chars and replacement_chars count code points", "\U0001F600\U0001F600!", tx1(e("\U0001F600\U0001F600", "\U0001F44D")), "\U0001F44D!", M("chg_001", 0, "\U0001F600\U0001F600", "\U0001F44D")).T("FACT-003", "FIND-005"),
		A("fact/result-text", "result_text is the buffer after the last operation", "1\n2\n3\n", tx1(e("1\n", ""), e("3", "three")), "2\nthree\n", M("chg_001", 0, "1\n", ""), M("chg_002", 2, "3", "three")).T("FACT-005"),
	}
}
