package gen

import (
	"bytes"
	"errors"
	"reflect"
	"slices"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

func TestRandomIsDeterministic(t *testing.T) {
	t.Parallel()
	for i := range uint64(50) {
		a, b := Random(NewRand(7, i), Options{}), Random(NewRand(7, i), Options{})
		if !reflect.DeepEqual(a, b) {
			t.Fatalf("stream %d: two draws differ:\n%+v\n%+v", i, a, b)
		}
		sa, sb := Build(a), Build(b)
		if !bytes.Equal(sa.Patch, sb.Patch) || !bytes.Equal(sa.Request, sb.Request) || !reflect.DeepEqual(sa.Files, sb.Files) {
			t.Fatalf("stream %d: two builds differ", i)
		}
	}
}

// TestOutcomes checks that the generator reaches both success and a wide
// spread of error codes, so the campaigns and properties are not vacuous.
func TestOutcomes(t *testing.T) {
	t.Parallel()
	codes := map[string]int{}
	for i := range uint64(3000) {
		sc := Build(Random(NewRand(1, i), Options{}))
		var err error
		var status reference.Status
		if sc.Protocol == ProtoRequest {
			var req *reference.Request
			if req, err = reference.DecodeRequest(sc.Request); err == nil {
				var plan *reference.Plan
				if plan, err = reference.PlanRequest(req, sc.Files); err == nil {
					status = plan.Result.Status
				}
			}
		} else {
			var plan *reference.Plan
			if plan, err = reference.Check(sc.Patch, sc.Files, reference.Options{Strip: sc.Strip, Reverse: len(sc.Args) > 0}); err == nil {
				status = plan.Result.Status
			}
		}
		if err != nil {
			codes[string(reference.CodeOf(err))]++
		} else {
			codes["ok:"+string(status)]++
		}
	}
	t.Logf("outcomes: %v", codes)
	for _, want := range []string{"ok:applied", "ok:already_applied", "ok:noop", "parse_error", "source_ambiguous",
		"source_not_found", "target_ambiguous", "target_not_found", "hash_mismatch", "payload_mismatch",
		"invalid_move_args", "invalid_json", "invalid_utf8", "file_not_found", "target_overlaps_source",
		"destination_exists", "invalid_path"} {
		if codes[want] == 0 {
			t.Errorf("no scenario gave %s", want)
		}
	}
	if codes["unexpected_error"] > 0 {
		t.Errorf("the reference reported unexpected_error %d times", codes["unexpected_error"])
	}
}

func TestShrinkGetsSmaller(t *testing.T) {
	t.Parallel()
	for i := range uint64(30) {
		s := Random(NewRand(3, i), Options{MutationRate: 1})
		for _, c := range Shrink(s) {
			if Size(c) >= Size(s) {
				t.Fatalf("candidate not smaller: %d >= %d", Size(c), Size(s))
			}
			Build(c) // never panics
		}
		min, _ := campaign.Minimize(s, Shrink, 10000, time.Time{}, func(Spec) bool { return true })
		if len(min.Mutations) != 0 || len(min.Files) != 1 || len(min.Files[0]) != 0 {
			t.Fatalf("shrinking everything away left %+v", min)
		}
	}
}

func TestMutatorsChangeSomething(t *testing.T) {
	t.Parallel()
	sc := Build(Spec{Shape: ShapeCross, Files: [][]int{{0, 1, 4, 5}, {1, 6}}, Paths: []int{0, 1}, Dst: 1, PS: 2, CB: 2, CA: 3, IP: 2, TB: 2, TA: 4})
	for op, name := range PatchMutators {
		out, got := MutatePatch(sc.Patch, Mutation{Op: op, At: 5})
		if got != name || bytes.Equal(out, sc.Patch) {
			t.Errorf("%s: named %q, changed %v\n%s", name, got, !bytes.Equal(out, sc.Patch), out)
		}
	}
	for op, name := range RequestMutators {
		out, got := MutateRequest(sc.Request, Mutation{Op: op, At: 5})
		if got != name || bytes.Equal(out, sc.Request) {
			t.Errorf("%s: named %q, changed %v: %s", name, got, !bytes.Equal(out, sc.Request), out)
		}
	}
}

// outcome runs a scenario's first step on the reference: plan for a
// request, check for a patch.
func outcome(sc *Scenario) (*reference.Plan, error) {
	if sc.Protocol == ProtoRequest {
		req, err := reference.DecodeRequest(sc.Request)
		if err != nil {
			return nil, err
		}
		return reference.PlanRequest(req, sc.Files)
	}
	return reference.Check(sc.Patch, sc.Files, reference.Options{Strip: sc.Strip, Reverse: len(sc.Args) > 0})
}

// TestKnobsReachTheirStates checks that each trap, the path spellings and
// the null-endpoint mutator build the state they are named for, by the
// answer the spec gives that state.
func TestKnobsReachTheirStates(t *testing.T) {
	t.Parallel()
	// a.txt "a\nb\naa\n", b.txt "b\naba\n"; the payload "b\n" of a.txt
	// goes between the lines of b.txt.
	cross := Spec{Shape: ShapeCross, Files: [][]int{{0, 1, 4}, {1, 6}}, Paths: []int{0, 1}, Dst: 1, PS: 2, PL: 1, CB: 2, CA: 3, IP: 2, TB: 2, TA: 4}
	// a.txt "a\nb\n", "x = 1\n" inserted between its lines.
	insert := Spec{Protocol: ProtoRequest, Shape: ShapeInsert, Files: [][]int{{0, 1}}, Paths: []int{0}, Payload: []int{10}, IP: 2, TB: 2, TA: 2}
	remove := Spec{Shape: ShapeRemove, Files: [][]int{{0, 1}}, Paths: []int{0}}
	with := func(s Spec, f func(*Spec)) Spec { f(&s); return s }
	for _, tc := range []struct {
		name   string
		spec   Spec
		note   string
		code   reference.Code // "" for success
		status reference.Status
		anchor string
	}{
		{"half done cross-file (IDEM-011)", with(cross, func(s *Spec) { s.Trap = TrapHalfDone }),
			"trap: the payload is at the target and still at the source", reference.PartialAppliedDuplicate, "", ""},
		{"final text twice, insertion request (PLAN-045)", with(insert, func(s *Spec) { s.Trap = TrapFinalTwice }),
			"trap: the final text occurs twice", reference.TargetAmbiguous, "", "target_before+payload+target_after"},
		{"final text twice, cross-file patch (IDEM-002)", with(cross, func(s *Spec) { s.Trap = TrapFinalTwice; s.Done = 1 }),
			"trap: the final text occurs twice", reference.TargetAmbiguous, "", ""},
		{"removed file gone, patch (IDEM-010)", with(remove, func(s *Spec) { s.Trap = TrapHalfDone }),
			"trap: the removed file is already gone", "", reference.StatusAlreadyApplied, ""},
		{"removed file gone, request (PLAN-039)", with(remove, func(s *Spec) { s.Trap = TrapHalfDone; s.Protocol = ProtoRequest }),
			"trap: the removed file is already gone", reference.FileNotFound, "", ""},
		{"insertion, dst ./a.txt (PATH-014)", with(insert, func(s *Spec) { s.Protocol = ProtoPatch; s.PathTrick = TrickSpellDst }),
			TrickNames[TrickSpellDst], reference.InvalidPath, "", ""},
		{"insertion, src ./a.txt (PATH-014)", with(insert, func(s *Spec) { s.Protocol = ProtoPatch; s.PathTrick = TrickSpellSrc }),
			TrickNames[TrickSpellSrc], "", reference.StatusApplied, ""},
		{"deletion, src ./a.txt (PATH-014)", with(remove, func(s *Spec) { s.Shape = ShapeDelete; s.PL = 1; s.PathTrick = TrickSpellSrc }),
			TrickNames[TrickSpellSrc], reference.InvalidPath, "", ""},
		{"relocation, dst ./a.txt (PATH-014)", with(insert, func(s *Spec) {
			s.Protocol, s.Shape = ProtoPatch, ShapeRelocate
			s.PS, s.PL, s.IP, s.TB, s.TA = 0, 1, 4, 2, 0
			s.PathTrick = TrickSpellDst
		}), TrickNames[TrickSpellDst], reference.InvalidPath, "", ""},
		{"null endpoints (PLAN-017)", with(insert, func(s *Spec) { s.Mutations = []Mutation{{Op: slices.Index(RequestMutators, "null-endpoint"), At: 0}} }),
			"null-endpoint", reference.InvalidMoveArgs, "", ""},
	} {
		sc := Build(tc.spec)
		if !slices.Contains(sc.Notes, tc.note) {
			t.Errorf("%s: notes %q lack %q", tc.name, sc.Notes, tc.note)
			continue
		}
		plan, err := outcome(sc)
		var e *reference.Error
		switch {
		case tc.code == "" && err != nil:
			t.Errorf("%s: %v, want status %s", tc.name, err, tc.status)
		case tc.code == "" && plan.Result.Status != tc.status:
			t.Errorf("%s: status %s, want %s", tc.name, plan.Result.Status, tc.status)
		case tc.code != "" && !errors.As(err, &e):
			t.Errorf("%s: %v, want %s", tc.name, err, tc.code)
		case tc.code != "" && (e.Code != tc.code || tc.anchor != "" && e.Anchor != tc.anchor):
			t.Errorf("%s: %s anchor %q, want %s anchor %q", tc.name, e.Code, e.Anchor, tc.code, tc.anchor)
		}
	}
}

// TestLinkedDstTrick: the hard-link trick turns a same-file relocation
// into a move between two names of one file, patch and request alike.
func TestLinkedDstTrick(t *testing.T) {
	t.Parallel()
	s := Spec{Shape: ShapeRelocate, Files: [][]int{{0, 1, 4}}, Paths: []int{0}, PS: 2, PL: 1, IP: 7, TB: 3, PathTrick: TrickLinkedDst}
	for _, proto := range []int{ProtoPatch, ProtoRequest} {
		s.Protocol = proto
		sc := Build(s)
		if e, ok := sc.Extra[linkedDst]; !ok || e.Hardlink != "a.txt" {
			t.Errorf("protocol %d: extra %v, want %s a hard link to a.txt", proto, sc.Extra, linkedDst)
		}
		if sc.Move.Src != "a.txt" || sc.Move.Dst != linkedDst {
			t.Errorf("protocol %d: move %s -> %s, want a.txt -> %s", proto, sc.Move.Src, sc.Move.Dst, linkedDst)
		}
		if proto == ProtoPatch && !bytes.Contains(sc.Patch, []byte("role=target")) {
			t.Errorf("the patch is not two sections:\n%s", sc.Patch)
		}
		if proto == ProtoRequest && !bytes.Contains(sc.Request, []byte(`"dst":"`+linkedDst+`"`)) {
			t.Errorf("the request names no dst %s: %s", linkedDst, sc.Request)
		}
	}
}

// TestMutatorsReachTheirRequirements checks that the mutators aimed at
// one requirement each draw the answer that requirement gives, for
// several draws of where they strike.
func TestMutatorsReachTheirRequirements(t *testing.T) {
	t.Parallel()
	// a.txt "a\nb\naa\n", b.txt "b\naba\n"; the payload "b\n" of a.txt
	// goes between the lines of b.txt.
	cross := Spec{Shape: ShapeCross, Files: [][]int{{0, 1, 4}, {1, 6}}, Paths: []int{0, 1}, Dst: 1, PS: 2, PL: 1, CB: 2, CA: 3, IP: 2, TB: 2, TA: 4}
	sc := Build(cross)
	for _, tc := range []struct {
		mutator string
		code    reference.Code // "" for success
	}{
		{"path-mismatch", reference.ParseError},           // FMT-004
		{"drop-path-prefix", reference.ParseError},        // FMT-005
		{"context-between-payload", reference.ParseError}, // FMT-020
		{"third-section", reference.ParseError},           // FMT-028
		{"both-dev-null", reference.ParseError},           // FMT-033
		{"control-in-path", reference.InvalidPath},        // PATH-013
		{"invalid-utf8-in-path", reference.FileNotFound},  // FMT-036: the decoded name is no file
		{"change-label", ""},                              // FMT-014
		{"folder-as-path", reference.FileNotFound},        // PATH-006: a.txt/inner.txt runs through a file
	} {
		op := slices.Index(PatchMutators, tc.mutator)
		for at := range 64 {
			patch, name := MutatePatch(sc.Patch, Mutation{Op: op, At: at})
			_, err := reference.Check(patch, sc.Files, reference.Options{Strip: sc.Strip})
			checkMutated(t, tc.mutator, at, name, err, tc.code, patch)
		}
	}
	// FMT-037: a broken first section and a control character after it;
	// PATH-017: under -p2 (paths a/k/...) a first section cut to a/NAME
	// strips whole first.
	op := slices.Index(PatchMutators, "structure-then-control")
	cross.Strip = 1
	p2 := Build(cross)
	for _, sc := range []*Scenario{sc, p2} {
		for at := range 64 {
			patch, name := MutatePatch(sc.Patch, Mutation{Op: op, At: at})
			code := reference.InvalidPath
			if at%4 == 2 || at%4 == cutFirstSection && sc.Strip > 1 {
				code = reference.ParseError // --- without a/ before +++ is read; a path stripped whole
			}
			_, err := reference.Check(patch, sc.Files, reference.Options{Strip: sc.Strip})
			checkMutated(t, "structure-then-control", at, name, err, code, patch)
		}
	}
	// a.txt "a\nb\n", "x = 1\n" inserted between its lines.
	insert := Build(Spec{Protocol: ProtoRequest, Shape: ShapeInsert, Files: [][]int{{0, 1}}, Paths: []int{0}, Payload: []int{10}, IP: 2, TB: 2, TA: 2})
	for _, tc := range []struct {
		mutator string
		code    reference.Code
	}{
		{"folder-endpoint", reference.FileNotFound},    // PATH-006: a.txt/inner.txt runs through a file
		{"control-in-endpoint", reference.InvalidPath}, // PLAN-044
	} {
		op := slices.Index(RequestMutators, tc.mutator)
		for at := range 64 {
			sc := *insert
			var name string
			sc.Request, name = MutateRequest(insert.Request, Mutation{Op: op, At: at})
			_, err := outcome(&sc)
			checkMutated(t, tc.mutator, at, name, err, tc.code, sc.Request)
		}
	}
}

// checkMutated reports a mutator struck at at that was not applied (the
// draw was named name) or whose input drew err instead of code ("" for
// success).
func checkMutated(t *testing.T, mutator string, at int, name string, err error, code reference.Code, input []byte) {
	t.Helper()
	var e *reference.Error
	switch {
	case name != mutator:
		t.Errorf("%s at %d: %s", mutator, at, name)
	case code == "" && err != nil:
		t.Errorf("%s at %d: %v, want success\n%s", mutator, at, err, input)
	case code != "" && (!errors.As(err, &e) || e.Code != code):
		t.Errorf("%s at %d: %v, want %s\n%s", mutator, at, err, code, input)
	}
}
