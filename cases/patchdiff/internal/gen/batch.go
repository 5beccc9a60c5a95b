package main

// The observed-batch cases (area batch, spec/patchdiff BATCH). Every
// expectation is written by hand from the seed's batch sentence and the
// BATCH rules: each group's result in its own scope-local buffer, the local
// offsets of its facts, the assembled text and the order of assembly
// (descending scope_start). gen only sorts the envelope's members (the
// canonical form BATCH-005 asks for), hashes the target and its slices
// for the guards and the scope evidence, and counts code points.

import (
	"bytes"
	"encoding/json"
	"log"
	"sort"
)

func init() { areas = append(areas, batchCases) }

const (
	BR   = "patchdiff-observed-batch-r1"
	BFmt = "patchdiff-observed-batch/1"
	// TB is the target most batch cases edit: four lines, scopes
	// [0,6) "alpha\n", [6,11) "beta\n", [11,17) "gamma\n", [17,23) "delta\n".
	TB = "alpha\nbeta\ngamma\ndelta\n"
)

// grp is one group as a case writes it; hash "" is the real hash of its
// canonical slice.
type grp struct {
	id   string
	s, e int
	ops  []obj
	hash string
	tx   obj // replaces the group's transaction when set
	with []any
}

func G(id string, s, e int, ops ...obj) grp { return grp{id: id, s: s, e: e, ops: ops} }

// gtx is a group's patchdiff-tx/2 transaction: no guard of its own.
func gtx(ops ...obj) obj {
	return o("format", "patchdiff-tx/2", "target_file_id", TFID, "intent", "edit", "operations", objs(ops))
}

// envOf is the envelope of groups over target at version 1 with both
// global guards, before sorting.
func envOf(target string, gs ...grp) obj {
	c := []rune(rcanon(target))
	var list []any
	for _, g := range gs {
		h := g.hash
		if h == "" {
			h = sha(string(c[g.s:g.e]))
		}
		tx := g.tx
		if tx == nil {
			tx = gtx(g.ops...)
		}
		list = append(list, o("observation_id", g.id, "scope_bounds", o("scope_start", g.s, "scope_end", g.e), "target_hash", h, "transaction", tx).with(g.with...))
	}
	return o("format", BFmt, "target_file_id", TFID, "intent", "batch edit", "expected_target_version", 1,
		"expected_current_hash", sha(string(c)), "groups", list)
}

// sorted returns v with every object's members in RFC 8785 order (every
// name here is ASCII, so byte order is UTF-16 order).
func sorted(v any) any {
	switch x := v.(type) {
	case obj:
		out := obj{}
		for _, m := range x {
			out = append(out, kv{m.k, sorted(m.v)})
		}
		sort.SliceStable(out, func(i, j int) bool { return out[i].k < out[j].k })
		return out
	case []any:
		out := make([]any, len(x))
		for i, it := range x {
			out[i] = sorted(it)
		}
		return out
	}
	return v
}

// compactText is an envelope's canonical text, for cases that then spoil it.
func compactText(x obj) string {
	var b bytes.Buffer
	if err := json.Compact(&b, []byte(enc(sorted(x)))); err != nil {
		log.Fatal(err)
	}
	return b.String()
}

// BA is an accepted batch: its text, assembly order and facts (bf).
func BA(name, why, target string, env obj, result string, order []int, facts ...obj) *C {
	c := A("batch/"+name, why, target, sorted(env), result, facts...).P(BR)
	c.batch = true
	for _, i := range order {
		c.order = append(c.order, i)
	}
	return c
}

// BRj is a rejected batch; env is an obj (sorted here) or a text.
func BRj(name, why string, target any, env any, label string) *C {
	if x, ok := env.(obj); ok {
		env = sorted(x)
	}
	c := R("batch/"+name, why, target, env, label).P(BR)
	c.batch = true
	return c
}

// bf is a batch fact: group g, its operation k, the group's observation
// and scope, and the runtime fact f in the group's local coordinates.
func bf(g, k int, id string, s, e int, f obj) obj {
	return o("group_index", g, "operation_index", k, "observation_id", id, "scope_start", s, "scope_end", e).with(flat(f)...)
}

func flat(x obj) []any {
	var out []any
	for _, m := range x {
		out = append(out, m.k, m.v)
	}
	return out
}

// gw is a group's warning.
func gw(g int, w obj) obj { return o("group_index", g).with(flat(w)...) }

func batchCases() []*C {
	mi, stm, oob := "manifest_invalid", "span_expected_text_mismatch", "span_out_of_bounds"
	L1 := func(ops ...obj) grp { return G("obs-1", 0, 6, ops...) }
	L2 := func(ops ...obj) grp { return G("obs-2", 6, 11, ops...) }
	L3 := func(ops ...obj) grp { return G("obs-3", 11, 17, ops...) }
	L4 := func(ops ...obj) grp { return G("obs-4", 17, 23, ops...) }
	alpha := os_(0, 5, "alpha", "ALPHA")
	okEnv := envOf(TB, L1(alpha))
	five := "0123456789abcdefghij"
	crlf := "one\r\ntwo\r\nthree\r\n"
	emoji := "\U0001F600a\U0001F600b\U0001F600c\n"
	c := []*C{
		// ---- accepted: assembly, facts, coordinates ----
		BA("one-group-span", "one group's span over its slice; the local fact is at 0 of \"alpha\\n\"", TB, envOf(TB, L1(alpha)),
			"ALPHA\nbeta\ngamma\ndelta\n", []int{1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "ALPHA"))).
			T("BATCH-001", "BATCH-002", "BATCH-014", "BATCH-017", "BATCH-018", "BATCH-019", "BATCH-022"),
		BA("one-group-match", "a match in the scope [6, 11) finds \"beta\" at local 0, not at 6", TB, envOf(TB, L2(om("beta", "B"))),
			"alpha\nB\ngamma\ndelta\n", []int{1}, bf(1, 1, "obs-2", 6, 11, M("chg_001", 0, "beta", "B"))).
			T("BATCH-014", "BATCH-018", "BATCH-019"),
		BA("two-groups-ascending", "groups listed in ascending scope order are assembled back to front: [2, 1]", TB,
			envOf(TB, L1(os_(0, 5, "alpha", "A")), L3(om("gamma", "G"))),
			"A\nbeta\nG\ndelta\n", []int{2, 1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "A")), bf(2, 1, "obs-3", 11, 17, M("chg_001", 0, "gamma", "G"))).
			T("BATCH-017", "BATCH-018", "BATCH-022"),
		BA("two-groups-descending", "groups listed in descending scope order assemble in envelope order [1, 2]", TB,
			envOf(TB, L4(os_(0, 5, "delta", "D")), L1(os_(0, 5, "alpha", "A"))),
			"A\nbeta\ngamma\nD\n", []int{1, 2}, bf(1, 1, "obs-4", 17, 23, S("chg_001", 0, "delta", "D")), bf(2, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "A"))).
			T("BATCH-011", "BATCH-017"),
		BA("three-groups-unordered", "scopes 6, 17, 0 in envelope order assemble as groups [2, 1, 3]", TB,
			envOf(TB, L2(om("beta", "b2")), L4(om("delta", "d4")), L1(om("alpha", "a1"))),
			"a1\nb2\ngamma\nd4\n", []int{2, 1, 3},
			bf(1, 1, "obs-2", 6, 11, M("chg_001", 0, "beta", "b2")), bf(2, 1, "obs-4", 17, 23, M("chg_001", 0, "delta", "d4")), bf(3, 1, "obs-1", 0, 6, M("chg_001", 0, "alpha", "a1"))).
			T("BATCH-011", "BATCH-017", "BATCH-018"),
		BA("four-groups-lengths-change", "every line a group; shrinking, growing and deleting a whole scope leave the other scopes' offsets intact", TB,
			envOf(TB, L1(os_(0, 5, "alpha", "a")), L2(os_(0, 4, "beta", "BETA!!")), L3(os_(0, 6, "gamma\n", "")), L4(os_(0, 5, "delta", "d"))),
			"a\nBETA!!\nd\n", []int{4, 3, 2, 1},
			bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "a")), bf(2, 1, "obs-2", 6, 11, S("chg_001", 0, "beta", "BETA!!")),
			bf(3, 1, "obs-3", 11, 17, S("chg_001", 0, "gamma\n", "")), bf(4, 1, "obs-4", 17, 23, S("chg_001", 0, "delta", "d"))).
			T("BATCH-017", "BATCH-018"),
		BA("five-groups-shuffled", "five scopes listed 8, 0, 16, 4, 12 assemble by descending start as [3, 5, 1, 4, 2]", five,
			envOf(five, G("g-8", 8, 10, os_(0, 1, "8", "<8>")), G("g-0", 0, 2, os_(0, 1, "0", "<0>")), G("g-16", 16, 18, os_(0, 1, "g", "<g>")),
				G("g-4", 4, 6, os_(0, 1, "4", "<4>")), G("g-12", 12, 14, os_(0, 1, "c", "<c>"))),
			"<0>123<4>567<8>9ab<c>def<g>hij", []int{3, 5, 1, 4, 2},
			bf(1, 1, "g-8", 8, 10, S("chg_001", 0, "8", "<8>")), bf(2, 1, "g-0", 0, 2, S("chg_001", 0, "0", "<0>")), bf(3, 1, "g-16", 16, 18, S("chg_001", 0, "g", "<g>")),
			bf(4, 1, "g-4", 4, 6, S("chg_001", 0, "4", "<4>")), bf(5, 1, "g-12", 12, 14, S("chg_001", 0, "c", "<c>"))).
			T("BATCH-017", "BATCH-018", "BATCH-011"),
		BA("adjacent-scopes", "scopes [0, 6) and [6, 11) touch without sharing a code point", TB,
			envOf(TB, L1(os_(0, 5, "alpha", "A")), L2(os_(0, 4, "beta", "B"))),
			"A\nB\ngamma\ndelta\n", []int{2, 1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "A")), bf(2, 1, "obs-2", 6, 11, S("chg_001", 0, "beta", "B"))).
			T("BATCH-011", "BATCH-017"),
		BA("sequential-local-coordinates", "the second operation's span is in the local buffer the first left: \"Gma\\n\" at 1", TB,
			envOf(TB, L3(om("gam", "G"), os_(1, 3, "ma", "MA"))),
			"alpha\nbeta\nGMA\ndelta\n", []int{1}, bf(1, 1, "obs-3", 11, 17, M("chg_001", 0, "gam", "G")), bf(1, 2, "obs-3", 11, 17, S("chg_002", 1, "ma", "MA"))).
			T("BATCH-018", "BATCH-014"),
		BA("occurrence-index-local", "occurrence_index counts the scope's occurrences: the 2nd \"x=\" of \"x=2\\nx=3\\n\" is local 4", "x=1\nx=2\nx=3\n",
			envOf("x=1\nx=2\nx=3\n", G("obs", 4, 12, om("x=", "y=", "occurrence_index", 2))),
			"x=1\nx=2\ny=3\n", []int{1}, bf(1, 1, "obs", 4, 12, M("chg_001", 4, "x=", "y="))).
			T("BATCH-014", "BATCH-018"),
		BA("match-unique-in-scope", "\"X\" occurs twice in the target but once in the scope, so no selector is needed", "aXa\naXa\n",
			envOf("aXa\naXa\n", G("obs", 4, 8, om("X", "Y"))),
			"aXa\naYa\n", []int{1}, bf(1, 1, "obs", 4, 8, M("chg_001", 1, "X", "Y"))).
			T("BATCH-014"),
		BA("crlf-target", "scopes count the canonical target; CRLF in payloads is canonical too", crlf,
			envOf(crlf, G("one", 0, 4, os_(0, 3, "one", "ONE\r\n")), G("three", 8, 14, om("three\r\n", "3\n"))),
			"ONE\n\ntwo\n3\n", []int{2, 1}, bf(1, 1, "one", 0, 4, S("chg_001", 0, "one", "ONE\n")), bf(2, 1, "three", 8, 14, M("chg_001", 0, "three\n", "3\n"))).
			T("BATCH-014", "BATCH-017", "BATCH-019", "CANON-001"),
		BA("supplementary-scopes", "scopes and local spans count code points: \"😀b\" is [2, 4), \"😀c\\n\" [4, 7)", emoji,
			envOf(emoji, G("b", 2, 4, os_(1, 2, "b", "B")), G("c", 4, 7, om("\U0001F600", "\U0001F642"))),
			"\U0001F600a\U0001F600B\U0001F642c\n", []int{2, 1}, bf(1, 1, "b", 2, 4, S("chg_001", 1, "b", "B")), bf(2, 1, "c", 4, 7, M("chg_001", 0, "\U0001F600", "\U0001F642"))).
			T("BATCH-014", "BATCH-018", "FIND-005"),
		BA("supplementary-whole-scope", "a span over a scope of two emoji, the target's code points 1 to 3", "\U0001F600\U0001F600\U0001F600\U0001F600",
			envOf("\U0001F600\U0001F600\U0001F600\U0001F600", G("mid", 1, 3, os_(0, 2, "\U0001F600\U0001F600", "x"))),
			"\U0001F600x\U0001F600", []int{1}, bf(1, 1, "mid", 1, 3, S("chg_001", 0, "\U0001F600\U0001F600", "x"))).
			T("BATCH-017", "FIND-005"),
		BA("guarded-insertion", "an insertion strictly inside its scope with both guards inside it is admitted", "abc\ndef\n",
			envOf("abc\ndef\n", G("obs", 0, 4, os_(1, 1, "", "X", "expected_before", "a", "expected_after", "b"))),
			"aXbc\ndef\n", []int{1}, bf(1, 1, "obs", 0, 4, S("chg_001", 1, "", "X"))).
			T("BATCH-014", "SCOPE-003"),
		BA("span-context-in-group", "groups run under patchdiff-mvp-0.5.0, whose span context holds here", TB,
			envOf(TB, L2(os_(1, 3, "et", "ET", "expected_before", "b", "expected_after", "a"))),
			"alpha\nbETa\ngamma\ndelta\n", []int{1}, bf(1, 1, "obs-2", 6, 11, S("chg_001", 1, "et", "ET"))).
			T("BATCH-001", "BATCH-014", "SPAN-006"),
		BA("given-change-id", "a group's change_id is kept; defaults are per group", TB,
			envOf(TB, L1(om("alpha", "A", "change_id", "fix-alpha")), L2(om("beta", "B"))),
			"A\nB\ngamma\ndelta\n", []int{2, 1}, bf(1, 1, "obs-1", 0, 6, M("fix-alpha", 0, "alpha", "A")), bf(2, 1, "obs-2", 6, 11, M("chg_001", 0, "beta", "B"))).
			T("BATCH-018", "DECODE-013"),
		BA("no-op-warnings", "a group's no-op warnings carry its group_index", TB, envOf(TB, L1(alpha), L2(os_(0, 4, "beta", "beta"))),
			"ALPHA\nbeta\ngamma\ndelta\n", []int{2, 1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "ALPHA")), bf(2, 1, "obs-2", 6, 11, S("chg_001", 0, "beta", "beta"))).
			W(gw(2, wn("no_op_change", 1, "chg_001")), gw(2, noOpTx)).T("BATCH-020", "WARN-001"),
		BA("no-op-warnings-off", "under collect_warnings false the same batch warns of nothing", TB, envOf(TB, L1(alpha), L2(os_(0, 4, "beta", "beta"))),
			"ALPHA\nbeta\ngamma\ndelta\n", []int{2, 1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "ALPHA")), bf(2, 1, "obs-2", 6, 11, S("chg_001", 0, "beta", "beta"))).
			CW(false).T("BATCH-020", "WARN-006", "BATCH-002"),
		BA("no-op-batch", "a batch that changes nothing is accepted with the target as result", TB, envOf(TB, L3(om("gamma", "gamma"))),
			TB, []int{1}, bf(1, 1, "obs-3", 11, 17, M("chg_001", 0, "gamma", "gamma"))).
			W(gw(1, wn("no_op_change", 1, "chg_001")), gw(1, noOpTx)).T("BATCH-020", "BATCH-019"),
		BA("target-version-seven", "the envelope's expected_target_version is checked against the request's target_version", TB,
			envOf(TB, L1(alpha)).with("expected_target_version", 7), "ALPHA\nbeta\ngamma\ndelta\n", []int{1}, bf(1, 1, "obs-1", 0, 6, S("chg_001", 0, "alpha", "ALPHA"))).
			V(7).T("BATCH-007", "BATCH-002"),
		BA("non-ascii-observation", "observation IDs are kept as written", TB, envOf(TB, G("obs-é", 0, 6, alpha)),
			"ALPHA\nbeta\ngamma\ndelta\n", []int{1}, bf(1, 1, "obs-é", 0, 6, S("chg_001", 0, "alpha", "ALPHA"))).
			T("BATCH-018"),
		BA("whole-target-scope", "one scope over the whole target", TB, envOf(TB, G("all", 0, 23, om("beta\ngamma", "-"))),
			"alpha\n-\ndelta\n", []int{1}, bf(1, 1, "all", 0, 23, M("chg_001", 6, "beta\ngamma", "-"))).
			T("BATCH-014", "BATCH-017"),

		// ---- fail closed, text and canonical form ----
		BRj("runtime-version-missing", "a batch without runtime_version fails closed", TB, okEnv, "context_invalid").P(nil).T("BATCH-003", "BATCH-016"),
		BRj("runtime-version-transaction-profile", "patchdiff-mvp-0.5.0 is a transaction profile, not the batch's", TB, okEnv, "context_invalid").P(P050).T("BATCH-003"),
		BRj("runtime-version-unknown", "an unknown batch runtime_version fails closed", TB, okEnv, "context_invalid").P("patchdiff-observed-batch-r2").T("BATCH-003"),
		BRj("runtime-before-target", "runtime_version is checked before the target's text", raw(`"a\ud800"`), okEnv, "context_invalid").P(P050).T("BATCH-021", "BATCH-003"),
		BRj("target-invalid", "a target holding NUL is invalid text", "a\u0000b", okEnv, "target_encoding_invalid").D("invalid_input", "target").T("BATCH-021", "BATCH-016"),
		BRj("envelope-lone-surrogate", "an envelope holding \\ud800 is invalid text", TB, text(`{"intent":"\ud800"}`), "target_encoding_invalid").
			D("invalid_input", "transaction").T("BATCH-004"),
		BRj("envelope-empty", "an empty envelope is missing", TB, text(""), "manifest_missing").T("BATCH-004", "BATCH-016"),
		BRj("envelope-null", "the envelope null is missing", TB, text("null"), "manifest_missing").T("BATCH-004"),
		BRj("envelope-malformed", "an envelope that is not JSON", TB, text(`{"format":`), mi).T("BATCH-004"),
		BRj("envelope-array", "an envelope that is an array", TB, text(`[]`), mi).T("BATCH-004"),
		BRj("envelope-duplicate-member", "a member twice", TB, text(`{"format":"patchdiff-observed-batch/1","format":"patchdiff-observed-batch/1"}`), mi).T("BATCH-004"),
		BRj("not-canonical-spacing", "a space after a colon is not the RFC 8785 form", TB, text(spoil(compactText(okEnv), `"format":`, `"format": `)), mi).T("BATCH-005"),
		BRj("not-canonical-order", "members out of order are not the RFC 8785 form", TB, text(spoil(compactText(okEnv), `{"expected_current_hash":`, `{"intent":"x","expected_current_hash":`)), mi).T("BATCH-005"),
		BRj("not-canonical-number", "1.0 is not the canonical spelling of 1", TB, text(spoil(compactText(okEnv), `"expected_target_version":1,`, `"expected_target_version":1.0,`)), mi).T("BATCH-005", "BATCH-021"),
		BRj("not-canonical-escape", "\\u0062 is not the canonical spelling of b", TB, text(spoil(compactText(okEnv), `"intent":"batch edit"`, `"intent":"\u0062atch edit"`)), mi).T("BATCH-005"),
		BRj("canonical-before-guards", "a non-canonical envelope with a stale guard is refused as non-canonical", TB,
			text(spoil(compactText(envOf(TB, L1(alpha)).with("expected_target_version", 5)), `"format":`, `"format": `)), mi).T("BATCH-021", "BATCH-005"),

		// ---- global guards ----
		BRj("guard-hash-missing", "both global guards are required: no expected_current_hash", TB, envOf(TB, L1(alpha)).with("expected_current_hash", del), "context_missing").
			Stage("PROTOCOL_VALIDATION").T("BATCH-006"),
		BRj("guard-version-missing", "both global guards are required: no expected_target_version", TB, envOf(TB, L1(alpha)).with("expected_target_version", del), "context_missing").
			Stage("PROTOCOL_VALIDATION").T("BATCH-006"),
		BRj("guard-hash-null", "a null guard is absent", TB, envOf(TB, L1(alpha)).with("expected_current_hash", nil), "context_missing").
			Stage("PROTOCOL_VALIDATION").T("BATCH-006"),
		BRj("guard-hash-uppercase", "an upper-case hash is ill-formed", TB, envOf(TB, L1(alpha)).with("expected_current_hash", "ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789ABCDEF0123456789"), mi).T("BATCH-006"),
		BRj("guard-version-negative", "a negative version is ill-formed", TB, envOf(TB, L1(alpha)).with("expected_target_version", -1), mi).T("BATCH-006"),
		BRj("guard-version-mismatch", "expected_target_version 1, the target is at 2", TB, okEnv, "target_version_mismatch").V(2).T("BATCH-007", "BATCH-016"),
		BRj("guard-hash-mismatch", "expected_current_hash is another text's", TB, envOf(TB, L1(alpha)).with("expected_current_hash", sha("another text\n")), "target_hash_mismatch").T("BATCH-007", "BATCH-016"),
		BRj("guard-crlf-hash", "the global hash is the canonical target's, not the CRLF text's", crlf,
			envOf(crlf, G("one", 0, 4, os_(0, 3, "one", "ONE"))).with("expected_current_hash", sha(crlf)), "target_hash_mismatch").T("BATCH-007"),
		BRj("guard-no-target-version", "expected_target_version needs the request's target_version", TB, okEnv, "context_missing").V(nil).T("BATCH-007"),
		BRj("guard-before-structure", "a version mismatch outranks a wrong format", TB, envOf(TB, L1(alpha)).with("format", "patchdiff-tx/2"), "target_version_mismatch").V(3).T("BATCH-021", "BATCH-007"),
		BRj("guard-version-before-hash", "the version is compared before the hash", TB, envOf(TB, L1(alpha)).with("expected_current_hash", sha("x")), "target_version_mismatch").V(2).T("BATCH-007"),

		// ---- envelope structure ----
		BRj("format-other", "the envelope's format is patchdiff-observed-batch/1", TB, envOf(TB, L1(alpha)).with("format", "patchdiff-observed-batch/2"), mi).T("BATCH-008"),
		BRj("format-transaction", "a tx/2 format is no batch envelope", TB, envOf(TB, L1(alpha)).with("format", "patchdiff-tx/2"), mi).T("BATCH-008", "BATCH-001"),
		BRj("unknown-member", "client_request_id is no envelope member", TB, envOf(TB, L1(alpha)).with("client_request_id", "r-1"), mi).T("BATCH-008"),
		BRj("groups-missing", "an envelope without groups", TB, envOf(TB, L1(alpha)).with("groups", del), "manifest_missing").T("BATCH-008"),
		BRj("groups-empty", "an empty groups list", TB, envOf(TB).with("groups", []any{}), mi).T("BATCH-008"),
		BRj("intent-empty", "an empty intent", TB, envOf(TB, L1(alpha)).with("intent", ""), mi).T("BATCH-008"),
		BRj("target-file-id-missing", "an envelope without target_file_id", TB, envOf(TB, L1(alpha)).with("target_file_id", del), mi).T("BATCH-008"),
		BRj("group-target-hash-missing", "a group without scope evidence", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6, ops: []obj{alpha}, with: []any{"target_hash", del}}), mi).
			D("group_index", 1).T("BATCH-009"),
		BRj("group-unknown-member", "region_hint is no group member", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6, ops: []obj{alpha}, with: []any{"region_hint", "top"}}), mi).
			D("group_index", 1).T("BATCH-009"),
		BRj("group-empty-scope", "scope_start must be below scope_end", TB, envOf(TB, G("obs-1", 6, 6, alpha)).with(), mi).D("group_index", 1).T("BATCH-009"),
		BRj("group-reversed-scope", "scope_start 6, scope_end 0", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6, ops: []obj{alpha}, with: []any{"scope_bounds", o("scope_start", 6, "scope_end", 0)}}), mi).
			D("group_index", 1).T("BATCH-009"),
		BRj("group-observation-duplicate", "two groups of one observation", TB, envOf(TB, L1(alpha), G("obs-1", 6, 11, om("beta", "B"))), mi).D("group_index", 2).T("BATCH-009"),
		BRj("group-observation-empty", "an empty observation_id", TB, envOf(TB, G("", 0, 6, alpha)), mi).D("group_index", 1).T("BATCH-009"),
		BRj("group-tx1", "a group's transaction is patchdiff-tx/2", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6,
			tx: o("format", "patchdiff-tx/1", "target_file_id", TFID, "intent", "edit", "edits", objs([]obj{e("alpha", "A")}))}), mi).D("group_index", 1).T("BATCH-010"),
		BRj("group-own-hash-guard", "a group carries no guard: the batch substitutes the slice's hash", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6,
			tx: gtx(alpha).with("expected_current_hash", sha("alpha\n"))}), mi).D("group_index", 1).T("BATCH-010", "BATCH-014"),
		BRj("group-own-version-guard", "a group carries no expected_target_version", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6,
			tx: gtx(alpha).with("expected_target_version", 1)}), mi).D("group_index", 1).T("BATCH-010"),
		BRj("group-other-target", "a group's transaction names the envelope's target", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6,
			tx: gtx(alpha).with("target_file_id", "another-target")}), mi).D("group_index", 1).T("BATCH-010"),
		BRj("overlap-shared-point", "[0, 6) and [5, 11) share code point 5", TB, envOf(TB, L1(alpha), G("obs-2", 5, 11, om("beta", "B"))), mi).D("group_index", 2).T("BATCH-011"),
		BRj("overlap-nested", "[6, 11) lies inside [0, 23)", TB, envOf(TB, G("all", 0, 23, om("alpha", "A")), L2(om("beta", "B"))), mi).D("group_index", 2).T("BATCH-011"),
		BRj("overlap-same-scope", "two groups of one scope", TB, envOf(TB, L2(om("beta", "B")), G("again", 6, 11, om("beta", "b"))), mi).D("group_index", 2).T("BATCH-011", "BATCH-021"),

		// ---- scope evidence ----
		BRj("scope-past-target", "scope_end 24 is past the 23 code points", TB, envOf(TB, grp{id: "obs-4", s: 17, e: 24, ops: []obj{om("delta", "D")}, hash: sha("delta\n")}), "context_invalid").
			D("group_index", 1).T("BATCH-012", "BATCH-016"),
		BRj("scope-bounds-before-hashes", "group 2's bounds are checked before group 1's evidence", TB,
			envOf(TB, grp{id: "obs-1", s: 0, e: 6, ops: []obj{alpha}, hash: sha("stale")}, grp{id: "obs-4", s: 17, e: 30, ops: []obj{om("delta", "D")}, hash: sha("delta\n")}), "context_invalid").
			D("group_index", 2).T("BATCH-012", "BATCH-021"),
		BRj("target-hash-mismatch", "the scope's evidence is another slice's hash", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6, ops: []obj{alpha}, hash: sha("beta\n")}), "target_hash_mismatch").
			D("group_index", 1).T("BATCH-013", "BATCH-016"),
		BRj("target-hash-crlf-slice", "the evidence hashes the canonical slice, not the CRLF one", crlf, envOf(crlf, grp{id: "one", s: 0, e: 4, ops: []obj{os_(0, 3, "one", "ONE")}, hash: sha("one\r\n")}), "target_hash_mismatch").
			D("group_index", 1).T("BATCH-013"),
		BRj("target-hash-second-group", "group 2's evidence is stale", TB, envOf(TB, L1(alpha), grp{id: "obs-3", s: 11, e: 17, ops: []obj{om("gamma", "G")}, hash: sha("gamma")}), "target_hash_mismatch").
			D("group_index", 2).T("BATCH-013"),
		BRj("evidence-before-groups", "group 2's evidence is checked before group 1 is applied, though group 1 would fail", TB,
			envOf(TB, L1(om("zzz", "A")), grp{id: "obs-3", s: 11, e: 17, ops: []obj{om("gamma", "G")}, hash: sha("gamma")}), "target_hash_mismatch").
			D("group_index", 2).T("BATCH-021", "BATCH-013"),

		// ---- a failing group: its label, local evidence, no target ----
		BRj("group-span-mismatch", "group 2's local buffer \"beta\\n\" holds \"beta\" at 0, not \"bet!\"", TB, envOf(TB, L1(alpha), L2(os_(0, 4, "bet!", "B"))), stm).
			D("group_index", 2, "observation_id", "obs-2", "span_check", "expected_text", "actual_text", "beta", "buffer_length", 5).T("BATCH-015", "BATCH-016"),
		BRj("group-match-absent-outside-scope", "\"beta\" is in the target but not in the scope [0, 6): the prefix is the local buffer", TB, envOf(TB, L1(om("beta", "B"))), "match_absent").
			D("group_index", 1, "observation_id", "obs-1", "match_absent_prefix", "alpha\n", "near_miss_query", "beta").T("BATCH-015", "BATCH-014"),
		BRj("group-span-past-scope", "local length 5: a span to 8 is out of bounds", TB, envOf(TB, L2(os_(3, 8, "a\nga", ""))), oob).
			D("group_index", 1, "span_check", "bounds", "buffer_length", 5).T("BATCH-015"),
		BRj("group-insert-at-scope-start", "an insertion at local 0 is on the scope's edge", TB, envOf(TB, L2(os_(0, 0, "", "X", "expected_before", "a", "expected_after", "b"))), oob).
			D("group_index", 1, "code", "OPERATION_OUTSIDE_OBSERVED_SCOPE").T("BATCH-014", "BATCH-015"),
		BRj("group-insert-without-guards", "an observed insertion needs both guards", TB, envOf(TB, L2(os_(2, 2, "", "X"))), stm).
			D("group_index", 1, "code", "OBSERVED_INSERTION_GUARDS_REQUIRED").T("BATCH-014", "BATCH-015"),
		BRj("group-ambiguous-locally", "\"a\" occurs twice in the scope \"aa\\n\"", "aa\nb\n", envOf("aa\nb\n", G("obs", 0, 3, om("a", "b"))), "match_ambiguous").
			D("group_index", 1).T("BATCH-015"),
		BRj("group-bad-operation", "replace_all is no tx/2 operation; judged when the group is applied", TB, envOf(TB, L1(ora("x"))), mi).
			D("group_index", 1, "observation_id", "obs-1").T("BATCH-010", "BATCH-015"),
		BRj("group-intent-missing", "a group's tx/2 needs its intent", TB, envOf(TB, grp{id: "obs-1", s: 0, e: 6, tx: gtx(alpha).with("intent", del)}), mi).
			D("group_index", 1).T("BATCH-015"),
		BRj("first-failing-group", "group 1 fails; group 2, which would fail too, is not applied", TB, envOf(TB, L1(om("nope", "")), L2(os_(0, 1, "x", ""))), "match_absent").
			D("group_index", 1, "observation_id", "obs-1").T("BATCH-015", "BATCH-021"),
		BRj("group-sequential", "the group's second match lost its text to the first", TB, envOf(TB, L3(om("gam", "G"), om("gam", "x"))), "sequential_match_invalid").
			D("group_index", 1, "failure_context", fc("intermediate_buffer", 1, 4)).T("BATCH-015"),
		BRj("group-context-mismatch", "expected_before \"x\" is not the local buffer's \"b\"", TB, envOf(TB, L2(os_(1, 3, "et", "ET", "expected_before", "x"))), stm).
			D("group_index", 1, "span_check", "expected_before").T("BATCH-015", "BATCH-001"),
		BRj("last-group-fails", "three groups succeed before the last fails: still no target", TB,
			envOf(TB, L1(alpha), L2(om("beta", "B")), L3(om("gamma", "G")), L4(os_(0, 5, "DELTA", "d"))), stm).
			D("group_index", 4, "observation_id", "obs-4", "actual_text", "delta").T("BATCH-016", "BATCH-015"),
	}
	return c
}

// spoil replaces the first old in s by new, and fails when there is none.
func spoil(s, old, new string) string {
	i := bytes.Index([]byte(s), []byte(old))
	if i < 0 {
		log.Fatalf("spoil: %q not in %s", old, s)
	}
	return s[:i] + new + s[i+len(old):]
}
