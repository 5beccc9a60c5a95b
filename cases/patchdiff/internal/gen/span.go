package main

import "strings"

func init() { areas = append(areas, spanCases, contextCases) }

// TP is ten digits: every offset is its digit.
const TP = "0123456789"

func spanCases() []*C {
	oob, stm, mi := "span_out_of_bounds", "span_expected_text_mismatch", "manifest_invalid"
	long := strings.Repeat("abcdefghij", 20) // 200 code points
	return []*C{
		A("span/replace", "span 2..5 holding \"234\" becomes X", TP, tx2(os_(2, 5, "234", "X")), "01X56789", S("chg_001", 2, "234", "X")).P(P030).T("SPAN-003", "FACT-004"),
		A("span/insert", "start == end with empty expected_text inserts", TP, tx2(os_(3, 3, "", "abc")), "012abc3456789", S("chg_001", 3, "", "abc")).P(P030).T("SPAN-003"),
		A("span/insert-at-start", "an insertion at 0", TP, tx2(os_(0, 0, "", ">")), ">0123456789", S("chg_001", 0, "", ">")).P(P030).T("SPAN-003"),
		A("span/insert-at-end", "an insertion at the buffer's length", TP, tx2(os_(10, 10, "", "<")), "0123456789<", S("chg_001", 10, "", "<")).P(P030).T("SPAN-003", "SPAN-001"),
		A("span/end-at-length", "end equal to the length is inside the buffer", TP, tx2(os_(8, 10, "89", "")), "01234567", S("chg_001", 8, "89", "")).P(P030).T("SPAN-001"),
		A("span/whole-buffer", "a span over the whole buffer", TP, tx2(os_(0, 10, TP, "x")), "x", S("chg_001", 0, TP, "x")).P(P040).T("SPAN-003"),
		A("span/empty-target-insert", "an insertion into an empty target", "", tx2(os_(0, 0, "", "new")), "new", S("chg_001", 0, "", "new")).P(P030).T("SPAN-003", "SPAN-001"),
		R("span/end-past-length", "end 11 exceeds the length 10", TP, tx2(os_(8, 11, "89", "")), oob).P(P030).
			D("span_check", "bounds", "buffer_length", 10, "actual_text", "89", "edit_index", 1).T("SPAN-001", "SPAN-004", "SPAN-005"),
		R("span/start-past-length", "a zero-width span at 11 of 10 code points", TP, tx2(os_(11, 11, "", "x")), oob).P(P030).
			D("span_check", "bounds", "buffer_length", 10, "actual_text", "").T("SPAN-001", "SPAN-005"),
		R("span/empty-target-past", "any span past 0 of an empty target", "", tx2(os_(0, 1, "x", "")), oob).P(P030).D("buffer_length", 0).T("SPAN-001"),
		R("span/max-integer-end", "end 2^53-1 is a valid integer far past the buffer", TP, tx2(os_(0, raw("9007199254740991"), "0", "")), oob).P(P030).T("SPAN-001", "DECODE-019"),
		R("span/integer-over-max", "end 2^53 is past the integer range", TP, tx2(os_(0, raw("9007199254740992"), "0", "")), mi).P(P030).T("DECODE-019", "DECODE-025"),
		R("span/mismatch", "buffer[2:5] is \"234\", not \"abc\"", TP, tx2(os_(2, 5, "abc", "X")), stm).P(P030).
			D("span_check", "expected_text", "buffer_length", 10, "actual_text", "234").T("SPAN-002", "SPAN-004", "SPAN-005"),
		R("span/mismatch-empty-expected", "an empty expected_text on a non-empty span", TP, tx2(os_(2, 4, "", "X")), stm).P(P030).D("actual_text", "23").T("SPAN-002"),
		R("span/mismatch-zero-width", "a zero-width span expects the empty text", TP, tx2(os_(2, 2, "2", "X")), stm).P(P030).D("actual_text", "").T("SPAN-002"),
		R("span/mismatch-nfd", "no normalisation: the NFC expected_text does not equal the NFD buffer text", "cafe\u0301", tx2(os_(3, 5, "\u00e9", "E")), stm).P(P030).T("SPAN-002", "CANON-004"),
		R("span/actual-text-64", "actual_text holds at most 64 code points of the 100 compared", long, tx2(os_(0, 100, "nope", "")), stm).P(P030).
			D("actual_text", long[:64], "buffer_length", 200).T("SPAN-004"),
		R("span/bounds-before-text", "bounds are checked before expected_text", TP, tx2(os_(5, 20, "wrong", "")), oob).P(P030).D("span_check", "bounds").T("SPAN-010"),
		A("span/crlf-expected-text", "expected_text is canonical: \"\\r\\n\" equals the LF at 1", "a\r\nb", tx2(os_(1, 2, "\r\n", "")), "ab", S("chg_001", 1, "\n", "")).P(P030).T("CANON-002", "SPAN-002"),
		A("span/crlf-offsets", "span offsets are in the canonical buffer: b is at 2 of \"a\\nb\"", "a\r\nb", tx2(os_(2, 3, "b", "B\r\n")), "a\nB\n", S("chg_001", 2, "b", "B\n")).P(P030).T("SPAN-003", "CANON-001", "FIND-005"),
		A("span/emoji", "span offsets count code points: the middle emoji is 1..2", "\U0001F600\U0001F600\U0001F600", tx2(os_(1, 2, "\U0001F600", "x")), "\U0001F600x\U0001F600", S("chg_001", 1, "\U0001F600", "x")).P(P030).T("SPAN-003", "FIND-005"),
		A("span/after-match", "a span after a match is in sequential coordinates", TP, tx2(om("0", "zero"), os_(4, 5, "1", "one")), "zeroone23456789", M("chg_001", 0, "0", "zero"), S("chg_002", 4, "1", "one")).P(P030).T("SPAN-003", "FACT-002", "SEQ-001"),
		R("span/after-match-mismatch", "after \"0\" became \"zero\", buffer[1:2] is \"e\"", TP, tx2(om("0", "zero"), os_(1, 2, "1", "one")), stm).P(P030).
			D("actual_text", "e", "edit_index", 2, "change_id", "chg_002", "failure_context", fc("intermediate_buffer", 1, 13)).T("SPAN-002", "SEQ-004"),
		A("span/two-spans", "two spans, the second in the buffer the first left", TP, tx2(os_(0, 1, "0", "AB"), os_(10, 11, "9", "Z")), "AB12345678Z", S("chg_001", 0, "0", "AB"), S("chg_002", 10, "9", "Z")).P(P030).T("SPAN-003", "FACT-002"),
		R("span/second-out-of-bounds", "the first span shrinks the buffer to 8: end 10 is past it", TP, tx2(os_(0, 2, "01", ""), os_(8, 10, "89", "")), oob).P(P030).
			D("buffer_length", 8, "edit_index", 2).T("SPAN-001", "SEQ-001"),
		A("span/match-after-span", "a match after a span sees the span's result", TP, tx2(os_(0, 1, "0", "x"), om("x1", "y")), "y23456789", S("chg_001", 0, "0", "x"), M("chg_002", 0, "x1", "y")).P(P050).T("SEQ-001", "FACT-004"),
		A("span/change-ids-mixed", "match and span operations share the chg_ numbering by index", "ab", tx2(om("a", "A"), os_(1, 2, "b", "B")), "AB", M("chg_001", 0, "a", "A"), S("chg_002", 1, "b", "B")).P(P030).T("DECODE-013"),
		A("span/no-op", "a span replaced by its own text is a no-op", TP, tx2(os_(2, 3, "2", "2")), TP, S("chg_001", 2, "2", "2")).P(P030).W(wn("no_op_change", 1, "chg_001"), noOpTx).T("WARN-001"),
		R("span/start-after-end", "start must not exceed end", TP, tx2(os_(5, 4, "", "")), mi).P(P030).T("DECODE-025"),
		R("span/start-negative", "start must be at least 0", TP, tx2(os_(-1, 2, "01", "")), mi).P(P030).T("DECODE-025", "DECODE-019"),
		R("span/start-bool", "start must be a non-bool integer", TP, tx2(os_(false, 2, "01", "")), mi).P(P030).T("DECODE-025"),
		R("span/end-bool", "end true is not the integer 1", TP, tx2(os_(0, true, "0", "")), mi).P(P030).T("DECODE-025"),
		R("span/start-float", "start 1.0 is not an integer", TP, tx2(os_(raw("1.0"), 2, "1", "")), mi).P(P030).T("DECODE-025", "DECODE-019"),
		R("span/start-string", "start \"1\" is a string", TP, tx2(os_("1", 2, "1", "")), mi).P(P030).T("DECODE-025"),
		R("span/start-missing", "start is required", TP, tx2(os_(1, 2, "1", "").with("start", del)), mi).P(P030).T("DECODE-025"),
		R("span/end-missing", "end is required, as start is", TP, tx2(os_(1, 2, "1", "").with("end", del)), mi).P(P030).T("DECODE-025"),
		R("span/expected-text-missing", "expected_text is required", TP, tx2(os_(1, 2, "1", "").with("expected_text", del)), mi).P(P030).T("DECODE-025"),
		R("span/replace-missing", "replace is required", TP, tx2(os_(1, 2, "1", "").with("replace", del)), mi).P(P030).T("DECODE-025"),
		R("span/expected-text-null", "expected_text must be a string", TP, tx2(os_(1, 2, nil, "")), mi).P(P030).T("DECODE-025"),
		R("span/unknown-member", "a span operation carries no unknown member", TP, tx2(os_(1, 2, "1", "", "note", "x")), mi).P(P030).T("DECODE-026"),
		R("span/region-hint", "region_hint belongs to match operations, not spans", TP, tx2(os_(1, 2, "1", "", "region_hint", "x")), mi).P(P030).T("DECODE-026"),
		R("span/occurrence-index", "a span has no occurrence_index", TP, tx2(os_(1, 2, "1", "", "occurrence_index", 1)), mi).P(P030).T("DECODE-026"),
		A("span/allowed-metadata", "change_id, rationale and risk are allowed on spans", TP, tx2(os_(1, 2, "1", "one", "change_id", "s1", "rationale", "r", "risk", "medium")), "0one23456789", S("s1", 1, "1", "one")).P(P030).T("DECODE-026"),
		R("span/tx2-replace-all-op", "a tx/2 operation of kind replace_all is refused", TP, tx2(ora("x")), mi).P(P040).T("DECODE-023"),
		R("span/tx2-unknown-op", "op \"delete\" is no kind", TP, tx2(o("op", "delete", "start", 0, "end", 1)), mi).P(P030).T("DECODE-022", "DECODE-023"),
		R("span/tx2-op-missing", "a tx/2 operation names its kind", TP, tx2(o("match", "1", "replace", "x")), mi).P(P030).T("DECODE-022"),
		R("span/tx2-operations-missing", "a tx/2 without operations has no manifest", TP, tx2().with("operations", del), "manifest_missing").P(P030).T("DECODE-022"),
		R("span/tx2-operations-empty", "operations must be non-empty", TP, tx2(), mi).P(P030).T("DECODE-022"),
		R("span/tx2-edits-member", "tx/2 has operations, not edits", TP, tx2(os_(0, 1, "0", "")).with("edits", []any{}), mi).P(P030).T("DECODE-022", "DECODE-020"),
		R("span/tx2-operation-string", "each operation must be an object", TP, tx2().with("operations", []any{"span"}), mi).P(P030).T("DECODE-022"),
		R("span/tx2-match-op-empty-match", "a tx/2 match operation keeps the tx/1 edit rules", TP, tx2(om("", "x")), mi).P(P030).T("DECODE-024"),
	}
}

func contextCases() []*C {
	stm, mi := "span_expected_text_mismatch", "manifest_invalid"
	ctx := func(extra ...any) obj { return tx2(os_(2, 5, "234", "X", extra...)) }
	const res = "01X56789"
	f := S("chg_001", 2, "234", "X")
	return []*C{
		A("context/before-holds", "expected_before \"01\" equals buffer[0:2]", TP, ctx("expected_before", "01"), res, f).P(P050).T("SPAN-006"),
		A("context/after-holds", "expected_after \"56\" equals buffer[5:7]", TP, ctx("expected_after", "56"), res, f).P(P050).T("SPAN-007"),
		A("context/both-hold", "both guards hold", TP, ctx("expected_before", "1", "expected_after", "5678"), res, f).P(P050).T("SPAN-006", "SPAN-007"),
		R("context/before-mismatch", "expected_before \"xx\" is not buffer[0:2] \"01\"", TP, ctx("expected_before", "xx"), stm).P(P050).
			D("span_check", "expected_before", "actual_text", "01").T("SPAN-006", "SPAN-005"),
		R("context/after-mismatch", "expected_after \"xx\" is not buffer[5:7] \"56\"", TP, ctx("expected_after", "xx"), stm).P(P050).
			D("span_check", "expected_after", "actual_text", "56").T("SPAN-007", "SPAN-005"),
		R("context/before-longer-than-start", "expected_before of 3 code points before start 2 is a mismatch, not out of bounds", TP, ctx("expected_before", "x01"), stm).P(P050).
			D("span_check", "expected_before").T("SPAN-008"),
		R("context/after-past-end", "expected_after running past the buffer is a mismatch", TP, tx2(os_(8, 10, "89", "", "expected_after", "Z")), stm).P(P050).
			D("span_check", "expected_after").T("SPAN-008"),
		A("context/empty-guards", "empty guards constrain nothing", TP, ctx("expected_before", "", "expected_after", ""), res, f).P(P050).T("SPAN-011"),
		R("context/text-before-guards", "expected_text is checked before the guards", TP, tx2(os_(2, 5, "nope", "X", "expected_before", "zz")), stm).P(P050).
			D("span_check", "expected_text").T("SPAN-010"),
		R("context/before-before-after", "expected_before is checked before expected_after", TP, ctx("expected_before", "zz", "expected_after", "zz"), stm).P(P050).
			D("span_check", "expected_before").T("SPAN-010"),
		A("context/crlf-guard", "guards are canonicalised: \"a\\r\\n\" equals \"a\\n\"", "a\r\nb\r\n", tx2(os_(2, 3, "b", "B", "expected_before", "a\r\n", "expected_after", "\r\n")), "a\nB\n", S("chg_001", 2, "b", "B")).P(P050).T("CANON-002", "SPAN-006"),
		A("context/insertion-with-guards", "an insertion between its guards", TP, tx2(os_(5, 5, "", "-", "expected_before", "34", "expected_after", "56")), "01234-56789", S("chg_001", 5, "", "-")).P(P050).T("SPAN-006", "SPAN-007", "SPAN-003"),
		A("context/guard-sequential", "guards are read in the sequential buffer", TP, tx2(om("4", "four"), os_(8, 8, "", "|", "expected_before", "four", "expected_after", "5")), "0123four|56789", M("chg_001", 4, "4", "four"), S("chg_002", 8, "", "|")).P(P050).T("SPAN-006", "SEQ-001"),
		R("context/refused-at-decoding-v0.3.0", "0.3.0 refuses expected_before at decoding", TP, ctx("expected_before", "01"), mi).P(P030).T("DECODE-027"),
		R("context/after-refused-at-decoding-v0.3.0", "0.3.0 refuses expected_after at decoding", TP, ctx("expected_after", "56"), mi).P(P030).T("DECODE-027"),
		R("context/refused-by-applier-v0.4.0", "0.4.0 decodes expected_before but its applier refuses it", TP, ctx("expected_before", "01"), mi).P(P040).Stage("TRANSACTION_APPLICABILITY").T("SPAN-009"),
		R("context/after-refused-by-applier-v0.4.0", "0.4.0 refuses expected_after in the applier", TP, ctx("expected_after", "56"), mi).P(P040).Stage("TRANSACTION_APPLICABILITY").T("SPAN-009"),
		A("context/null-guard-v0.3.0", "a null expected_before is absent, so 0.3.0 accepts it", TP, ctx("expected_before", nil), res, f).P(P030).T("DECODE-016", "DECODE-027"),
		R("context/guard-number", "expected_before must be a string", TP, ctx("expected_before", 1), mi).P(P050).T("DECODE-026"),
	}
}
