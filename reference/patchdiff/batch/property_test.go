package batch

import (
	"flag"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

var seedFlag = flag.Int64("seed", 20261204, "seed of the batch property; 0 picks one from the clock")

// scenario is a target with non-overlapping scopes, each holding
// non-overlapping non-empty spans listed back to front, so that a span's
// local coordinates are its offset from its scope's start in the original
// target too.
type scenario struct {
	target []rune
	groups []group
}

// alphabet mixes ASCII, a two-byte letter, a supplementary character and
// newlines, so byte and code-point offsets differ.
var alphabet = []rune("ab \n\té😀")

func randomText(r *rand.Rand, n int) string {
	out := make([]rune, n)
	for i := range out {
		out[i] = alphabet[r.IntN(len(alphabet))]
	}
	return string(out)
}

// newScenario cuts a random target into up to five scopes with gaps, and
// gives each one to three spans.
func newScenario(seed int64) scenario {
	r := rand.New(rand.NewPCG(uint64(seed), 0x9e3779b97f4a7c15))
	s := scenario{target: []rune(randomText(r, 10+r.IntN(60)))}
	var cuts []int
	for range 2 * (1 + r.IntN(5)) {
		cuts = append(cuts, r.IntN(len(s.target)+1))
	}
	slices.Sort(cuts)
	cuts = slices.Compact(cuts)
	for i := 0; i+1 < len(cuts); i += 2 {
		start, end := cuts[i], cuts[i+1]
		g := group{id: fmt.Sprintf("obs-%d", i/2+1), start: start, end: end}
		var points []int
		for range 2 * (1 + r.IntN(3)) {
			points = append(points, r.IntN(end-start+1))
		}
		slices.Sort(points)
		points = slices.Compact(points)
		for k := len(points) - 2; k >= 0; k -= 2 {
			a, b := points[k], points[k+1]
			g.ops = append(g.ops, span(a, b, string(s.target[start+a:start+b]), randomText(r, r.IntN(4))))
		}
		if len(g.ops) > 0 {
			s.groups = append(s.groups, g)
		}
	}
	r.Shuffle(len(s.groups), func(i, j int) { s.groups[i], s.groups[j] = s.groups[j], s.groups[i] })
	return s
}

// whole is the same edits as one tx/2 transaction on the whole target:
// every span moved by its scope's start, back to front.
func (s scenario) whole(t *testing.T) string {
	type op struct {
		start int
		m     map[string]any
	}
	var ops []op
	for _, g := range s.groups {
		for _, o := range g.ops {
			a, b := o["start"].(int)+g.start, o["end"].(int)+g.start
			ops = append(ops, op{a, span(a, b, o["expected_text"].(string), o["replace"].(string))})
		}
	}
	slices.SortFunc(ops, func(x, y op) int { return y.start - x.start })
	var list []any
	for _, o := range ops {
		list = append(list, o.m)
	}
	return canonical(t, map[string]any{"format": "patchdiff-tx/2", "target_file_id": "t", "intent": "edit",
		"expected_target_version": 1, "operations": list})
}

// A batch of non-overlapping groups gives the text that the same spans
// give as one patchdiff-tx/2 transaction on the whole target (BATCH-014,
// BATCH-017). The equivalence holds for non-empty spans: an insertion at a
// scope's edge is refused in the batch (SCOPE-002) and not in the whole.
func TestBatchEqualsWholeTransaction(t *testing.T) {
	t.Parallel()
	seed := *seedFlag
	if seed == 0 {
		seed = time.Now().UnixNano()
	}
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = 300
	props := gopter.NewProperties(params)
	decided := 0
	props.Property("batch = whole tx/2", prop.ForAll(func(n int64) string {
		s := newScenario(n)
		if len(s.groups) == 0 {
			return ""
		}
		decided++
		target := string(s.target)
		b := run(envelope(t, target, s.groups...), target)
		v := int64(1)
		w := pd.Apply(pd.Request{RuntimeVersion: pdspec.ObservedBatch().GroupRuntimeVersion, Target: target, TargetVersion: &v, Transaction: s.whole(t)})
		switch {
		case !b.Accepted():
			return fmt.Sprintf("scenario %d: the batch is rejected: %s %+v", n, b.Reason(), b.Diagnostic)
		case !w.Accepted():
			return fmt.Sprintf("scenario %d: the whole transaction is rejected: %s", n, w.Reason())
		case *b.ResultText != *w.ResultText:
			return fmt.Sprintf("scenario %d: batch %q, whole %q", n, *b.ResultText, *w.ResultText)
		case *b.AfterHash != *w.AfterHash || len(b.ChangeFacts) != len(w.ChangeFacts):
			return fmt.Sprintf("scenario %d: hashes or fact counts differ", n)
		}
		return ""
	}, gen.Int64()))
	if !props.Run(gopter.NewFormatedReporter(true, 100, testWriter{t})) {
		t.Errorf("property falsified with seed %d; rerun: go test ./reference/patchdiff/batch -run '^%s$' -seed %d", seed, t.Name(), seed)
	}
	if decided < 200 {
		t.Errorf("only %d scenarios had a group", decided)
	}
}

type testWriter struct{ t *testing.T }

func (w testWriter) Write(p []byte) (int, error) {
	w.t.Log(string(p))
	return len(p), nil
}
