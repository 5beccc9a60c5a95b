package pdcases

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"
)

// corpusOnce loads the embedded corpus once for every test.
var corpusOnce = sync.OnceValues(LoadCorpus)

func loadCorpus(t *testing.T) []*Case {
	t.Helper()
	cs, err := corpusOnce()
	if err != nil {
		t.Fatal(err)
	}
	return cs
}

// TestCorpusLoads loads every embedded case with the strict loader.
func TestCorpusLoads(t *testing.T) {
	t.Parallel()
	cs := loadCorpus(t)
	if len(cs) < 400 {
		t.Errorf("%d cases, want at least 400", len(cs))
	}
}

// TestExpectationsConsistent replays each accepted case's facts on its
// canonical target: each fact's span must hold its matched text in the
// buffer left by the facts before it, and the last buffer must be the
// expected result_text. It checks the hand-written offsets against the
// hand-written texts; it chooses no match, so it is no runtime.
func TestExpectationsConsistent(t *testing.T) {
	t.Parallel()
	for _, c := range loadCorpus(t) {
		if c.Expect.Status != Accepted {
			continue
		}
		target, err := c.Request.Target.String()
		if err != nil {
			t.Errorf("%s: accepted with an invalid target", c.Name)
			continue
		}
		buf := []rune(Canonicalize(target))
		if c.Operation == OperationObservedBatch {
			checkBatchFacts(t, c, buf)
			continue
		}
		for i, f := range c.Expect.ChangeFacts {
			if f.SpanEnd > len(buf) {
				t.Errorf("%s: fact %d ends at %d, past the buffer's %d", c.Name, i, f.SpanEnd, len(buf))
				break
			}
			if got, want := string(buf[f.SpanStart:f.SpanEnd]), f.MatchedText.MustString(); got != want {
				t.Errorf("%s: fact %d: buffer[%d:%d] is %q, matched_text %q", c.Name, i, f.SpanStart, f.SpanEnd, trim(got), trim(want))
				break
			}
			repl := []rune(f.ReplacementText.MustString())
			buf = append(append(append([]rune{}, buf[:f.SpanStart]...), repl...), buf[f.SpanEnd:]...)
		}
		if got, want := string(buf), c.Expect.ResultText.MustString(); got != want {
			t.Errorf("%s: the facts give %q, result_text is %q", c.Name, trim(got), trim(want))
		}
		if strings.ContainsRune(c.Expect.ResultText.MustString(), '\r') {
			t.Errorf("%s: result_text holds CR: it is canonical text", c.Name)
		}
	}
}

func trim(s string) string {
	if utf8.RuneCountInString(s) > 80 {
		return string([]rune(s)[:77]) + "..."
	}
	return s
}

// checkBatchFacts replays an accepted batch case's facts group by group on
// each group's slice of the canonical target, then puts the local results
// in by the case's assembly_order, which must be descending scope_start
// (BATCH-017, BATCH-018).
func checkBatchFacts(t *testing.T, c *Case, target []rune) {
	t.Helper()
	type group struct {
		start, end int
		buf        []rune
	}
	groups := map[int]*group{}
	last := 0
	for i, f := range c.Expect.ChangeFacts {
		b := f.Batch
		g := groups[b.GroupIndex]
		if g == nil {
			if b.GroupIndex <= last || b.ScopeEnd > len(target) {
				t.Errorf("%s: fact %d: group %d out of order or past the target", c.Name, i, b.GroupIndex)
				return
			}
			last = b.GroupIndex
			g = &group{start: b.ScopeStart, end: b.ScopeEnd, buf: append([]rune{}, target[b.ScopeStart:b.ScopeEnd]...)}
			groups[b.GroupIndex] = g
		}
		if f.SpanEnd > len(g.buf) || string(g.buf[f.SpanStart:f.SpanEnd]) != f.MatchedText.MustString() {
			t.Errorf("%s: fact %d: not its matched_text in group %d's local buffer", c.Name, i, b.GroupIndex)
			return
		}
		g.buf = append(append(append([]rune{}, g.buf[:f.SpanStart]...), []rune(f.ReplacementText.MustString())...), g.buf[f.SpanEnd:]...)
	}
	if len(c.Expect.AssemblyOrder) != len(groups) {
		t.Errorf("%s: assembly_order %v for %d groups", c.Name, c.Expect.AssemblyOrder, len(groups))
		return
	}
	buf, prev := append([]rune{}, target...), len(target)+1
	for _, gi := range c.Expect.AssemblyOrder {
		g := groups[gi]
		if g == nil || g.start >= prev {
			t.Errorf("%s: assembly_order %v is not descending scope_start", c.Name, c.Expect.AssemblyOrder)
			return
		}
		prev = g.start
		buf = append(append(append([]rune{}, buf[:g.start]...), g.buf...), buf[g.end:]...)
	}
	if got, want := string(buf), c.Expect.ResultText.MustString(); got != want {
		t.Errorf("%s: the facts give %q, result_text is %q", c.Name, trim(got), trim(want))
	}
}
