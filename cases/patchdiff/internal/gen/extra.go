package main

func init() { areas = append(areas, extraCases) }

// extraTags adds requirement IDs to cases written elsewhere, for the
// requirements they check besides their main one.
var extraTags = map[string][]string{
	"text/target-lone-high-surrogate":   {"CANON-010", "ADAPTER-003"},
	"text/target-nul":                   {"CANON-010", "ADAPTER-003"},
	"text/match-lone-surrogate":         {"CANON-010"},
	"text/rationale-nul":                {"CANON-010"},
	"stage/accepted-validity":           {"FACT-005"},
	"fact/order":                        {"FACT-005", "ADAPTER-005"},
	"seq/match-removed":                 {"FACT-006"},
	"select/singleton-index-2-v0.2.1":   {"PROFILE-003"},
	"select/singleton-index-2-v0.2.2":   {"PROFILE-003"},
	"evidence/absent-small":             {"EVIDENCE-010"},
	"evidence/near-miss-canonical":      {"EVIDENCE-010"},
	"stage/rejected-validity-protocol":  {"STAGE-003"},
	"profile/tx1-v0.2.0":                {"STAGE-004"},
	"decode/json-deep-nesting":          {"STAGE-007"},
	"decode/json-deep-nesting-unclosed": {"STAGE-007"},
	"span/end-past-length":              {"STAGE-008"},
	"span/mismatch":                     {"STAGE-008"},
	"profile/missing":                   {"ADAPTER-001"},
	"warn/collect-false-no-op":          {"ADAPTER-001"},
	"scope/match-inside":                {"ADAPTER-001"},
	"decode/tx1-minimal":                {"ADAPTER-005"},
}

func extraCases() []*C {
	return []*C{
		A("canon/change-id-not-canonical", "change_id reaches no buffer: its CRLF is kept in the fact", "a", tx1(e("a", "b", "change_id", "id\r\n1")), "b", M("id\r\n1", 0, "a", "b")).T("CANON-005", "FACT-001"),
		A("canon/intent-cr-kept", "intent and metadata are not canonicalised and change nothing", "a", tx1(e("a", "b")).with("intent", "x\ry", "metadata", o("note", "a\r\nb")), "b", M("chg_001", 0, "a", "b")).T("CANON-005"),
		A("text/surrogate-pair-in-target", "a paired surrogate escape in the target is U+1F600", raw(`"\ud83d\ude00x"`), tx1(e("x", "y")), "\U0001F600y", M("chg_001", 1, "x", "y")).T("CANON-011", "ADAPTER-003"),
		A("select/region-hint-singleton-v0.5.0", "region_hint on a single occurrence is accepted under 0.5.0", T0, tx2(om("beta", "BETA", "region_hint", "anywhere")), R0, F0).P(P050).T("SELECT-012"),
		A("select/region-hint-singleton-v0.4.0", "region_hint on a single occurrence is accepted under 0.4.0", T0, tx2(om("beta", "BETA", "region_hint", "anywhere")), R0, F0).P(P040).T("SELECT-012"),
		R("warn/none-on-rejection", "a no-op edit 1 and a failing edit 2: the rejection carries no warning and no fact", "a", tx1(e("a", "a"), e("zz", "y")), "match_absent").T("WARN-009", "FACT-006"),
		R("warn/none-on-rejection-basis-shift", "a rejection after an index that would shift carries no warning", "k a a", tx1(e("k", "a"), e("a", "X", "occurrence_index", 3), e("zz", "y")), "match_absent").T("WARN-009"),
		A("stage/historical-accepts", "a historical profile accepts as 0.2.2 does: ACCEPTED, no service stage", "abc", tx1(e("c", "C")), "abC", M("chg_001", 2, "c", "C")).P(P021).T("STAGE-003", "STAGE-004"),
	}
}
