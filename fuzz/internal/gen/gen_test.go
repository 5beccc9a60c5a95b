package gen

import (
	"bytes"
	"reflect"
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
