package main

func init() { areas = append(areas, warnCases, guardCases, profileCases) }

// wn is a warning subset naming its operation.
func wn(code string, idx int, cid string, extra ...any) obj {
	return o("code", code, "edit_index", idx, "change_id", cid).with(extra...)
}

var noOpTx = o("code", "no_op_transaction")

const hashT0 = "adf7157c8a5bbb4b099d39ba5ef34b73a3787f5e9326b3eb24ac8b86fd03ff96"

func warnCases() []*C {
	return []*C{
		A("warn/no-op-change-and-transaction", "replacing beta with beta changes nothing: no_op_change and no_op_transaction", T0, tx1(e("beta", "beta")), T0, M("chg_001", 6, "beta", "beta")).
			W(wn("no_op_change", 1, "chg_001"), noOpTx).T("WARN-001", "WARN-002", "WARN-007"),
		A("warn/no-op-change-only", "one of two edits is a no-op; the transaction is not", "a b", tx1(e("a", "a"), e("b", "B")), "a B", M("chg_001", 0, "a", "a"), M("chg_002", 2, "b", "B")).
			W(wn("no_op_change", 1, "chg_001")).T("WARN-001"),
		A("warn/no-op-transaction-only", "two edits that undo each other: no single no-op, but the text is unchanged", "ab", tx1(e("a", "b"), e("bb", "ab")), "ab", M("chg_001", 0, "a", "b"), M("chg_002", 0, "bb", "ab")).
			W(noOpTx).T("WARN-002"),
		A("warn/no-op-crlf-replacement", "\"a\\r\\n\" replaced by \"a\\n\" is a no-op once canonical", "a\nb", tx1(e("a\r\n", "a\n")), "a\nb", M("chg_001", 0, "a\n", "a\n")).
			W(wn("no_op_change", 1, "chg_001"), noOpTx).T("WARN-001", "CANON-001"),
		A("warn/no-op-transaction-crlf-target", "a no-op on a CRLF target: result_text is canonical and equals the canonical start buffer", "a\r\n", tx1(e("a", "a")), "a\n", M("chg_001", 0, "a", "a")).
			W(wn("no_op_change", 1, "chg_001"), noOpTx).T("WARN-002"),
		A("warn/collect-false-no-op", "collect_warnings false reports no warning, and the verdict and facts stay", T0, tx1(e("beta", "beta")), T0, M("chg_001", 6, "beta", "beta")).CW(false).T("WARN-006", "WARN-005"),
		A("warn/collect-true-explicit", "collect_warnings true is the default, stated", T0, tx1(e("beta", "beta")), T0, M("chg_001", 6, "beta", "beta")).CW(true).
			W(wn("no_op_change", 1, "chg_001"), noOpTx).T("WARN-001", "WARN-006"),
		A("warn/no-warnings", "an ordinary change has no warning", T0, tx1(ok0()), R0, F0).T("WARN-001", "WARN-005"),
		A("warn/basis-shift", "index 3 of the sequential \"a a a\" is index 2 of the start text \"k a a\"", "k a a", tx1(e("k", "a"), e("a", "X", "occurrence_index", 3)), "a a X", M("chg_001", 0, "k", "a"), M("chg_002", 4, "a", "X")).
			W(wn("occurrence_index_basis_shift", 2, "chg_002", "occurrence_index", 3, "original_index", 2)).T("WARN-003", "WARN-007"),
		A("warn/basis-shift-to-first-original", "edit 1 turns \"x\" into \"a\": the \"a\" at 1 is index 2 of the sequential \"aa\" but index 1 of the start text \"xa\", so original_index is 1", "xa", tx1(e("x", "a"), e("a", "X", "occurrence_index", 2)), "aX", M("chg_001", 0, "x", "a"), M("chg_002", 1, "a", "X")).
			W(wn("occurrence_index_basis_shift", 2, "chg_002", "occurrence_index", 2, "original_index", 1)).T("WARN-003", "WARN-007"),
		A("warn/basis-shift-no-original", "the selected \"b\" was written by edit 1: it maps back to no start occurrence", "ab", tx1(e("a", "xb"), e("b", "Y", "occurrence_index", 1)), "xYb", M("chg_001", 0, "a", "xb"), M("chg_002", 1, "b", "Y")).
			W(wn("occurrence_index_basis_shift", 2, "chg_002", "occurrence_index", 1, "original_index", nil)).T("WARN-003", "WARN-007"),
		A("warn/basis-same-index", "index 2 of the sequential buffer is index 2 of the start text too: no warning", "a b b", tx1(e("a", "A"), e("b", "B", "occurrence_index", 2)), "A b B", M("chg_001", 0, "a", "A"), M("chg_002", 4, "b", "B")).T("WARN-003"),
		A("warn/no-basis-shift-right-after-deletion", "edit 1 deletes \"pp\" (0..2); the first \"X\", now at 0, maps back to 2, the first \"X\" of the start buffer: same index, no warning", "ppX-X",
			tx1(e("pp", ""), e("X", "Y", "occurrence_index", 1)), "Y-X", M("chg_001", 0, "pp", ""), M("chg_002", 0, "X", "Y")).T("WARN-003"),
		A("warn/no-basis-shift-before-a-growth", "edit 1 turns \"cc\" (4..6) into \"CCC\"; the second \"x\" (2..3) lies before it, so it maps back to itself: same index, no warning", "x-x-cc",
			tx1(e("cc", "CCC"), e("x", "Y", "occurrence_index", 2)), "x-Y-CCC", M("chg_001", 4, "cc", "CCC"), M("chg_002", 2, "x", "Y")).T("WARN-003"),
		A("warn/no-basis-shift-next-to-a-change", "edit 1 rewrites \"cc\" (3..5), which starts where the second \"x\" (2..3) ends: they touch, the x was not written by it, same index, no warning", "x-xcc",
			tx1(e("cc", "DD"), e("x", "Y", "occurrence_index", 2)), "x-YDD", M("chg_001", 3, "cc", "DD"), M("chg_002", 2, "x", "Y")).T("WARN-003"),
		A("warn/no-basis-shift-between-two-changes", "edit 1 rewrites \"a\" (0..1), which ends where the first \"b\" starts, and edit 2 deletes \"-\" (2..3), which starts where it ends; neither wrote that \"b\" (1..2), which maps back to itself: same index, no warning", "ab-b",
			tx1(e("a", "A"), e("-", ""), e("b", "B", "occurrence_index", 1)), "ABb", M("chg_001", 0, "a", "A"), M("chg_002", 2, "-", ""), M("chg_003", 1, "b", "B")).T("WARN-003"),
		A("warn/basis-shift-span-ends-in-earlier-write", "edit 1 turns \"bb\" (3..5) into \"b\", edit 2 deletes \"xx\"; the selected \"ab\" (0..2) maps back past the deletion to 2..4, whose \"b\" edit 1 wrote: no start occurrence", "xxabb",
			tx1(e("bb", "b"), e("xx", ""), e("ab", "Z", "occurrence_index", 1)), "Z", M("chg_001", 3, "bb", "b"), M("chg_002", 0, "xx", ""), M("chg_003", 0, "ab", "Z")).
			W(wn("occurrence_index_basis_shift", 3, "chg_003", "occurrence_index", 1, "original_index", nil)).T("WARN-003", "WARN-007"),
		A("warn/basis-shift-deletion-inside-span", "edit 1 deletes \"bc\" (1..3); the selected \"ab\" (0..2) joins the start's \"a\" at 0 and \"b\" at 3 across that deletion, so it is not the start's first \"ab\" (0..2), whose \"b\" was deleted: no start occurrence", "abcb",
			tx1(e("bc", ""), e("ab", "Z", "occurrence_index", 1)), "Z", M("chg_001", 1, "bc", ""), M("chg_002", 0, "ab", "Z")).
			W(wn("occurrence_index_basis_shift", 2, "chg_002", "occurrence_index", 1, "original_index", nil)).T("WARN-003", "WARN-007"),
		A("warn/basis-shift-first-edit", "an occurrence_index on edit 1 cannot shift", "b b", tx1(e("b", "B", "occurrence_index", 2)), "b B", M("chg_001", 2, "b", "B")).T("WARN-003"),
		A("warn/basis-shift-collect-false", "collect_warnings false hides the basis shift", "k a a", tx1(e("k", "a"), e("a", "X", "occurrence_index", 3)), "a a X", M("chg_001", 0, "k", "a"), M("chg_002", 4, "a", "X")).CW(false).T("WARN-006"),
		A("warn/grapheme-combining-mark", "the match \"e\" ends between e and U+0301, inside one grapheme cluster", "cafe\u0301", tx1(e("e", "E")), "cafE\u0301", M("chg_001", 3, "e", "E")).
			W(wn("grapheme_boundary_split", 1, "chg_001", "offset", 4)).T("WARN-004", "WARN-007"),
		A("warn/grapheme-combining-mark-at-65", "the match \"e\" at 64 ends at 65, between e and U+0301: past the first 64 code points, with the whole cluster inside the 64 either side",
			pieces{rep{"x", 64}, "e\u0301"}, tx1(e("e", "E")), pieces{rep{"x", 64}, "E\u0301"}, M("chg_001", 64, "e", "E")).
			W(wn("grapheme_boundary_split", 1, "chg_001", "offset", 65)).T("WARN-004", "WARN-007"),
		A("warn/grapheme-mark-alone", "matching U+0301 alone starts inside the cluster e + U+0301", "e\u0301x", tx1(e("\u0301", "")), "ex", M("chg_001", 1, "\u0301", "")).
			W(wn("grapheme_boundary_split", 1, "chg_001", "offset", 1)).T("WARN-004"),
		A("warn/grapheme-zwj", "a woman inside a family ZWJ sequence: start 2 and end 3 both split it", "\U0001F468\u200d\U0001F469\u200d\U0001F467", tx1(e("\U0001F469", "\U0001F466")), "\U0001F468\u200d\U0001F466\u200d\U0001F467", M("chg_001", 2, "\U0001F469", "\U0001F466")).
			W(wn("grapheme_boundary_split", 1, "chg_001", "offset", 2), wn("grapheme_boundary_split", 1, "chg_001", "offset", 3)).Rec().T("WARN-004", "WARN-008"),
		A("warn/grapheme-flag", "half of a flag (regional indicator pair) ends inside the cluster", "\U0001F1EB\U0001F1F7", tx1(e("\U0001F1EB", "\U0001F1E9")), "\U0001F1E9\U0001F1F7", M("chg_001", 0, "\U0001F1EB", "\U0001F1E9")).
			W(wn("grapheme_boundary_split", 1, "chg_001", "offset", 1)).Rec().T("WARN-004"),
		A("warn/grapheme-whole-cluster", "replacing a whole cluster splits nothing", "ae\u0301b", tx1(e("e\u0301", "e")), "aeb", M("chg_001", 1, "e\u0301", "e")).T("WARN-004"),
		A("warn/no-grapheme-split-after-line-feed", "a line feed ends its grapheme cluster even before a combining mark (UAX #29 GB4): deleting the leading \"\\n\" of \"\\n\\u0301x\" ends at 1, a boundary, so no warning", "\n\u0301x", tx1(e("\n", "")), "\u0301x", M("chg_001", 0, "\n", "")).T("WARN-004"),
		A("warn/grapheme-collect-false", "collect_warnings false hides the split", "cafe\u0301", tx1(e("e", "E")), "cafE\u0301", M("chg_001", 3, "e", "E")).CW(false).T("WARN-006"),
		A("warn/grapheme-and-no-op", "a no-op that splits a cluster: no_op_change before grapheme_boundary_split, no_op_transaction last", "e\u0301", tx1(e("e", "e")), "e\u0301", M("chg_001", 0, "e", "e")).
			W(wn("no_op_change", 1, "chg_001"), wn("grapheme_boundary_split", 1, "chg_001", "offset", 1), noOpTx).T("WARN-008", "WARN-001", "WARN-004"),
	}
}

func guardCases() []*C {
	tvm, thm := "target_version_mismatch", "target_hash_mismatch"
	hashOnly := func(h string) obj { return tx1(ok0()).with("expected_target_version", del, "expected_current_hash", h) }
	return []*C{
		R("guard/version-mismatch", "expected_target_version 2 against target version 1", T0, tx1(ok0()).with("expected_target_version", 2), tvm).T("GUARD-002"),
		R("guard/version-mismatch-lower", "expected_target_version 1 against target version 7", T0, tx1(ok0()), tvm).V(7).T("GUARD-002"),
		R("guard/version-mismatch-int64-max", "a target version of 2^63-1 is a version like any other: expected_target_version 1 differs from it", T0, tx1(ok0()), tvm).V(9223372036854775807).T("GUARD-002", "ADAPTER-001"),
		A("guard/version-zero", "version 0 equals version 0", T0, tx1(ok0()).with("expected_target_version", 0), R0, F0).V(0).T("GUARD-002"),
		A("guard/hash-matches", "expected_current_hash equal to the canonical target's hash (sha256sum)", T0, hashOnly(hashT0), R0, F0).V(nil).T("GUARD-003", "GUARD-001"),
		R("guard/hash-mismatch", "expected_current_hash of other text", T0, hashOnly("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"), thm).T("GUARD-003"),
		A("guard/hash-of-canonical-crlf", "the guard is the hash of the canonical text: a\\nb\\n for a CRLF target", "a\r\nb\r\n", tx1(e("a", "A")).with("expected_target_version", del, "expected_current_hash", "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2"),
			"A\nb\n", M("chg_001", 0, "a", "A")).T("GUARD-003", "HASH-001"),
		R("guard/hash-of-raw-crlf", "the hash of the raw CRLF bytes is not the canonical hash", "a\r\nb\r\n", tx1(e("a", "A")).with("expected_target_version", del, "expected_current_hash", "58055bdcc73787eb88c78d36f0b4939e9c5dc1c3ad17e25cc85a6833cf1a0cab"), thm).T("GUARD-003", "HASH-001"),
		A("guard/both-hold", "both guards given and both hold", T0, tx1(ok0()).with("expected_current_hash", hashT0), R0, F0).T("GUARD-004"),
		R("guard/both-wrong-version-first", "both guards wrong: the version is checked first", T0, tx1(ok0()).with("expected_target_version", 3, "expected_current_hash", "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"), tvm).T("GUARD-004"),
		R("guard/both-hash-wrong", "version holds, hash does not", T0, tx1(ok0()).with("expected_current_hash", "2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881"), thm).T("GUARD-004", "GUARD-003"),
		R("guard/hash-upper-case", "expected_current_hash is lower-case hex", T0, hashOnly("ADF7157C8A5BBB4B099D39BA5EF34B73A3787F5E9326B3EB24AC8B86FD03FF96"), "manifest_invalid").T("GUARD-005"),
		R("guard/hash-short", "expected_current_hash has 64 digits", T0, hashOnly("adf7157c"), "manifest_invalid").T("GUARD-005"),
		R("guard/hash-number", "expected_current_hash is a string", T0, hashOnly2(12), "manifest_invalid").T("GUARD-005"),
		R("guard/version-negative", "expected_target_version is a non-negative integer", T0, tx1(ok0()).with("expected_target_version", -1), "manifest_invalid").T("GUARD-005", "DECODE-019"),
		R("guard/version-string", "expected_target_version is an integer, not a string", T0, tx1(ok0()).with("expected_target_version", "1"), "manifest_invalid").T("GUARD-005"),
		R("guard/missing", "a transaction with neither guard is rejected", T0, tx1(ok0()).with("expected_target_version", del), "context_missing").Stage("PROTOCOL_VALIDATION").T("GUARD-001"),
		R("guard/both-null", "null guards are absent guards", T0, tx1(ok0()).with("expected_target_version", nil, "expected_current_hash", nil), "context_missing").Stage("PROTOCOL_VALIDATION").T("GUARD-001", "DECODE-016"),
		R("guard/tx2-missing", "a tx/2 transaction needs a guard too", T0, tx2(om("beta", "BETA")).with("expected_target_version", del), "context_missing").Stage("PROTOCOL_VALIDATION").P(P030).T("GUARD-001"),
		R("guard/version-without-target-version", "expected_target_version in a request without target_version", T0, tx1(ok0()), "context_missing").V(nil).T("GUARD-006"),
		A("guard/hash-without-target-version", "a hash guard needs no target_version", T0, hashOnly(hashT0), R0, F0).V(nil).T("GUARD-006", "GUARD-003"),
		R("guard/outranks-structure", "a version mismatch outranks a missing intent", T0, tx1(ok0()).with("expected_target_version", 2, "intent", del), tvm).T("GUARD-007", "STAGE-006"),
		R("guard/outranks-missing-edits", "a hash mismatch outranks missing edits", T0, hashOnly("2d711642b726b04401627ca9fbac32f5c8530fb1903cc4db02258717921a4881").with("edits", del), thm).T("GUARD-007"),
		R("guard/outranks-match", "a version mismatch is found before any edit runs", T0, tx1(e("absent", "x")).with("expected_target_version", 5), tvm).T("GUARD-007"),
		R("guard/syntax-outranks-guard", "malformed JSON is found before the guard", T0, text(`{"format":"patchdiff-tx/1","target_file_id":"`+TFID+`","intent":"edit","expected_target_version":9,"edits":[}`), "manifest_invalid").T("STAGE-006", "DECODE-003"),
		R("guard/duplicate-key-outranks-guard", "a duplicate key is strictness, found before the guard", T0,
			text(`{"format":"patchdiff-tx/1","target_file_id":"`+TFID+`","intent":"edit","intent":"x","expected_target_version":9,"edits":[{"match":"beta","replace":"BETA"}]}`), "manifest_invalid").T("STAGE-006", "DECODE-004"),
		R("guard/outranks-format-gate", "a guard mismatch outranks a format the profile refuses (tx/2 under 0.2.2)", T0, tx2(om("beta", "BETA")).with("expected_target_version", 4), tvm).P(P022).T("GUARD-007", "STAGE-006"),
	}
}

func hashOnly2(v any) obj {
	return tx1(ok0()).with("expected_target_version", del, "expected_current_hash", v)
}

func profileCases() []*C {
	ci := "context_invalid"
	var cs []*C
	for _, p := range allProfiles {
		cs = append(cs, A("profile/tx1-"+vname(p), "every profile accepts tx/1", T0, tx1(ok0()), R0, F0).P(p).T("PROFILE-006", "PROFILE-001"))
	}
	for _, p := range []string{P010, P020, P021, P022} {
		cs = append(cs, R("profile/tx2-refused-"+vname(p), "a profile without span operations refuses the tx/2 format", T0, tx2(os_(6, 10, "beta", "BETA")), "manifest_invalid").P(p).T("PROFILE-005", "PROFILE-004"))
	}
	for _, p := range []string{P010, P020, P021, P022, P030, P050} {
		cs = append(cs, R("profile/tx3-refused-"+vname(p), "a profile without replace_all operations refuses the tx/3 format", T0, tx3(ora("new\n")), "manifest_invalid").P(p).T("PROFILE-005", "PROFILE-004"))
	}
	for _, p := range []string{P030, P040, P050} {
		cs = append(cs, A("profile/tx2-span-"+vname(p), "profiles with span operations accept a span", T0, tx2(os_(6, 10, "beta", "BETA")), R0, S("chg_001", 6, "beta", "BETA")).P(p).T("PROFILE-004", "SPAN-003"))
	}
	cs = append(cs,
		A("profile/tx3-v0.4.0", "0.4.0 accepts the tx/3 sole replacement", T0, tx3(ora("new\n")), "new\n", RA("chg_001", T0, "new\n")).P(P040).T("PROFILE-004", "SOLE-002"),
		R("profile/missing", "a request without runtime_version fails closed", T0, tx1(ok0()), ci).P(nil).T("PROFILE-002"),
		R("profile/unknown-future", "patchdiff-mvp-0.6.0 names no profile: fail closed", T0, tx1(ok0()), ci).P("patchdiff-mvp-0.6.0").T("PROFILE-002"),
		R("profile/unknown-between", "patchdiff-mvp-0.2.3 names no profile", T0, tx1(ok0()), ci).P("patchdiff-mvp-0.2.3").T("PROFILE-002"),
		R("profile/unprefixed", "\"0.2.2\" is not the profile's name", T0, tx1(ok0()), ci).P("0.2.2").T("PROFILE-002"),
		R("profile/upper-case", "profile names are exact", T0, tx1(ok0()), ci).P("PATCHDIFF-MVP-0.2.2").T("PROFILE-002"),
		R("profile/format-as-profile", "a format is not a profile", T0, tx1(ok0()), ci).P("patchdiff-tx/1").T("PROFILE-002"),
		R("profile/unknown-outranks-invalid-target", "the runtime version is checked before the target's text", raw(`"\ud800"`), tx1(ok0()), ci).P("patchdiff-mvp-9").T("PROFILE-002", "STAGE-006"),
		R("profile/unknown-outranks-malformed", "the runtime version is checked before the transaction", T0, text("{"), ci).P("patchdiff-mvp-9").T("PROFILE-002", "STAGE-006"),
		R("stage/target-outranks-transaction", "invalid target text is found before a malformed transaction", "a\u0000", text("{"), "target_encoding_invalid").D("invalid_input", "target").T("STAGE-006", "CANON-007"),
		R("stage/invalid-text-outranks-syntax", "a transaction that is both malformed and invalid text is target_encoding_invalid", T0, text(`{"format":"patchdiff-tx/1","intent":"\u0000",`), "target_encoding_invalid").D("invalid_input", "transaction").T("CANON-009", "STAGE-006"),
		R("stage/invalid-text-outranks-empty-edits", "invalid text is found before structure", T0, tx1().with("intent", "\u0000"), "target_encoding_invalid").T("CANON-009", "STAGE-006"),
		R("stage/empty-outranks-nothing-but-text", "an empty transaction with a valid target is manifest_missing", "", text(""), "manifest_missing").T("DECODE-002", "STAGE-005"),
		R("stage/structure-before-operations", "a fault in edit 2 is found before edit 1 runs against the buffer", "abc", tx1(e("zz", "y"), e("", "x")), "manifest_invalid").T("STAGE-006", "SEQ-002"),
		R("stage/rejected-validity-applicability", "a match failure reports protocol_valid true, transaction_valid false", "abc", tx1(e("zz", "y")), "match_absent").T("STAGE-001", "STAGE-002", "STAGE-005", "ADAPTER-004"),
		R("stage/rejected-validity-protocol", "a decoding failure reports protocol_valid false, transaction_valid null", "abc", tx1(e("", "y")), "manifest_invalid").T("STAGE-001", "STAGE-002"),
		R("stage/rejected-validity-precondition", "a guard failure reports both validity members null", "abc", tx1(e("a", "y")), "target_version_mismatch").V(2).T("STAGE-001", "STAGE-002"),
		A("stage/accepted-validity", "an accepted simulation reports ACCEPTED, both validity members true, failure_reason null", "abc", tx1(e("a", "y")), "ybc", M("chg_001", 0, "a", "y")).T("STAGE-001", "STAGE-002", "STAGE-005", "STAGE-003", "ADAPTER-004"),
		A("stage/no-replay-labels", "a valid call is accepted, never a replay label", "abc", tx1(e("b", "B")), "aBc", M("chg_001", 1, "b", "B")).P(P010).T("STAGE-004", "ADAPTER-005"),
	)
	return cs
}
