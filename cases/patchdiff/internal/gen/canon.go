package main

func init() { areas = append(areas, canonCases, invalidTextCases) }

func canonCases() []*C {
	ma := "match_absent"
	return []*C{
		A("canon/crlf-target-lf-match", "CRLF in the target is LF before matching", "a\r\nb\r\n", tx1(e("a\nb", "x")), "x\n", M("chg_001", 0, "a\nb", "x")).T("CANON-001"),
		A("canon/lf-target-crlf-match", "CRLF in the match is LF before matching", "a\nb\n", tx1(e("a\r\nb", "x")), "x\n", M("chg_001", 0, "a\nb", "x")).T("CANON-001"),
		A("canon/bare-cr-target", "a bare CR in the target is LF", "a\rb\r", tx1(e("a\nb", "x")), "x\n", M("chg_001", 0, "a\nb", "x")).T("CANON-001"),
		A("canon/bare-cr-match", "a bare CR in the match is LF", "a\nb\n", tx1(e("a\rb", "x")), "x\n", M("chg_001", 0, "a\nb", "x")).T("CANON-001"),
		A("canon/crlf-replace", "CRLF in the replacement is LF in the result and counts one code point", "ab\n", tx1(e("b", "1\r\n2")), "a1\n2\n", M("chg_001", 1, "b", "1\n2")).T("CANON-001", "FACT-003"),
		A("canon/bare-cr-replace", "a bare CR in the replacement is LF", "ab\n", tx1(e("b", "1\r2\r")), "a1\n2\n\n", M("chg_001", 1, "b", "1\n2\n")).T("CANON-001"),
		A("canon/mixed-target", "CRLF, CR and LF in one target all become LF", "a\r\nb\rc\nd", tx1(e("b\nc", "X")), "a\nX\nd", M("chg_001", 2, "b\nc", "X")).T("CANON-001"),
		A("canon/cr-then-crlf", "CR followed by CRLF is two line breaks", "a\r\r\nb", tx1(e("\n\n", "-")), "a-b", M("chg_001", 1, "\n\n", "-")).T("CANON-001"),
		A("canon/lf-then-cr", "LF followed by a bare CR is two line breaks, not one CRLF", "a\n\rb", tx1(e("\n\n", "")), "ab", M("chg_001", 1, "\n\n", "")).T("CANON-001"),
		A("canon/crlf-offsets", "offsets count a CRLF as one code point: z is at 4 of \"x\\ny\\nz\"", "x\r\ny\r\nz", tx1(e("z", "Z")), "x\ny\nZ", M("chg_001", 4, "z", "Z")).T("CANON-001", "FIND-005"),
		A("canon/untouched-crlf-becomes-lf", "the result is canonical: CRLF outside the edit is LF too", "a\r\nb\r\nc\r\n", tx1(e("b", "B")), "a\nB\nc\n", M("chg_001", 2, "b", "B")).T("CANON-001"),
		A("canon/cr-match-hits-crlf", "a match of a bare CR is LF and finds the CRLF's single line break", "a\r\nb", tx1(e("\r", " ")), "a b", M("chg_001", 1, "\n", " ")).T("CANON-001"),
		A("canon/only-crlf", "a target of one CRLF is one LF", "\r\n", tx1(e("\n", "")), "", M("chg_001", 0, "\n", "")).T("CANON-001"),
		A("canon/tabs-kept", "tabs are kept exactly", "\tx = 1\n", tx1(e("\tx", "\ty")), "\ty = 1\n", M("chg_001", 0, "\tx", "\ty")).T("CANON-003"),
		R("canon/tab-is-not-spaces", "a tab never matches spaces", "    x\n", tx1(e("\tx", "y")), ma).T("CANON-003", "FIND-001"),
		R("canon/spaces-are-not-tab", "spaces never match a tab", "\tx\n", tx1(e("  x", "y")), ma).T("CANON-003", "FIND-001"),
		R("canon/trailing-spaces-matter", "trailing spaces are kept, so \"a\\n\" is not in \"a  \\n\"", "a  \nb\n", tx1(e("a\nb", "c")), ma).T("CANON-003"),
		A("canon/trailing-spaces-kept", "trailing spaces match and replace exactly", "a  \nb\n", tx1(e("a  \n", "A \t\n")), "A \t\nb\n", M("chg_001", 0, "a  \n", "A \t\n")).T("CANON-003"),
		A("canon/final-newline-kept", "the final newline stays", "a\n", tx1(e("a", "b")), "b\n", M("chg_001", 0, "a", "b")).T("CANON-003"),
		A("canon/no-final-newline-kept", "no final newline is added", "a", tx1(e("a", "b")), "b", M("chg_001", 0, "a", "b")).T("CANON-003"),
		A("canon/final-newlines-removed-by-edit", "an edit may remove final newlines; none are added back", "x\n\n", tx1(e("x\n\n", "y")), "y", M("chg_001", 0, "x\n\n", "y")).T("CANON-003"),
		A("canon/final-crlf-kept-as-lf", "a final CRLF stays as one final LF", "a\r\n", tx1(e("a", "b")), "b\n", M("chg_001", 0, "a", "b")).T("CANON-003", "CANON-001"),
		R("canon/nfc-target-nfd-match", "no normalisation: é (U+00E9) is not e + U+0301", "caf\u00e9\n", tx1(e("cafe\u0301", "x")), ma).T("CANON-004"),
		R("canon/nfd-target-nfc-match", "no normalisation: e + U+0301 is not é (U+00E9)", "cafe\u0301\n", tx1(e("caf\u00e9", "x")), ma).T("CANON-004"),
		A("canon/nfd-matches-nfd", "a decomposed match finds the decomposed target: two code points", "cafe\u0301\n", tx1(e("e\u0301", "E")), "cafE\n", M("chg_001", 3, "e\u0301", "E")).T("CANON-004", "FACT-003"),
		R("canon/no-nfkc-ligature", "no NFKC: the ligature U+FB01 is not \"fi\"", "\ufb01le\n", tx1(e("file", "x")), ma).T("CANON-004"),
		R("canon/no-nfkc-fullwidth", "no NFKC: fullwidth Ａ (U+FF21) is not A", "\uff21BC", tx1(e("ABC", "x")), ma).T("CANON-004"),
		A("canon/replacement-not-normalised", "the replacement keeps its decomposed form: 2 code points", "x\n", tx1(e("x", "e\u0301")), "e\u0301\n", M("chg_001", 0, "x", "e\u0301")).T("CANON-004", "FACT-003"),
		R("canon/case-sensitive", "matching is case-sensitive", T0, tx1(e("Beta", "x")), ma).T("FIND-001"),
		R("canon/whitespace-sensitive", "matching is whitespace-sensitive: two spaces are not one", T0, tx1(e("alpha  beta", "x")), ma).T("FIND-001"),
		R("canon/line-separator-not-newline", "U+2028 is not a line break: only CR and CRLF become LF", "a\u2028b", tx1(e("a\nb", "x")), ma).T("CANON-001"),
		R("canon/nel-not-newline", "U+0085 (NEL) is not a line break", "a\u0085b", tx1(e("a\nb", "x")), ma).T("CANON-001"),
		A("canon/form-feed-kept", "form feed and vertical tab are kept as they are", "a\fb\vc", tx1(e("\fb\v", "|")), "a|c", M("chg_001", 1, "\fb\v", "|")).T("CANON-003"),
	}
}

func invalidTextCases() []*C {
	te := "target_encoding_invalid"
	return []*C{
		R("text/target-lone-high-surrogate", "a target holding an unpaired high surrogate is invalid text", raw(`"ab\ud800cd"`), tx1(e("ab", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/target-lone-low-surrogate", "a target holding an unpaired low surrogate is invalid text", raw(`"ab\udc00cd"`), tx1(e("ab", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/target-high-surrogate-at-end", "a high surrogate with nothing after it", raw(`"abc\ud83d"`), tx1(e("ab", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/target-reversed-pair", "low then high surrogate is two unpaired surrogates", raw(`"a\ude00\ud83db"`), tx1(e("a", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/target-nul", "NUL in the target is refused", "a\u0000b", tx1(e("a", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/target-only-nul", "a target of one NUL", "\u0000", tx1(e("a", "x")), te).T("CANON-007", "HASH-002").D("invalid_input", "target"),
		R("text/match-lone-surrogate", "an unpaired surrogate escape in match", T0, tx1(e(raw(`"be\ud800ta"`), "x")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/match-nul", "NUL in match", T0, tx1(e("beta\u0000", "x")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/replace-lone-surrogate", "an unpaired surrogate escape in replace", T0, tx1(e("beta", raw(`"\udfff"`))), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/replace-nul", "NUL in replace", T0, tx1(e("beta", "x\u0000")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/rationale-nul", "NUL in rationale: metadata is checked too", T0, tx1(ok0("rationale", "a\u0000")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/rationale-lone-surrogate", "an unpaired surrogate in rationale", T0, tx1(ok0("rationale", raw(`"\ud800"`))), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/intent-nul", "NUL in intent", T0, tx1(ok0()).with("intent", "edit\u0000"), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/change-id-lone-surrogate", "an unpaired surrogate in change_id", T0, tx1(ok0("change_id", raw(`"c\udc01"`))), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/anchor-before-nul", "NUL in anchor_before", T0, tx1(ok0("anchor_before", "al\u0000")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/anchor-after-lone-surrogate", "an unpaired surrogate in anchor_after", T0, tx1(ok0("anchor_after", raw(`"\ud834"`))), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/client-request-id-nul", "NUL in the top-level client_request_id", T0, tx1(ok0()).with("client_request_id", "r\u0000"), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/second-edit-nul", "NUL in the second edit's replace: every edit is checked before any applies", "a b\n", tx1(e("a", "A"), e("b", "\u0000")), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/invalid-before-absent", "invalid text wins over a match that would be absent anyway", T0, tx1(e(raw(`"zz\ud800"`), "x")), te).T("CANON-008", "STAGE-006").D("invalid_input", "transaction"),
		R("text/transaction-text-lone-surrogate", "the transaction text itself holds an unpaired surrogate inside a string", T0,
			text(pieces{`{"format":"patchdiff-tx/1","target_file_id":"` + TFID + `","intent":"edit","expected_target_version":1,"edits":[{"match":"beta","replace":"`, raw(`"\ud800"`), `"}]}`}), te).T("CANON-008", "ADAPTER-003").D("invalid_input", "transaction"),
		R("text/transaction-text-raw-nul", "the transaction text itself holds a raw NUL inside a string, not an escape", T0,
			text(pieces{`{"format":"patchdiff-tx/1","target_file_id":"` + TFID + `","intent":"edit","expected_target_version":1,"edits":[{"match":"beta","replace":"`, "\x00", `"}]}`}), te).T("CANON-008").D("invalid_input", "transaction"),
		R("text/high-surrogate-then-private-use", "\\ud800 followed by \\ue000 (not a low surrogate) is an unpaired surrogate", T0, tx1(ok0("rationale", raw(`"\ud800\ue000"`))), te).T("CANON-008", "CANON-011").D("invalid_input", "transaction"),
		R("text/nul-escape-after-escape", "a NUL escape right after another escape is still NUL", T0, tx1(ok0("rationale", raw(`"\u0041\u0000"`))), te).T("CANON-008").D("invalid_input", "transaction"),
		A("text/escape-below-surrogates-valid", "U+D7FF, the last code point before the surrogates, written as an escape, is valid text", "a\ud7ffb", tx1(e(raw(`"\ud7ff"`), "-")), "a-b", M("chg_001", 1, "\ud7ff", "-")).T("CANON-006", "CANON-011"),
		A("text/surrogate-pair-escape", "a paired surrogate escape is U+1F600, valid text", "smile :)\n", tx1(e(":)", raw(`"\ud83d\ude00"`))), "smile \U0001F600\n", M("chg_001", 6, ":)", "\U0001F600")).T("CANON-011", "FIND-005"),
		A("text/noncharacter-valid", "U+FFFF is a noncharacter but valid text", "a\uffffb", tx1(e("\uffff", "-")), "a-b", M("chg_001", 1, "\uffff", "-")).T("CANON-006"),
		A("text/replacement-character-valid", "U+FFFD is ordinary text", "a\ufffdb", tx1(e("\ufffd", "?")), "a?b", M("chg_001", 1, "\ufffd", "?")).T("CANON-006"),
		A("text/escaped-control-valid", "U+0001 is valid text; only NUL is refused", "a\u0001b", tx1(e("\u0001", "")), "ab", M("chg_001", 1, "\u0001", "")).T("CANON-006"),
	}
}
