package props

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"github.com/leanovate/gopter"
	pgen "github.com/leanovate/gopter/gen"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/proptest"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// stats counts how a property's cases were decided (proptest.Stats).
type stats = proptest.Stats

// check runs one property with n cases over gens (proptest.Check).
func check(t *testing.T, n int, minDecided int, st *stats, condition any, gens ...gopter.Gen) {
	t.Helper()
	proptest.Check(t, "./fuzz/props", n, minDecided, st, condition, gens...)
}

// scenarios generates gen.Specs with the given options and shrinks them
// with gen.Shrink, so counterexamples come out as small trees and patches.
func scenarios(o gen.Options) gopter.Gen {
	return func(gp *gopter.GenParameters) *gopter.GenResult {
		s := gen.Random(gen.NewRand(gp.Rng.Uint64(), 0), o)
		return gopter.NewGenResult(s, proptest.Shrinker(gen.Shrink))
	}
}

// positions generates the offsets properties use to pick a byte or a line.
func positions() gopter.Gen { return pgen.IntRange(0, 1<<20) }

// clean are patch scenarios as written by a correct tool: no mutation, no
// wrong hash, the default -p1, forward.
var clean = gen.Options{
	Protocols: []int{gen.ProtoPatch, gen.ProtoPlanned}, MutationRate: -1,
	NoHashErrors: true, NoStrip: true, NoReverse: true, NoDone: true,
}

func with(o gen.Options, f func(*gen.Options)) gen.Options {
	f(&o)
	return o
}

// checkScenario runs check on a patch scenario, in memory.
func checkScenario(sc *gen.Scenario, files reference.MapFiles) (*reference.Plan, error) {
	return reference.Check(sc.Patch, files, reference.Options{Strip: sc.Strip, Reverse: len(sc.Args) > 0})
}

func failure(sc *gen.Scenario, format string, args ...any) string {
	return fmt.Sprintf(format, args...) + "\n" + sc.String()
}

func codeOf(err error) string {
	if err == nil {
		return "ok"
	}
	return string(reference.CodeOf(err))
}

func treeDiff(want, got reference.MapFiles) string {
	var out []string
	for _, p := range union(want, got) {
		w, wok := want[p]
		g, gok := got[p]
		switch {
		case !wok:
			out = append(out, fmt.Sprintf("%s: unexpected, holds %q", p, g))
		case !gok:
			out = append(out, fmt.Sprintf("%s: missing, want %q", p, w))
		case !bytes.Equal(w, g):
			out = append(out, fmt.Sprintf("%s: %q, want %q", p, g, w))
		}
	}
	return strings.Join(out, "\n")
}

func union(ts ...reference.MapFiles) []string {
	var out []string
	for _, t := range ts {
		for p := range t {
			if !slices.Contains(out, p) {
				out = append(out, p)
			}
		}
	}
	slices.Sort(out)
	return out
}

func concat(parts ...[]byte) []byte { return bytes.Join(parts, nil) }

// TestReverseAfterApplyIsIdentity: applying a patch and then the same
// patch with -R gives back the original tree. For the shapes whose reverse
// is fully determined by the rules (cross-file, insertion, deletion,
// creation, removal), -R must succeed exactly when its anchors are unique
// afterwards; a same-file relocation's -R may refuse, but never misplaces,
// unless the payload landed inside the source's own anchors.
func TestReverseAfterApplyIsIdentity(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1800, 450, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		fwd, err := checkScenario(sc, sc.Files)
		if err != nil || fwd.Result.Status != reference.StatusApplied {
			st.Add("not applied")
			return ""
		}
		after := sc.Files.Apply(fwd)
		rev, err := reference.Check(sc.Patch, after, reference.Options{Strip: 1, Reverse: true})
		m := sc.Move
		expected, why := reversible(m, after)
		switch {
		case err == nil && rev.Result.Status == reference.StatusApplied:
			if gen.SplitsSourceAnchors(m, fwd.Result.Moves[0]) {
				// The payload went between the source's anchors: -R
				// matches them elsewhere, and 1.1.0 puts it there too.
				st.Add("-R across split anchors")
				return ""
			}
			if d := treeDiff(sc.Files, after.Apply(rev)); d != "" {
				return failure(sc, "-R applied but did not restore the tree:\n%s", d)
			}
			st.Add("decided")
		case err == nil && expected:
			return failure(sc, "-R after apply gave status %s, want applied: %s", rev.Result.Status, why)
		case err == nil:
			st.Add("-R " + string(rev.Result.Status))
		case expected:
			return failure(sc, "-R failed with %s (%v), but %s", codeOf(err), err, why)
		default:
			st.Add("-R refused: " + codeOf(err))
		}
		return ""
	}, scenarios(clean))
}

// reversible predicts from the rules whether -R succeeds after the move m
// was applied, for the shapes where that is exact; it is false for a
// same-file relocation (whose -R depends on where the payload went).
func reversible(m *reference.Move, after reference.MapFiles) (bool, string) {
	p := m.Payload()
	unique := func(path string, needle []byte) bool { return reference.Find(after[path], needle).Unique() }
	switch m.Shape {
	case reference.ShapeCreate, reference.ShapeRemove:
		return true, "a whole-file move always reverses"
	case reference.ShapeInsert:
		t := m.Target
		return unique(m.Dst, concat(t.Before, p, t.After)), "the inserted final text is unique afterwards"
	case reference.ShapeDelete:
		s := m.Source
		return len(s.Before)+len(s.After) > 0 && unique(m.Src, concat(s.Before, s.After)) &&
				!unique(m.Src, concat(s.Before, p, s.After)),
			"the source anchor is unique afterwards"
	case reference.ShapeRelocate:
		if m.Same() {
			return false, ""
		}
		s, t := m.Source, m.Target
		return len(s.Before)+len(s.After) > 0 && unique(m.Dst, concat(t.Before, p, t.After)) &&
				unique(m.Src, concat(s.Before, s.After)) && reference.Find(after[m.Src], concat(s.Before, p, s.After)).Count != 1,
			"the moved text and the source anchor are unique afterwards"
	}
	return false, ""
}

// TestRetryIsAlreadyAppliedAndChangesNothing: applying a patch a second
// time never moves the payload again when the patch is planned, and is
// already_applied whenever the rules of idempotence (behavior.md,
// Idempotence and One-Sided And Null-Endpoint Behavior) say the final
// state is provable from the patch's own anchors; a planned patch renders
// minimal context, so otherwise its retry may be an error (which changes
// nothing), as upstream's is. For any patch, a status of already_applied or
// noop comes with no change at all.
func TestRetryIsAlreadyAppliedAndChangesNothing(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1800, 450, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		fwd, err := checkScenario(sc, sc.Files)
		if err != nil || fwd.Result.Status != reference.StatusApplied {
			st.Add("not applied")
			return ""
		}
		after := sc.Files.Apply(fwd)
		retry, err := checkScenario(sc, after)
		planned := slices.Contains(sc.Notes, "planned patch")
		idempotent, why := provablyDone(sc.Move, after)
		switch {
		case err == nil && retry.Result.Status != reference.StatusApplied:
			if len(retry.Changes) != 0 || len(retry.Result.Changed) != 0 || !retry.Result.Noop {
				return failure(sc, "retry %s with changes %v", retry.Result.Status, retry.Result.Changed)
			}
			if retry.Result.Status != reference.StatusAlreadyApplied && idempotent {
				return failure(sc, "retry gave %s, want already_applied: %s", retry.Result.Status, why)
			}
			st.Add("decided")
		case err == nil && planned:
			return failure(sc, "the retry of a planned patch applied the move a second time")
		case err == nil:
			st.Add("direct patch, retry applied")
		case idempotent:
			return failure(sc, "retry failed with %s (%v), want already_applied: %s", codeOf(err), err, why)
		default:
			// Not provable from the anchors: an error is the answer.
			st.Add("retry " + codeOf(err))
			st.Add("decided")
		}
		return ""
	}, scenarios(with(clean, func(o *gen.Options) { o.Protocols = []int{gen.ProtoPlanned, gen.ProtoPlanned, gen.ProtoPatch} })))
}

// provablyDone says whether the rules of idempotence make a retry of m
// already_applied in the tree after: for a paired move the full source
// match is absent and target before + payload + after is there exactly
// once; for the one-sided and whole-file shapes, the per-shape conditions.
func provablyDone(m *reference.Move, after reference.MapFiles) (bool, string) {
	p := m.Payload()
	count := func(path string, needle []byte) int { return reference.Find(after[path], needle).Count }
	switch m.Shape {
	case reference.ShapeCreate:
		return true, "the created file holds exactly the payload"
	case reference.ShapeRemove:
		return true, "the removed path is missing"
	case reference.ShapeInsert:
		t := m.Target
		return count(m.Dst, concat(t.Before, p, t.After)) == 1, "the final target text is there exactly once"
	case reference.ShapeRelocate:
		s, t := m.Source, m.Target
		return count(m.Src, concat(s.Before, p, s.After)) == 0 && count(m.Dst, concat(t.Before, p, t.After)) == 1,
			"the full source is gone and the final target text is there exactly once"
	case reference.ShapeDelete:
		s, data := m.Source, after[m.Src]
		if count(m.Src, concat(s.Before, p, s.After)) != 0 {
			return false, ""
		}
		switch {
		case len(s.Before) == 0 && len(s.After) == 0:
			return true, "the anchorless payload is absent"
		case len(s.Before) == 0:
			return bytes.HasPrefix(data, s.After), "the remaining after anchor is at the start of the file"
		case len(s.After) == 0:
			return bytes.HasSuffix(data, s.Before), "the remaining before anchor is at the end of the file"
		}
		return count(m.Src, concat(s.Before, s.After)) == 1, "the source anchors are adjacent, once"
	}
	return false, ""
}

// TestCrossFileMoveConservesBytes: a cross-file move takes exactly the
// payload out of the source at source_range and puts exactly it into the
// destination at insert_index; every other file keeps its bytes.
func TestCrossFileMoveConservesBytes(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1500, 240, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		m := sc.Move
		fwd, err := checkScenario(sc, sc.Files)
		if err != nil || fwd.Result.Status != reference.StatusApplied || m.Same() {
			st.Add("not applied")
			return ""
		}
		after := sc.Files.Apply(fwd)
		mv := fwd.Result.Moves[0]
		p := m.Payload()
		src, dst := sc.Files[m.Src], sc.Files[m.Dst]
		sr := mv.SourceRange
		if sr == nil || mv.InsertIndex == nil {
			return failure(sc, "source_range %v, insert_index %v", sr, mv.InsertIndex)
		}
		ii := *mv.InsertIndex
		switch {
		case !bytes.Equal(src[sr.Start:sr.End], p):
			return failure(sc, "source_range %v holds %q, not the payload %q", *sr, src[sr.Start:sr.End], p)
		case !bytes.Equal(after[m.Src], concat(src[:sr.Start], src[sr.End:])):
			return failure(sc, "the source lost more than the payload: %q -> %q", src, after[m.Src])
		case !bytes.Equal(after[m.Dst], concat(dst[:ii], p, dst[ii:])):
			return failure(sc, "the destination gained more than the payload at %d: %q -> %q", ii, dst, after[m.Dst])
		case len(after[m.Src])+len(after[m.Dst]) != len(src)+len(dst):
			return failure(sc, "bytes were not conserved")
		}
		for path, data := range sc.Files {
			if path != m.Src && path != m.Dst && !bytes.Equal(after[path], data) {
				return failure(sc, "%s changed although the move does not name it", path)
			}
		}
		st.Add("decided")
		return ""
	}, scenarios(with(clean, func(o *gen.Options) { o.Shapes = []int{gen.ShapeCross} })))
}

// TestPayloadIsCarriedByteForByte: whatever the payload holds (CRLF, bare
// CR, no final newline, invalid UTF-8, NUL), target_range holds the target
// anchor in the destination before the move, insert_index is its boundary,
// and the destination afterwards holds anchor, payload, anchor there
// byte for byte; the payload is exactly what the patch body says once
// prefixes and no-newline markers are removed.
func TestPayloadIsCarriedByteForByte(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1800, 360, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		m := sc.Move
		fwd, err := checkScenario(sc, sc.Files)
		if err != nil || fwd.Result.Status != reference.StatusApplied || m.Shape == reference.ShapeDelete || m.Shape == reference.ShapeRemove {
			st.Add("not an applied insertion")
			return ""
		}
		p := m.Payload()
		parsed, err := reference.Parse(sc.Patch)
		if err != nil {
			return failure(sc, "the patch does not parse: %v", err)
		}
		body := parsed.TargetHunk().Payload
		if !bytes.Equal(body, p) {
			return failure(sc, "the target hunk carries %q, the move %q", body, p)
		}
		after := sc.Files.Apply(fwd)
		mv := fwd.Result.Moves[0]
		tr, ii := mv.TargetRange, mv.InsertIndex
		t, before, got := m.Target, sc.Files[m.Dst], after[m.Dst]
		anchor, final := concat(t.Before, t.After), concat(t.Before, p, t.After)
		switch {
		case tr == nil || ii == nil:
			return failure(sc, "target_range %v, insert_index %v", tr, ii)
		case tr.Start < 0 || tr.End > len(before) || tr.End < tr.Start || !bytes.Equal(before[tr.Start:tr.End], anchor):
			return failure(sc, "target_range %v of %q does not hold the target anchor %q", *tr, before, anchor)
		case *ii != tr.Start+len(t.Before):
			return failure(sc, "insert_index %d is not the end %d of the context before", *ii, tr.Start+len(t.Before))
		}
		// Where the payload lands afterwards: insert_index, less the
		// payload when a same-file source before it went away.
		at := *ii
		if sr := mv.SourceRange; m.Same() && sr != nil && sr.End <= at {
			at -= sr.End - sr.Start
		}
		if lo, hi := at-len(t.Before), at+len(p)+len(t.After); lo < 0 || hi > len(got) || !bytes.Equal(got[lo:hi], final) {
			return failure(sc, "the destination %q does not hold the payload %q with its anchors at %d", got, p, at)
		}
		hard := []string{}
		if bytes.Contains(p, []byte("\r\n")) {
			hard = append(hard, "crlf")
		}
		if bytes.Contains(bytes.ReplaceAll(p, []byte("\r\n"), nil), []byte("\r")) {
			hard = append(hard, "bare cr")
		}
		if !bytes.HasSuffix(p, []byte("\n")) {
			hard = append(hard, "no final newline")
		}
		if !utf8.Valid(p) {
			hard = append(hard, "invalid utf-8")
		}
		for _, h := range hard {
			st.Add(h)
		}
		st.Add("decided")
		return ""
	}, scenarios(with(clean, func(o *gen.Options) { o.Protocols = []int{gen.ProtoPatch} })))
}

// TestRenderParseRoundTrips: a generated move renders (Format) to a
// patch that parses back to the same hunks, and any patch that parses,
// mutated ones included, renders to a fixed point of Parse then Format.
func TestRenderParseRoundTrips(t *testing.T) {
	t.Parallel()
	st := &stats{}
	opts := gen.Options{Protocols: []int{gen.ProtoPatch, gen.ProtoPlanned}, MutationRate: 0.5}
	check(t, 3000, 1050, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		if len(s.Mutations) == 0 && s.Strip == 0 && sc.Move != nil {
			// A move the rules reject (an empty in-file payload, D11)
			// renders to a patch Parse rightly refuses.
			text := reference.Format(sc.Move.Patch())
			if p, err := reference.Parse(text); err == nil {
				want := sc.Move.Patch()
				if d := cmp.Diff(want, p, cmpopts.EquateEmpty()); d != "" {
					return failure(sc, "render then parse changed the patch (-move +parsed):\n%s", d)
				}
				st.Add("move rendered and parsed")
			}
		}
		p, err := reference.Parse(sc.Patch)
		if err != nil {
			st.Add("rejected: " + codeOf(err))
			return ""
		}
		text := reference.Format(p)
		q, err := reference.Parse(text)
		if err != nil {
			return failure(sc, "the re-rendered patch does not parse: %v\n%s", err, gen.ShowText(text, "  | "))
		}
		if d := cmp.Diff(p, q, gen.RoundTrip(p)...); d != "" {
			return failure(sc, "parse, render, parse changed the patch (-first +second):\n%s", d)
		}
		if !bytes.Equal(reference.Format(q), text) {
			return failure(sc, "Format is not a fixed point")
		}
		st.Add("decided")
		return ""
	}, scenarios(opts))
}

// TestPayloadByteChangeIsRejected: changing any single byte of the
// payload of a patch that checks (newlines included, the counts adjusted
// so the patch stays well-formed) makes it fail with hash_mismatch, or with
// payload_mismatch when only one of a move's two hunks changed; never with
// another code, never by applying.
func TestPayloadByteChangeIsRejected(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1800, 900, st, func(s gen.Spec, at int) string {
		sc := gen.Build(s)
		if _, err := checkScenario(sc, sc.Files); err != nil || len(sc.Move.Payload()) == 0 {
			st.Add("does not check, or no payload")
			return ""
		}
		p, err := reference.Parse(sc.Patch)
		if err != nil {
			return failure(sc, "a patch that checks does not parse: %v", err)
		}
		var hunks []*reference.Hunk
		for _, s := range p.Sections {
			hunks = append(hunks, s.Hunks...)
		}
		both := len(hunks) == 1 || at&1 == 0
		i := (at >> 1) % len(hunks[0].Payload)
		flipped := hunks[0].Payload[i] ^ byte(1<<((at>>8)%8))
		for j, h := range hunks {
			if j == 0 || both {
				h.Payload = bytes.Clone(h.Payload)
				h.Payload[i] = flipped
			}
		}
		gen.Recount(p)
		mutated := reference.Format(p)
		want := "hash_mismatch"
		if !both {
			want = "payload_mismatch"
		}
		_, err = reference.Check(mutated, sc.Files, reference.Options{Strip: sc.Strip, Reverse: len(sc.Args) > 0})
		if c := codeOf(err); c != want {
			return failure(sc, "changing payload byte %d to %q gave %s (%v), want %s; changed patch:\n%s",
				i, flipped, c, err, want, gen.ShowText(mutated, "  | "))
		}
		st.Add(want)
		st.Add("decided")
		return ""
	}, scenarios(clean), positions())
}

// errorDoc is the JSON form of a reference error.
type errorDoc struct {
	Code       string            `json:"code"`
	Path       string            `json:"path"`
	Matches    int               `json:"matches"`
	Truncated  bool              `json:"matches_truncated"`
	Ranges     []reference.Range `json:"ranges"`
	LineRanges []reference.Range `json:"line_ranges"`
}

func asDoc(err error) errorDoc {
	var d errorDoc
	b, _ := json.Marshal(err)
	_ = json.Unmarshal(b, &d)
	return d
}

// TestLineRangesAgreeWithByteRanges: every error that reports ranges
// reports min(matches, 10) of them, in file order, inside the file it
// names, with line_ranges giving the lines of each range's first and last
// byte; an ambiguous target's ranges hold exactly the target anchor, or
// exactly the final text (anchor and payload) when it is the already-applied
// state that is ambiguous, as upstream 1.1.0 reports it.
func TestLineRangesAgreeWithByteRanges(t *testing.T) {
	t.Parallel()
	st := &stats{}
	opts := gen.Options{Protocols: []int{gen.ProtoPatch}, MutationRate: -1, NoStrip: true, NoReverse: true, NoHashErrors: true}
	check(t, 4500, 120, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		_, err := checkScenario(sc, sc.Files)
		d := asDoc(err)
		if err == nil || len(d.Ranges) == 0 {
			st.Add("no ranges")
			return ""
		}
		data, ok := sc.Files[d.Path]
		switch {
		case !ok:
			return failure(sc, "%s names %q, which is not in the tree", d.Code, d.Path)
		case len(d.Ranges) != min(d.Matches, reference.MaxReportedRanges) || len(d.LineRanges) != len(d.Ranges):
			return failure(sc, "%s: %d matches, %d ranges, %d line ranges", d.Code, d.Matches, len(d.Ranges), len(d.LineRanges))
		case d.Truncated != (d.Matches == reference.MatchCountLimit && d.Truncated):
			return failure(sc, "matches_truncated with %d matches", d.Matches)
		}
		line := func(i int) int { return 1 + bytes.Count(data[:i], []byte{'\n'}) }
		finalText := false
		for i, r := range d.Ranges {
			if r.Start < 0 || r.End < r.Start || r.End > len(data) || i > 0 && r.Start <= d.Ranges[i-1].Start {
				return failure(sc, "%s: range %d %v out of order or outside %d bytes", d.Code, i, r, len(data))
			}
			want := reference.Range{Start: line(r.Start), End: line(max(r.End-1, r.Start))}
			if d.LineRanges[i] != want {
				return failure(sc, "%s: range %v is lines %v, reported %v", d.Code, r, want, d.LineRanges[i])
			}
			if d.Code == "target_ambiguous" {
				// The anchor, or (when the already-applied final
				// state is what is ambiguous) anchor and payload;
				// the same for every range of the error.
				t := sc.Move.Target
				held := data[r.Start:r.End]
				switch {
				case bytes.Equal(held, concat(t.Before, t.After)) && (i == 0 || !finalText):
					finalText = false
				case bytes.Equal(held, concat(t.Before, sc.Move.Payload(), t.After)) && (i == 0 || finalText):
					finalText = true
				default:
					return failure(sc, "target_ambiguous range %v holds %q, neither the anchor nor the final text (or not the same for every range)", r, held)
				}
			}
		}
		st.Add(d.Code)
		st.Add("decided")
		return ""
	}, scenarios(opts))
}

// TestStripNMatchesPatchWithoutComponents: a patch whose paths carry N-1
// extra leading components, applied with -pN, does exactly what the patch
// without them does with -p1, and reports strip_components N.
func TestStripNMatchesPatchWithoutComponents(t *testing.T) {
	t.Parallel()
	st := &stats{}
	check(t, 1800, 600, st, func(s gen.Spec, extra int) string {
		sc := gen.Build(s)
		comps := []string{"x", "y.d", "z-1"}[:1+extra%3]
		n := 1 + len(comps)
		prefixed := gen.WithPrefix(sc.Patch, comps)
		want, werr := reference.Check(sc.Patch, sc.Files, reference.Options{Strip: 1})
		got, gerr := reference.Check(prefixed, sc.Files, reference.Options{Strip: n})
		if codeOf(werr) != codeOf(gerr) {
			return failure(sc, "-p1 gives %s, -p%d on the prefixed patch gives %s (%v)", codeOf(werr), n, codeOf(gerr), gerr)
		}
		if werr != nil {
			wd, gd := asDoc(werr), asDoc(gerr)
			if gd.Path == gen.PrefixPath(wd.Path, comps) {
				// A header path refused as written, before stripping
				// (PATH-013), is reported with its extra components.
				wd.Path = gd.Path
			}
			if d := cmp.Diff(wd, gd); d != "" {
				return failure(sc, "the error details differ (-p1 +p%d):\n%s", n, d)
			}
			st.Add("both " + codeOf(werr))
			return ""
		}
		if *got.Result.StripComponents != n {
			return failure(sc, "strip_components %d, want %d", *got.Result.StripComponents, n)
		}
		w, g := want.Result, got.Result
		w.StripComponents, g.StripComponents = nil, nil
		if d := cmp.Diff(w, g); d != "" {
			return failure(sc, "the results differ (-p1 +p%d):\n%s", n, d)
		}
		if d := treeDiff(sc.Files.Apply(want), sc.Files.Apply(got)); d != "" {
			return failure(sc, "the trees differ:\n%s", d)
		}
		st.Add("decided")
		return ""
	}, scenarios(with(clean, func(o *gen.Options) { o.MutationRate = 0.2 })), pgen.IntRange(0, 2))
}

// TestMoveWritesWhatItsPatchApplies: for a request the reference plans,
// the tree move writes equals the tree apply writes with the rendered
// patch, with the same status and the same source range and insert index
// (PLAN-035). As upstream 1.1.0 reports them, the request's endpoints and
// target anchors are the move's, the patch's the apply's: a request
// insertion or deletion names /dev/null where the patch names the file,
// and the rendered target context (whole lines) may extend the request's
// anchors, so apply's target_range covers move's.
func TestMoveWritesWhatItsPatchApplies(t *testing.T) {
	t.Parallel()
	st := &stats{}
	opts := gen.Options{Protocols: []int{gen.ProtoRequest}, MutationRate: 0.1}
	check(t, 2400, 600, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		req, err := reference.DecodeRequest(sc.Request)
		if err != nil {
			st.Add("bad request")
			return ""
		}
		plan, err := reference.PlanRequest(req, sc.Files)
		if err != nil {
			if codeOf(err) == "unexpected_error" {
				return failure(sc, "the planner's self-check failed: %v", err)
			}
			st.Add("refused: " + codeOf(err))
			return ""
		}
		fwd, err := reference.Check([]byte(*plan.Result.Patch), sc.Files, reference.Options{Strip: 1})
		if err != nil {
			return failure(sc, "the planned patch does not check: %v\n%s", err, gen.ShowText([]byte(*plan.Result.Patch), "  | "))
		}
		if d := treeDiff(sc.Files.Apply(plan), sc.Files.Apply(fwd)); d != "" {
			return failure(sc, "move and apply of its patch write different trees:\n%s", d)
		}
		if plan.Result.Status != fwd.Result.Status || len(plan.Result.Moves) != len(fwd.Result.Moves) {
			return failure(sc, "move reports %s, apply %s", plan.Result.Status, fwd.Result.Status)
		}
		for i, mv := range plan.Result.Moves {
			if why := samePlacement(mv, fwd.Result.Moves[i]); why != "" {
				return failure(sc, "move and apply of its patch report different moves: %s:\n%s",
					why, cmp.Diff(mv, fwd.Result.Moves[i]))
			}
		}
		st.Add("decided")
		return ""
	}, scenarios(opts))
}

// samePlacement compares the move result of a request (m) with the apply
// of its rendered patch (a); it returns what differs, or "".
func samePlacement(m, a reference.MoveResult) string {
	endpoint := func(req, patch, other string) bool {
		return req == patch || req == reference.DevNull && patch == other
	}
	covers := func(outer, inner *reference.Range) bool {
		return outer == nil && inner == nil ||
			outer != nil && inner != nil && outer.Start <= inner.Start && inner.End <= outer.End
	}
	within := func(r *reference.Range, i *int) bool {
		return r == nil || i != nil && r.Start <= *i && *i <= r.End
	}
	switch {
	case m.ID != a.ID || m.PayloadSHA256 != a.PayloadSHA256 || m.PayloadBytes != a.PayloadBytes:
		return "id or payload"
	case !endpoint(m.Src, a.Src, a.Dst) || !endpoint(m.Dst, a.Dst, a.Src):
		return "src or dst"
	case !cmp.Equal(m.SourceRange, a.SourceRange):
		return "source_range"
	case !cmp.Equal(m.InsertIndex, a.InsertIndex):
		return "insert_index"
	case !covers(a.TargetRange, m.TargetRange):
		return "apply's target_range does not cover move's"
	case !within(m.TargetRange, m.InsertIndex) || !within(a.TargetRange, a.InsertIndex):
		return "insert_index outside target_range"
	}
	return ""
}

// TestOnlyAffectedPathsChange: a successful check changes only the paths
// it lists in changed, lists only affected paths there, and sets noop and
// status consistently (D13): noop exactly when nothing changes.
func TestOnlyAffectedPathsChange(t *testing.T) {
	t.Parallel()
	st := &stats{}
	opts := gen.Options{MutationRate: 0.2}
	check(t, 3000, 600, st, func(s gen.Spec) string {
		sc := gen.Build(s)
		if sc.Protocol == gen.ProtoRequest {
			st.Add("request")
			return ""
		}
		plan, err := checkScenario(sc, sc.Files)
		if err != nil {
			st.Add("failed")
			return ""
		}
		r := plan.Result
		after := sc.Files.Apply(plan)
		var changed []string
		for _, p := range union(sc.Files, after) {
			b, bok := sc.Files[p]
			a, aok := after[p]
			if bok != aok || !bytes.Equal(a, b) {
				changed = append(changed, p)
			}
		}
		sorted := slices.Sorted(slices.Values(r.Changed))
		switch {
		case !slices.Equal(changed, sorted):
			return failure(sc, "changed says %v, the bytes of %v changed", r.Changed, changed)
		case slices.ContainsFunc(r.Changed, func(p string) bool { return !slices.Contains(r.Affected, p) }):
			return failure(sc, "changed %v is not within affected %v", r.Changed, r.Affected)
		case r.Noop != (len(r.Changed) == 0):
			return failure(sc, "noop %v with changed %v", r.Noop, r.Changed)
		case (r.Status == reference.StatusApplied) == r.Noop:
			return failure(sc, "status %s with noop %v", r.Status, r.Noop)
		}
		st.Add(string(r.Status))
		st.Add("decided")
		return ""
	}, scenarios(opts))
}
