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
