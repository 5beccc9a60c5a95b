package main

import (
	"fmt"
	"strconv"
)

func init() { areas = append(areas, moreCases) }

func moreCases() []*C {
	var cs []*C
	for _, p := range []string{P010, P020, P021} {
		v := vname(p)
		cs = append(cs,
			R("find/overlap-aa-in-aaa-"+v, "historical profiles enumerate overlapping occurrences as 0.2.2 does: ambiguous", "aaa", tx1(e("aa", "b")), "match_ambiguous").P(p).T("PROFILE-007", "FIND-003"),
			A("find/overlap-second-"+v, "historical profiles select the overlapping second occurrence 1..3", "aaa", tx1(e("aa", "b", "occurrence_index", 2)), "ab", M("chg_001", 1, "aa", "b")).P(p).T("PROFILE-007", "FIND-003"),
			R("decode/change-id-duplicate-"+v, "historical profiles check change_id duplicates as 0.2.2 does", "a b\n", tx1(e("a", "A", "change_id", "chg_002"), e("b", "B")), "manifest_invalid").P(p).T("PROFILE-007", "DECODE-014"),
			A("select/anchors-conjunctive-"+v, "with several occurrences historical profiles apply selectors as 0.2.2 does: anchors together keep only the x at 6", TS, tx1(e("x", "y", "anchor_before", "1", "anchor_after", "2")), "x = 1\ny = 2\nx = 3\n", M("chg_001", 6, "x", "y")).P(p).T("SELECT-005", "PROFILE-007"),
			R("select/index-and-anchor-conflict-"+v, "with several occurrences a historical profile rejects constraints that leave nothing", TS, tx1(e("x", "y", "occurrence_index", 1, "anchor_before", "2")), "disambiguation_invalid").P(p).T("SELECT-005", "SELECT-006"),
			R("seq/match-removed-"+v, "historical profiles simulate sequentially and report sequential_match_invalid", "foo bar\n", tx1(e("foo bar", "baz"), e("bar", "qux")), "sequential_match_invalid").P(p).T("SEQ-003", "PROFILE-001"),
		)
	}
	// One thousand chained edits: the buffer is always one number, edit k
	// turns k-1 into k, and the last default change_id is chg_1000.
	var edits []obj
	var facts []obj
	for k := 1; k <= 1000; k++ {
		edits = append(edits, e(strconv.Itoa(k-1), strconv.Itoa(k)))
		facts = append(facts, M(fmt.Sprintf("chg_%03d", k), 0, strconv.Itoa(k-1), strconv.Itoa(k)))
	}
	cs = append(cs,
		A("decode/change-id-thousandth", "the 1000th edit defaults to chg_1000: at least three digits, never cut", "0", tx1(edits...), "1000", facts...).T("DECODE-013", "SEQ-001"),
		R("seq/zero-width-inside-original", "an insertion at 5, inside the original \"bar\" (4..7), destroys it: overlapped_by the insertion", "foo bar", tx2(os_(5, 5, "", "X"), om("bar", "BAR")), "sequential_match_invalid").P(P030).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 4, "span_end", 7, "overlapped_by", "chg_001")}).T("EVIDENCE-011", "SEQ-003"),
		A("seq/zero-width-at-occurrence-start", "an insertion at 4, where \"bar\" starts, leaves it whole", "foo bar", tx2(os_(4, 4, "", "X"), om("bar", "BAR")), "foo XBAR", S("chg_001", 4, "", "X"), M("chg_002", 5, "bar", "BAR")).P(P030).T("EVIDENCE-011", "SEQ-001"),
		R("seq/zero-width-at-occurrence-start-not-named", "an insertion at 2, where \"foo\" starts, leaves it whole; the span that then deletes it (3..6 after the insertion) is the change named", "xxfooyy",
			tx2(os_(2, 2, "", "Z"), os_(3, 6, "foo", ""), om("foo", "bar")), "sequential_match_invalid").P(P030).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 2, "span_end", 5, "overlapped_by", "chg_002")}).T("SEQ-003", "EVIDENCE-008", "EVIDENCE-011"),
		A("seq/zero-width-at-occurrence-end", "an insertion at 7, where \"bar\" ends, leaves it whole", "foo bar", tx2(os_(7, 7, "", "!"), om("bar", "BAR")), "foo BAR!", S("chg_001", 7, "", "!"), M("chg_002", 4, "bar", "BAR")).P(P030).T("EVIDENCE-011", "SEQ-001"),
		R("seq/zero-width-at-occurrence-end-not-named", "an insertion at 5, where \"foo\" (2..5) ends, leaves it whole; the span that then deletes it (still 2..5) is the change named", "xxfooyy",
			tx2(os_(5, 5, "", "Z"), os_(2, 5, "foo", ""), om("foo", "bar")), "sequential_match_invalid").P(P030).
			D("original_occurrences", []any{o("occurrence_index", 1, "span_start", 2, "span_end", 5, "overlapped_by", "chg_002")}).T("SEQ-003", "EVIDENCE-008", "EVIDENCE-011"),
		A("warn/anchor-no-basis-shift", "anchors select without an occurrence_index: no basis shift warning", "k a a", tx1(e("k", "a"), e("a", "X", "anchor_before", "a a")), "a a X", M("chg_001", 0, "k", "a"), M("chg_002", 4, "a", "X")).T("WARN-003", "SELECT-003"),
		A("canon/only-cr", "a target of one bare CR is one LF", "\r", tx1(e("\n", "x")), "x", M("chg_001", 0, "\n", "x")).T("CANON-001"),
		A("canon/crlf-in-anchor-and-match", "match and anchor both canonicalised across a CRLF target", "a\r\nb\r\na\r\nb\r\n", tx1(e("a\r\nb", "X", "anchor_before", "b\r\n")), "a\nb\nX\n", M("chg_001", 4, "a\nb", "X")).T("CANON-001", "CANON-002"),
		A("span/tx2-match-and-span-v0.4.0", "0.4.0 runs tx/2 match and span operations", TP, tx2(om("9", "nine"), os_(0, 1, "0", "zero")), "zero12345678nine", M("chg_001", 9, "9", "nine"), S("chg_002", 0, "0", "zero")).P(P040).T("PROFILE-004", "SPAN-003"),
		R("select/tx2-index-out-of-range-v0.4.0", "a tx/2 match operation under 0.4.0 keeps the selector rules", TS, tx2(om("x", "y", "occurrence_index", 5)), "disambiguation_invalid").P(P040).T("SELECT-006", "SELECT-007"),
	)
	return cs
}
