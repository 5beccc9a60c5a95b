package main

import "strings"

func init() { areas = append(areas, selectCases) }

// TS has "x" at 0, 6 and 12; "1" at 4, "2" at 10, "3" at 16; length 18.
const TS = "x = 1\nx = 2\nx = 3\n"

func vname(p string) string { return "v" + strings.TrimPrefix(p, "patchdiff-mvp-") }

func selectCases() []*C {
	di, amb := "disambiguation_invalid", "match_ambiguous"
	var cs []*C
	for _, p := range allProfiles {
		v := vname(p)
		ignored := p == P010 || p == P020 || p == P021
		if ignored {
			cs = append(cs,
				A("select/singleton-index-2-"+v, "a historical profile ignores the selectors of a single occurrence: index 2 still selects it", T0, tx1(ok0("occurrence_index", 2)), R0, F0).P(p).T("SELECT-011", "PROFILE-001"),
				A("select/singleton-absent-anchor-"+v, "a historical profile ignores an anchor_before that occurs nowhere when the match is single", T0, tx1(ok0("anchor_before", "zzz")), R0, F0).P(p).T("SELECT-011"),
				A("select/singleton-wrong-side-anchor-"+v, "a historical profile ignores an anchor_after that only occurs before a single match", T0, tx1(ok0("anchor_after", "alpha")), R0, F0).P(p).T("SELECT-011"),
			)
		} else {
			cs = append(cs,
				R("select/singleton-index-2-"+v, "from 0.2.2 selectors constrain a single occurrence too: index 2 of one occurrence selects nothing", T0, tx1(ok0("occurrence_index", 2)), di).P(p).T("SELECT-010", "SELECT-007"),
				R("select/singleton-absent-anchor-"+v, "from 0.2.2 an anchor_before that occurs nowhere excludes the single occurrence", T0, tx1(ok0("anchor_before", "zzz")), di).P(p).T("SELECT-010"),
				R("select/singleton-wrong-side-anchor-"+v, "from 0.2.2 an anchor_after found only before the single occurrence excludes it", T0, tx1(ok0("anchor_after", "alpha")), di).P(p).T("SELECT-010", "SELECT-004"),
				A("select/singleton-anchors-hold-"+v, "anchors that hold keep the single occurrence", T0, tx1(ok0("anchor_before", "alpha", "anchor_after", "gamma")), R0, F0).P(p).T("SELECT-010", "SELECT-005"),
			)
		}
		cs = append(cs,
			A("select/singleton-index-1-"+v, "index 1 of a single occurrence selects it under every profile", T0, tx1(ok0("occurrence_index", 1)), R0, F0).P(p).T("SELECT-002", "SELECT-009"),
			R("select/ambiguous-"+v, "three occurrences and no selector are ambiguous under every profile", TS, tx1(e("x", "y")), amb).P(p).
				D("candidate_count", 3, "candidates", []any{cand(1, 0, 1), cand(2, 6, 7), cand(3, 12, 13)}).T("SELECT-001", "EVIDENCE-004"),
			A("select/index-2-of-3-"+v, "occurrence_index 2 selects the second of three occurrences under every profile", TS, tx1(e("x", "y", "occurrence_index", 2)), "x = 1\ny = 2\nx = 3\n", M("chg_001", 6, "x", "y")).P(p).T("SELECT-002", "PROFILE-007"),
			R("select/index-4-of-3-"+v, "occurrence_index 4 of three occurrences selects nothing under every profile", TS, tx1(e("x", "y", "occurrence_index", 4)), di).P(p).
				D("candidate_count", 3).T("SELECT-006", "SELECT-007"),
		)
	}
	cs = append(cs,
		A("select/anchor-before-selects", "only the x at 12 has a \"2\" (at 10) wholly before it", TS, tx1(e("x", "y", "anchor_before", "2")), "x = 1\nx = 2\ny = 3\n", M("chg_001", 12, "x", "y")).T("SELECT-003"),
		R("select/anchor-before-leaves-two", "\"1\" (at 4) is before both the x at 6 and the x at 12: two remain", TS, tx1(e("x", "y", "anchor_before", "1")), di).T("SELECT-003", "SELECT-006"),
		A("select/anchor-after-selects", "only the x at 0 has a \"1\" (at 4) wholly after it", TS, tx1(e("x", "y", "anchor_after", "1")), "y = 1\nx = 2\nx = 3\n", M("chg_001", 0, "x", "y")).T("SELECT-004"),
		R("select/anchor-after-leaves-two", "\"2\" (at 10) is after both the x at 0 and the x at 6", TS, tx1(e("x", "y", "anchor_after", "2")), di).T("SELECT-004", "SELECT-006"),
		A("select/anchors-conjunctive", "anchor_before \"1\" keeps 6 and 12, anchor_after \"2\" keeps 0 and 6: together only 6", TS, tx1(e("x", "y", "anchor_before", "1", "anchor_after", "2")), "x = 1\ny = 2\nx = 3\n", M("chg_001", 6, "x", "y")).T("SELECT-005"),
		R("select/anchors-conjunctive-none", "anchor_before \"2\" keeps only 12, anchor_after \"2\" only 0 and 6: nothing is left", TS, tx1(e("x", "y", "anchor_before", "2", "anchor_after", "2")), di).T("SELECT-005", "SELECT-006"),
		R("select/index-and-anchor-conflict", "index 1 is the x at 0, which has no \"2\" before it: conjunctive constraints leave nothing", TS, tx1(e("x", "y", "occurrence_index", 1, "anchor_before", "2")), di).T("SELECT-005"),
		A("select/index-and-anchor-agree", "index 3 is the x at 12, which has \"2\" before it", TS, tx1(e("x", "y", "occurrence_index", 3, "anchor_before", "2")), "x = 1\nx = 2\ny = 3\n", M("chg_001", 12, "x", "y")).T("SELECT-005", "SELECT-002"),
		A("select/index-is-global-not-filtered", "occurrence_index counts the global list, not the occurrences the anchor keeps: index 2 with anchor_before \"1\" is the x at 6", TS, tx1(e("x", "y", "occurrence_index", 2, "anchor_before", "1")), "x = 1\ny = 2\nx = 3\n", M("chg_001", 6, "x", "y")).T("SELECT-002", "SELECT-005"),
		R("select/anchor-nowhere", "an anchor_before that occurs nowhere excludes every occurrence", TS, tx1(e("x", "y", "anchor_before", "zzz")), di).T("SELECT-006"),
		R("select/anchor-nowhere-match-at-end", "an anchor_before that occurs nowhere excludes every occurrence, the x on the buffer's last code point too", "x x", tx1(e("x", "y", "anchor_before", "zzz")), di).D("candidate_count", 2).T("SELECT-003", "SELECT-006"),
		A("select/anchor-far-away", "adjacency is not required: \"x = 1\" lies a whole line before the x at 12", TS, tx1(e("x = ", "y = ", "anchor_before", "x = 2")), "x = 1\nx = 2\ny = 3\n", M("chg_001", 12, "x = ", "y = ")).T("SELECT-003"),
		A("select/anchor-before-overlap-excluded", "\"ab\" overlaps the b at 1, so it is wholly before only the b at 4", "ab ab", tx1(e("b", "X", "anchor_before", "ab")), "ab aX", M("chg_001", 4, "b", "X")).T("SELECT-003"),
		A("select/anchor-before-touching", "an anchor that ends where the occurrence starts is wholly before it", "ab ab", tx1(e("ab", "X", "anchor_before", "b ")), "ab X", M("chg_001", 3, "ab", "X")).T("SELECT-003"),
		A("select/anchor-after-overlap-excluded", "\"ba\" at 0 overlaps the b at 0; only the \"ba\" at 3 is after it, and none is after the b at 3", "ba ba", tx1(e("b", "X", "anchor_after", "ba")), "Xa ba", M("chg_001", 0, "b", "X")).T("SELECT-004"),
		A("select/anchor-after-touching", "an anchor that starts where the occurrence ends is wholly after it", "ab ab", tx1(e("ab", "X", "anchor_after", " ")), "X ab", M("chg_001", 0, "ab", "X")).T("SELECT-004"),
		A("select/anchor-crlf-canonical", "an anchor is canonicalised: \"2\\r\\n\" is \"2\\n\" at 10, before only the x at 12", TS, tx1(e("x", "y", "anchor_before", "2\r\n")), "x = 1\nx = 2\ny = 3\n", M("chg_001", 12, "x", "y")).T("CANON-002", "SELECT-003"),
		A("select/anchor-inside-other-occurrence", "the anchor may lie inside another occurrence: \"aa\" at 0 is wholly before the \"aa\" at 2 in \"aaaa\"", "aaaa",
			tx1(e("aa", "b", "anchor_before", "aa")), "aab", M("chg_001", 2, "aa", "b")).T("SELECT-003", "FIND-003"),
		R("select/ambiguous-overlapping-anchor", "in \"aaaaa\" \"aa\" wholly before leaves the occurrences at 2 and 3", "aaaaa", tx1(e("aa", "b", "anchor_before", "aa")), di).T("SELECT-003", "SELECT-006"),
		A("select/anchor-in-emoji-text", "anchors and offsets over supplementary characters", "\U0001F600x\U0001F601x", tx1(e("x", "y", "anchor_before", "\U0001F601")), "\U0001F600x\U0001F601y", M("chg_001", 3, "x", "y")).T("SELECT-003", "FIND-005"),

		// Advisory-only selection: region_hint exists only on tx/2 match operations.
		R("select/region-hint-alone-ambiguous", "with three occurrences a region_hint alone is advisory and selects nothing", TS, tx2(om("x", "y", "region_hint", "line 2")), di).P(P030).T("SELECT-008", "DECODE-024"),
		R("select/region-hint-alone-ambiguous-v0.5.0", "advisory-only disambiguation under 0.5.0", TS, tx2(om("x", "y", "region_hint", "second")), di).P(P050).T("SELECT-008"),
		A("select/region-hint-singleton", "region_hint on a single occurrence is accepted and ignored", T0, tx2(om("beta", "BETA", "region_hint", "middle")), R0, F0).P(P030).T("SELECT-012", "DECODE-024"),
		A("select/region-hint-with-index", "region_hint beside an occurrence_index: the index selects", TS, tx2(om("x", "y", "region_hint", "top", "occurrence_index", 3)), "x = 1\nx = 2\ny = 3\n", M("chg_001", 12, "x", "y")).P(P030).T("SELECT-002", "SELECT-008"),
		R("select/tx2-match-ambiguous", "a tx/2 match operation follows the 0.2.2 rules: ambiguous", TS, tx2(om("x", "y")), amb).P(P030).T("SELECT-001", "DECODE-024"),
		R("select/tx2-match-singleton-index-2", "a tx/2 match operation constrains a single occurrence", T0, tx2(om("beta", "BETA", "occurrence_index", 2)), di).P(P050).T("SELECT-010"),
		R("select/region-hint-number", "region_hint must be a string", T0, tx2(om("beta", "BETA", "region_hint", 3)), "manifest_invalid").P(P030).T("DECODE-024"),
		A("select/region-hint-empty-singleton", "region_hint is any string, the empty one included: on a single occurrence it is accepted and ignored", T0, tx2(om("beta", "BETA", "region_hint", "")), R0, F0).P(P030).T("DECODE-024", "SELECT-012"),
	)
	return cs
}
