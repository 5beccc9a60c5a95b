package main

import "strings"

func init() { areas = append(areas, findCases, hashCases) }

const (
	P010 = "patchdiff-mvp-0.1.0"
	P020 = "patchdiff-mvp-0.2.0"
	P021 = "patchdiff-mvp-0.2.1"
	P022 = "patchdiff-mvp-0.2.2"
	P030 = "patchdiff-mvp-0.3.0"
	P040 = "patchdiff-mvp-0.4.0"
	P050 = "patchdiff-mvp-0.5.0"
)

// a64, aab64 and abaab64 are 64-byte matches that overlap themselves, of
// period 1, 3 and 5.
var (
	a64     = strings.Repeat("a", 64)
	aab64   = strings.Repeat("aab", 22)[:64]
	abaab64 = strings.Repeat("abaab", 13)[:64]
)

var allProfiles = []string{P010, P020, P021, P022, P030, P040, P050}

// fc is a failure_context subset.
func fc(buffer string, prior, length int) obj {
	return o("buffer", buffer, "prior_changes", prior, "buffer_length", length)
}

// cand is a candidate subset.
func cand(idx, start, end int) obj {
	return o("occurrence_index", idx, "span_start", start, "span_end", end)
}

func findCases() []*C {
	ma, amb := "match_absent", "match_ambiguous"
	return []*C{
		R("find/overlap-aa-in-aaa", "\"aa\" occurs twice in \"aaa\", at 0..2 and 1..3: ambiguous", "aaa", tx1(e("aa", "b")), amb).
			D("candidate_count", 2, "candidates", []any{cand(1, 0, 2), cand(2, 1, 3)}, "edit_index", 1, "change_id", "chg_001").T("FIND-003", "SELECT-001", "EVIDENCE-004"),
		A("find/overlap-aa-in-aaa-second", "the second overlapping occurrence of \"aa\" in \"aaa\" is 1..3", "aaa", tx1(e("aa", "b", "occurrence_index", 2)), "ab", M("chg_001", 1, "aa", "b")).T("FIND-003", "SELECT-002"),
		A("find/overlap-aa-in-aaa-first", "the first occurrence of \"aa\" in \"aaa\" is 0..2", "aaa", tx1(e("aa", "b", "occurrence_index", 1)), "ba", M("chg_001", 0, "aa", "b")).T("FIND-003", "SELECT-002"),
		A("find/overlap-aaa-in-aaaaa-third", "\"aaa\" occurs three times in \"aaaaa\"; the third is 2..5", "aaaaa", tx1(e("aaa", "X", "occurrence_index", 3)), "aaX", M("chg_001", 2, "aaa", "X")).T("FIND-003"),
		R("find/overlap-aaa-in-aaaaa-fourth", "\"aaa\" occurs only three times in \"aaaaa\": index 4 selects nothing", "aaaaa", tx1(e("aaa", "X", "occurrence_index", 4)), "disambiguation_invalid").T("FIND-003", "SELECT-007"),
		A("find/overlap-abab", "\"abab\" occurs at 0 and 2 of \"ababab\"; the second is 2..6", "ababab", tx1(e("abab", "X", "occurrence_index", 2)), "abX", M("chg_001", 2, "abab", "X")).T("FIND-003"),
		A("find/overlap-aa-in-aaaa-third", "\"aa\" occurs three times in \"aaaa\"; the third is 2..4", "aaaa", tx1(e("aa", "b", "occurrence_index", 3)), "aab", M("chg_001", 2, "aa", "b")).T("FIND-003"),
		R("find/overlap-count-seven", "\"a\" occurs seven times in \"aaaaaaa\"", "aaaaaaa", tx1(e("a", "b")), amb).D("candidate_count", 7).T("FIND-003", "SELECT-001"),
		A("find/emoji-offsets", "U+1F600 is one code point: the second \"a\" of \"😀a😀a\" is at 3", "\U0001F600a\U0001F600a", tx1(e("a", "b", "occurrence_index", 2)), "\U0001F600a\U0001F600b", M("chg_001", 3, "a", "b")).T("FIND-005", "CANON-006"),
		A("find/emoji-match", "a match of one emoji has matched_chars 1", "x\U0001F600y", tx1(e("\U0001F600", "z")), "xzy", M("chg_001", 1, "\U0001F600", "z")).T("FIND-005", "FACT-003"),
		A("find/emoji-replacement-chars", "two emoji are two replacement code points, eight UTF-8 bytes", "x:y", tx1(e(":", "\U0001F600\U0001F601")), "x\U0001F600\U0001F601y", M("chg_001", 1, ":", "\U0001F600\U0001F601")).T("FIND-005", "FACT-003"),
		A("find/clef-offsets", "U+1D11E (two UTF-16 units) counts one: x is at 2", "\U0001D11E\U0001D11Ex", tx1(e("x", "y")), "\U0001D11E\U0001D11Ey", M("chg_001", 2, "x", "y")).T("FIND-005"),
		A("find/zwj-sequence-offsets", "a family emoji is five code points: y is at 6", "x\U0001F468\u200d\U0001F469\u200d\U0001F467y", tx1(e("y", "z")), "x\U0001F468\u200d\U0001F469\u200d\U0001F467z", M("chg_001", 6, "y", "z")).T("FIND-005"),
		A("find/cjk-offsets", "CJK characters are one code point each, three UTF-8 bytes", "日本語テキスト", tx1(e("テキスト", "文")), "日本語文", M("chg_001", 3, "テキスト", "文")).T("FIND-005", "CANON-006"),
		A("find/two-byte-offsets", "ü and ß are one code point each", "grüße welt", tx1(e("welt", "Welt")), "grüße Welt", M("chg_001", 6, "welt", "Welt")).T("FIND-005"),
		R("find/empty-target", "nothing occurs in an empty target", "", tx1(e("a", "b")), ma).
			D("failure_context", fc("transaction_start", 0, 0), "near_miss_query", "a", "near_miss_status", "captured", "match_absent_prefix", "").T("FIND-004", "EVIDENCE-007"),
		R("find/empty-target-newline", "a newline does not occur in an empty target", "", tx1(e("\n", "")), ma).T("FIND-004"),
		R("find/longer-than-target", "a match longer than the target is absent", "abc", tx1(e("abcd", "x")), ma).D("near_miss_query", "abcd").T("FIND-004"),
		A("find/whole-target", "a match of the whole target", "abc", tx1(e("abc", "")), "", M("chg_001", 0, "abc", "")).T("FIND-002"),
		A("find/at-end", "a match that ends the target", "abc", tx1(e("c", "C")), "abC", M("chg_001", 2, "c", "C")).T("FIND-002"),
		A("find/multiline", "a match spanning three lines", "1\n2\n3\n4\n", tx1(e("2\n3\n4", "x")), "1\nx\n", M("chg_001", 2, "2\n3\n4", "x")).T("FIND-001"),
		R("find/partial-line-absent", "no fuzzy matching: one character off is absent", "function foo() {}\n", tx1(e("function fo0()", "x")), ma).T("FIND-001"),
		R("find/no-token-matching", "no token matching: different spacing is absent", "a+b\n", tx1(e("a + b", "x")), ma).T("FIND-001"),
		A("find/unique-in-repetitive", "one occurrence among near misses", "abcabdabe", tx1(e("abd", "-")), "abc-abe", M("chg_001", 3, "abd", "-")).T("FIND-002"),
		R("find/code-points-not-bytes", "U+00E9 and U+00E8 share their first UTF-8 byte; no byte-wise match", "\u00e9", tx1(e("\u00e8", "x")), ma).T("FIND-002", "FIND-005"),
		R("find/no-utf16-match", "a match of a lone high surrogate's partner is not found inside an emoji: matching is over code points", "\U0001F600", tx1(e("\U0001F601", "x")), ma).T("FIND-002"),
		// Long matches that overlap themselves hundreds of times: where a
		// searcher changes strategy after many hits (the reference turns to
		// Knuth-Morris-Pratt after 256 occurrences of 64 bytes or more), a
		// few hundred bytes reach the second strategy.
		A("find/long-needle-last-of-279", "a 64-byte match overlapping itself 279 times in 900 bytes: the last occurrence starts at 834",
			pieces{rep{"aab", 300}}, tx1(e(aab64, "X", "occurrence_index", 279)), pieces{rep{"aab", 278}, "Xab"}, M("chg_001", 834, aab64, "X")).T("FIND-003", "SELECT-002"),
		A("find/long-needle-after-a-break", "a 64-byte match overlapping itself, 280 times and then after a stray \"ab\" 4 more: the 281st starts at 902, past the break",
			pieces{rep{"aab", 300}, "ab", rep{"aab", 25}}, tx1(e(aab64, "X", "occurrence_index", 281)), pieces{rep{"aab", 300}, "abXab", rep{"aab", 3}}, M("chg_001", 902, aab64, "X")).T("FIND-003", "SELECT-002"),
		A("find/long-needle-period-five", "a 64-byte match of period 5 occurs 288 times in 1,500 bytes: the last starts at 1435",
			pieces{rep{"abaab", 300}}, tx1(e(abaab64, "X", "occurrence_index", 288)), pieces{rep{"abaab", 287}, "Xb"}, M("chg_001", 1435, abaab64, "X")).T("FIND-003", "SELECT-002"),
		A("find/long-needle-run-last-of-337", "a match of 64 \"a\" occurs 337 times in a run of 400 \"a\", once at every code point: the last starts at 336",
			pieces{rep{"a", 400}}, tx1(e(a64, "X", "occurrence_index", 337)), pieces{rep{"a", 336}, "X"}, M("chg_001", 336, a64, "X")).T("FIND-003", "SELECT-002"),
		A("find/long-needle-run-after-a-stray-letter", "a match of 64 \"a\" occurs 257 times in a run of 320 \"a\" and once in the 64 \"a\" after a \"Z\": the 258th starts at 321, past the \"Z\"", pieces{rep{"a", 320}, "Z", rep{"a", 64}}, tx1(e(a64, "X", "occurrence_index", 258)), pieces{rep{"a", 320}, "ZX"}, M("chg_001", 321, a64, "X")).T("FIND-003", "SELECT-002"),
		A("find/long-needle-anchor-after-selects-first", "of 280 occurrences of a 64-byte match, searched to the text's end, only the first (0..64) ends before the one \"M\" at 66: anchor_after selects it",
			pieces{rep{"aab", 22}, "M", rep{"aab", 300}, "ZZZZZZZZ"}, tx1(e(aab64, "X", "anchor_after", "M")), pieces{"XabM", rep{"aab", 300}, "ZZZZZZZZ"}, M("chg_001", 0, aab64, "X")).T("FIND-003", "SELECT-004"),
	}
}

func hashCases() []*C {
	return []*C{
		R("hash/empty-target", "the hash of the empty canonical target", "", tx1(e("a", "b")), "match_absent").
			Hashes("e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "").T("HASH-001", "HASH-002", "HASH-003"),
		A("hash/crlf-target", "before_hash is over the canonical text: \"a\\r\\nb\\r\\n\" hashes as \"a\\nb\\n\"", "a\r\nb\r\n", tx1(e("a", "a")), "a\nb\n", M("chg_001", 0, "a", "a")).
			W(o("code", "no_op_change", "change_id", "chg_001"), o("code", "no_op_transaction")).
			Hashes("911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2", "911169ddaaf146aff539f58c26c489af3b892dff0fe283c1c264c65ae5aa59a2").T("HASH-001", "HASH-002", "HASH-004"),
		A("hash/before-and-after", "before_hash and after_hash pinned, computed with sha256sum", T0, tx1(ok0()), R0, F0).
			Hashes("adf7157c8a5bbb4b099d39ba5ef34b73a3787f5e9326b3eb24ac8b86fd03ff96", "c966ff055ca00b7d268a80d905147f4ac93ab36785bf7d55a104a0303a417dd6").T("HASH-001", "HASH-004"),
		A("hash/fact-hashes", "matched_sha256 and replacement_sha256 pinned, computed with sha256sum", T0, tx1(ok0()), R0,
			F0.with("matched_sha256", "f44e64e75f3948e9f73f8dfa94721c4ce8cbb4f265c4790c702b2d41cfbf2753", "replacement_sha256", "639181fd63cbad6e274ecd205b79f5c3e7c11971cac617ee8bddcac6e79b20e7")).T("HASH-005"),
		A("hash/replacement-hash-canonical", "replacement_sha256 is over the canonical replacement \"x\\ny\"", "-", tx1(e("-", "x\r\ny")), "x\ny",
			M("chg_001", 0, "-", "x\ny").with("replacement_sha256", "9ab9de25768ac172235e119b76362ecddad33878fe9a7792cdddbe47236f9a87")).T("HASH-005", "CANON-001"),
		A("hash/nfc-target", "the NFC target hashes its own bytes", "caf\u00e9\n", tx1(e("caf", "caf")), "caf\u00e9\n", M("chg_001", 0, "caf", "caf")).
			W(o("code", "no_op_change", "change_id", "chg_001"), o("code", "no_op_transaction")).
			Hashes("7b49b9e063bd91a4f9252b413261f5557b9c570aa61516989499f64a62dbcdd6", "").T("HASH-001", "CANON-004"),
		A("hash/nfd-target", "the NFD target hashes differently from the NFC one: no normalisation", "cafe\u0301\n", tx1(e("caf", "caf")), "cafe\u0301\n", M("chg_001", 0, "caf", "caf")).
			W(o("code", "no_op_change", "change_id", "chg_001"), o("code", "no_op_transaction")).
			Hashes("dcc492420fc77018ce8b7eb59458568e7901e9751194f4dbe7a1044ca16ccd2e", "").T("HASH-001", "CANON-004"),
		A("hash/utf8-not-utf16", "the hash is over UTF-8 bytes: U+1F600 is f0 9f 98 80", "x\n", tx1(e("x", "\U0001F600")), "\U0001F600\n", M("chg_001", 0, "x", "\U0001F600")).
			Hashes("73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac", "d744e0ee836148320d73e0d69631b60cc9eb4ec732cf9d78afd0d70661fcff31").T("HASH-001"),
		R("hash/rejected-after-null", "a rejection carries before_hash and a null after_hash", "x\n", tx1(e("y", "z")), "match_absent").
			Hashes("73cb3858a687a8494ca3323053016282f3dad39d42cf62ca4e79dda2aac7d9ac", "").T("HASH-002", "HASH-003"),
		R("hash/invalid-target-null", "before_hash is null when the target is invalid text", "x\u0000", tx1(e("x", "y")), "target_encoding_invalid").D("invalid_input", "target").T("HASH-002", "CANON-007"),
	}
}
