package main

import "strings"

func init() { areas = append(areas, scopeCases, soleCases) }

const (
	outside  = "OPERATION_OUTSIDE_OBSERVED_SCOPE"
	guardReq = "OBSERVED_INSERTION_GUARDS_REQUIRED"
)

func scopeCases() []*C {
	oob, stm := "span_out_of_bounds", "span_expected_text_mismatch"
	ins := func(at int, extra ...any) obj { return tx2(os_(at, at, "", "-", extra...)) }
	return []*C{
		A("scope/match-inside", "a match at 4..6 lies inside the scope 2..8", TP, tx2(om("45", "x")), "0123x6789", M("chg_001", 4, "45", "x")).P(P050).Scope(2, 8).T("SCOPE-001"),
		R("scope/match-outside", "a match at 9..10 lies outside the scope 2..8", TP, tx2(om("9", "x")), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-001"),
		R("scope/match-straddles-end", "a match at 7..9 crosses the scope's end 8", TP, tx2(om("78", "x")), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-001"),
		R("scope/match-straddles-start", "a match at 1..3 crosses the scope's start 2", TP, tx2(om("12", "x")), oob).P(P030).Scope(2, 8).D("code", outside).T("SCOPE-001"),
		A("scope/span-equals-scope", "a span exactly the scope is inside it", TP, tx2(os_(2, 8, "234567", "x")), "01x89", S("chg_001", 2, "234567", "x")).P(P050).Scope(2, 8).T("SCOPE-001"),
		R("scope/span-outside", "a span at 1..3 leaves the scope 2..8", TP, tx2(os_(1, 3, "12", "x")), oob).P(P030).Scope(2, 8).D("code", outside).T("SCOPE-001"),
		A("scope/tx1-match-inside", "a tx/1 edit under scope bounds is admitted like a match operation", TP, tx1(e("3", "three")), "012three456789", M("chg_001", 3, "3", "three")).P(P050).Scope(2, 8).T("SCOPE-001"),
		R("scope/tx1-match-outside", "a tx/1 edit outside the scope is refused", TP, tx1(e("0", "zero")), oob).P(P030).Scope(2, 8).D("code", outside).T("SCOPE-001"),
		A("scope/insert-guarded", "an insertion at 5 inside 2..8 with both guards inside", TP, ins(5, "expected_before", "34", "expected_after", "56"), "01234-56789", S("chg_001", 5, "", "-")).P(P050).Scope(2, 8).T("SCOPE-002", "SCOPE-003", "SCOPE-004"),
		A("scope/insert-guards-fill-scope", "an insertion at 5 whose guards \"234\" and \"567\" start exactly at the scope's start 2 and end exactly at its end 8: both lie inside the scope", TP, ins(5, "expected_before", "234", "expected_after", "567"), "01234-56789", S("chg_001", 5, "", "-")).P(P050).Scope(2, 8).T("SCOPE-004", "SPAN-006", "SPAN-007"),
		R("scope/insert-at-scope-start", "an insertion at the scope's start 2 needs scope_start < start", TP, ins(2, "expected_before", "1", "expected_after", "2"), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-002"),
		R("scope/insert-at-scope-end", "an insertion at the scope's end 8 needs start < scope_end", TP, ins(8, "expected_before", "7", "expected_after", "8"), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-002"),
		R("scope/insert-without-guards", "an observed insertion needs both guards", TP, ins(5), stm).P(P050).Scope(2, 8).D("code", guardReq).T("SCOPE-003"),
		R("scope/insert-before-guard-only", "an observed insertion with only expected_before", TP, ins(5, "expected_before", "4"), stm).P(P050).Scope(2, 8).D("code", guardReq).T("SCOPE-003"),
		R("scope/insert-after-guard-only", "an observed insertion with only expected_after", TP, ins(5, "expected_after", "5"), stm).P(P050).Scope(2, 8).D("code", guardReq).T("SCOPE-003"),
		R("scope/insert-empty-guard", "an empty expected_after is no guard", TP, ins(5, "expected_before", "4", "expected_after", ""), stm).P(P050).Scope(2, 8).D("code", guardReq).T("SCOPE-003", "SPAN-011"),
		R("scope/insert-guard-leaves-scope-start", "expected_before \"12\" starts at 1, before the scope's start 2", TP, ins(3, "expected_before", "12", "expected_after", "3"), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-004"),
		R("scope/insert-guard-leaves-scope-end", "expected_after \"78\" ends at 9, past the scope's end 8", TP, ins(7, "expected_before", "6", "expected_after", "78"), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-004"),
		A("scope/running-end-grows", "\"0\" became \"00\": the scope's end moves to 6, so \"4\" at 5..6 is inside", TP, tx2(om("0", "00"), om("4", "x")), "00123x56789", M("chg_001", 0, "0", "00"), M("chg_002", 5, "4", "x")).P(P050).Scope(0, 5).T("SCOPE-005"),
		R("scope/running-end-shrinks", "\"0\" deleted: the scope's end moves to 4, so \"45\" at 3..5 leaves it", TP, tx2(om("0", ""), om("45", "x")), oob).P(P050).Scope(0, 5).D("code", outside, "edit_index", 2).T("SCOPE-005"),
		A("scope/running-insert", "after a deletion of \"23\" the scope 1..8 ends at 6; an insertion at 3 with guards is inside", TP,
			tx2(om("23", ""), os_(3, 3, "", "+", "expected_before", "4", "expected_after", "5")), "014+56789", M("chg_001", 2, "23", ""), S("chg_002", 3, "", "+")).P(P050).Scope(1, 8).T("SCOPE-005", "SCOPE-002"),
		A("scope/none-anywhere", "without scope bounds a span may be anywhere", TP, tx2(os_(0, 1, "0", "x")), "x123456789", S("chg_001", 0, "0", "x")).P(P050).T("SCOPE-006"),
		A("scope/none-insert-unguarded", "without scope bounds an insertion needs no guard", TP, ins(5), "01234-56789", S("chg_001", 5, "", "-")).P(P050).T("SCOPE-006"),
		R("scope/bounds-before-scope", "a span past the buffer is bounds, checked before scope", TP, tx2(os_(5, 20, "x", "")), oob).P(P050).Scope(2, 8).D("span_check", "bounds", "code", nil).T("SCOPE-007"),
		R("scope/containment-before-guards", "an insertion outside the scope and without guards: containment is checked first", TP, ins(9), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-007"),
		R("scope/insert-at-scope-start-without-guards", "an insertion at the scope's start 2 without guards: the boundary is a containment fault, checked before the guards", TP, ins(2), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-002", "SCOPE-007"),
		R("scope/insert-at-scope-end-without-guards", "an insertion at the scope's end 8 without guards: the boundary is a containment fault, checked before the guards", TP, ins(8), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-002", "SCOPE-007"),
		R("scope/scope-before-text", "a span outside the scope with a wrong expected_text: scope is checked before text", TP, tx2(os_(0, 1, "zz", "")), oob).P(P050).Scope(2, 8).D("code", outside).T("SCOPE-007"),
		R("scope/guards-required-v0.3.0", "under 0.3.0 an observed insertion cannot carry guards, so it is refused", TP, ins(5), stm).P(P030).Scope(2, 8).D("code", guardReq).T("SCOPE-003"),
		R("scope/end-past-target", "scope_end 11 exceeds the canonical target's length 10", TP, tx2(om("4", "x")), "context_invalid").P(P050).Scope(2, 11).T("SCOPE-008"),
		R("scope/start-after-end", "scope_start 6 > scope_end 5", TP, tx2(om("4", "x")), "context_invalid").P(P050).Scope(6, 5).T("SCOPE-008"),
		R("scope/negative-start", "scope_start -1", TP, tx2(om("4", "x")), "context_invalid").P(P050).Scope(-1, 5).T("SCOPE-008"),
		R("scope/bounds-outrank-transaction", "bad scope bounds are found before a malformed transaction", TP, text("{"), "context_invalid").P(P050).Scope(0, 99).T("SCOPE-008", "STAGE-006"),
		R("scope/crlf-length", "the scope is checked against the canonical length: \"a\\r\\nb\" is 3 long", "a\r\nb", tx2(om("a", "x")), "context_invalid").P(P050).Scope(0, 4).T("SCOPE-008", "CANON-001"),
		A("scope/crlf-canonical-end", "scope_end 3 is the whole canonical \"a\\nb\"", "a\r\nb", tx2(om("b", "x")), "a\nx", M("chg_001", 2, "b", "x")).P(P050).Scope(0, 3).T("SCOPE-008", "SCOPE-001"),
		A("scope/match-at-scope-edge", "a match 0..1 ending exactly at scope_end 1 is inside", "ab", tx2(om("a", "A")), "Ab", M("chg_001", 0, "a", "A")).P(P050).Scope(0, 1).T("SCOPE-001"),
		A("scope/sole-whole", "a sole replacement inside a scope that covers the whole buffer", TP, tx3(ora("new")), "new", RA("chg_001", TP, "new")).P(P040).Scope(0, 10).T("SCOPE-009", "SOLE-002"),
		R("scope/sole-partial", "a sole replacement covers [0, 10), outside the scope 1..10", TP, tx3(ora("new")), oob).P(P040).Scope(1, 10).D("code", outside).T("SCOPE-009"),
		R("scope/sole-empty-buffer", "on an empty buffer the sole replacement is zero-width and needs scope_start < 0: refused", "", tx3(ora("new")), oob).P(P040).Scope(0, 0).D("code", outside).T("SCOPE-009"),
		A("scope/emoji-bounds", "scope bounds count code points", strings.Repeat("\U0001F600", 6), tx2(os_(2, 4, "\U0001F600\U0001F600", "x")), "\U0001F600\U0001F600x\U0001F600\U0001F600", S("chg_001", 2, "\U0001F600\U0001F600", "x")).P(P050).Scope(2, 4).T("SCOPE-001", "FIND-005"),
	}
}

func soleCases() []*C {
	mi := "manifest_invalid"
	big := pieces{rep{"0123456789abcdef", 65536}} // 1 MiB of code points
	return []*C{
		A("sole/replace", "replace_all replaces the whole buffer; the fact spans [0, 17)", T0, tx3(ora("new text\n")), "new text\n", RA("chg_001", T0, "new text\n")).P(P040).T("SOLE-002", "SOLE-003", "FACT-004"),
		A("sole/empty-target", "replace_all of an empty target spans [0, 0)", "", tx3(ora("fresh\n")), "fresh\n", RA("chg_001", "", "fresh\n")).P(P040).T("SOLE-003"),
		A("sole/to-empty", "replace_all with \"\" empties the buffer", T0, tx3(ora("")), "", RA("chg_001", T0, "")).P(P040).T("SOLE-002"),
		A("sole/crlf", "the span is the canonical length; the replacement is canonical", "a\r\nb\r\n", tx3(ora("x\r\ny")), "x\ny", RA("chg_001", "a\nb\n", "x\ny")).P(P040).T("SOLE-003", "CANON-001"),
		A("sole/emoji-length", "span_end counts code points: three emoji are 3", "\U0001F600\U0001F600\U0001F600", tx3(ora("x")), "x", RA("chg_001", "\U0001F600\U0001F600\U0001F600", "x")).P(P040).T("SOLE-003", "FIND-005"),
		A("sole/change-id", "a given change_id names the fact", T0, tx3(ora("z", "change_id", "rewrite-1", "rationale", "why", "risk", "high")), "z", RA("rewrite-1", T0, "z")).P(P040).T("SOLE-003", "DECODE-028"),
		A("sole/no-op", "replacing the buffer with itself is a no-op", T0, tx3(ora(T0)), T0, RA("chg_001", T0, T0)).P(P040).W(wn("no_op_change", 1, "chg_001"), noOpTx).T("SOLE-002", "WARN-001", "WARN-002"),
		A("sole/one-mib-target", "a 1 MiB target replaced whole: the fact spans [0, 1048576)", big, tx3(ora("small\n")), "small\n", RA("chg_001", big, "small\n")).P(P040).T("SOLE-003", "SOLE-004"),
		A("sole/one-mib-replacement", "a 1 MiB replacement is admitted: size is the service's concern", "x",
			text(pieces{`{"format":"patchdiff-tx/3","target_file_id":"` + TFID + `","intent":"rewrite","expected_target_version":1,"operations":[{"op":"replace_all","replace":"`, rep{"0123456789abcdef", 65536}, `"}]}`}),
			big, RA("chg_001", "x", big)).P(P040).T("SOLE-004"),
		R("sole/two-operations", "tx/3 holds exactly one operation", T0, tx3(ora("a"), ora("b", "change_id", "c2")), mi).P(P040).T("SOLE-001"),
		R("sole/no-operations", "an empty operation list", T0, tx3(), mi).P(P040).T("SOLE-001", "DECODE-022"),
		R("sole/operations-missing", "a tx/3 without operations has no manifest", T0, tx3().with("operations", del), "manifest_missing").P(P040).T("DECODE-022"),
		R("sole/span-op", "a tx/3 operation must be replace_all", T0, tx3(os_(0, 1, "a", "b")), mi).P(P040).T("SOLE-001", "DECODE-028"),
		R("sole/match-op", "a match operation is not allowed in tx/3", T0, tx3(om("beta", "b")), mi).P(P040).T("SOLE-001", "DECODE-028"),
		R("sole/replace-all-and-span", "a replace_all beside a span is two operations", T0, tx3(ora("a"), os_(0, 0, "", "b")), mi).P(P040).T("SOLE-001"),
		R("sole/expected-text-member", "a replace_all carries no expected_text", T0, tx3(ora("a", "expected_text", T0)), mi).P(P040).T("DECODE-028"),
		R("sole/replace-missing", "replace is required", T0, tx3(o("op", "replace_all")), mi).P(P040).T("DECODE-028"),
		R("sole/replace-number", "replace must be a string", T0, tx3(ora(5)), mi).P(P040).T("DECODE-028"),
		R("sole/guard-mismatch", "the state guard of a sole replacement is checked", T0, tx3(ora("x")).with("expected_target_version", 2), "target_version_mismatch").P(P040).T("GUARD-002"),
		A("sole/hash-guard", "a hash-guarded sole replacement", T0, tx3(ora("x")).with("expected_target_version", del, "expected_current_hash", hashT0), "x", RA("chg_001", T0, "x")).P(P040).T("GUARD-003", "SOLE-002"),
		R("sole/edits-member", "tx/3 has operations, not edits", T0, tx3(ora("x")).with("edits", []any{}), mi).P(P040).T("DECODE-020"),
		R("sole/invalid-text", "NUL in the replacement is invalid text", T0, tx3(ora("a\u0000")), "target_encoding_invalid").P(P040).D("invalid_input", "transaction").T("CANON-008"),
		A("sole/collect-false", "collect_warnings false on a no-op sole replacement", T0, tx3(ora(T0)), T0, RA("chg_001", T0, T0)).P(P040).CW(false).T("WARN-006"),
	}
}
