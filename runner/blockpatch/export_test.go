package blockpatch

import (
	"bufio"
	"context"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// copyCases copies what r loads into a fresh folder and returns it.
func copyCases(t *testing.T, r *Runner) (string, *runner.Catalog) {
	t.Helper()
	cat, err := r.Catalog()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "copy")
	if err := cat.Copy(dir, cat.Cases); err != nil {
		t.Fatal(err)
	}
	return dir, cat
}

// TestCopyRoundTrip: the cases copied out, derived ones included, run from
// the copy with the same verdicts as where they came from, on a correct
// implementation and on one that does nothing.
func TestCopyRoundTrip(t *testing.T) {
	t.Parallel()
	nothing := runner.Func(func(ctx context.Context, inv runner.Invocation) runner.Outcome {
		return runner.Outcome{Stdout: []byte(`{"ok":true}`)}
	})
	orig := newRunner(t, reference())
	orig.Derived = true
	dir, cat := copyCases(t, orig)
	formats := map[string]int{}
	for _, ci := range cat.Cases {
		formats[ci.Format]++
	}
	if formats[FormatUpstream] == 0 || formats[FormatExtended] == 0 || cat.Corpus.Derived == 0 {
		t.Errorf("the test cases should copy in both formats, derived ones too: %v, %d derived", formats, cat.Corpus.Derived)
	}
	for _, impl := range []runner.Implementation{reference(), nothing} {
		before := newRunner(t, impl)
		before.Derived = true
		after := newRunner(t, impl)
		after.Sources = []Source{Dir(dir)}
		want, got := verdicts(run(t, before)), verdicts(run(t, after))
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: verdicts differ from the copy (-original +copy):\n%s", impl.Describe().Name, diff)
		}
	}
}

// TestCopyCorpus: every case of the embedded corpus and its derived cases
// loads from a copy asking exactly what it asked before, labels aside for
// those in upstream's format; the index lists each once; a second copy
// into the same folder is refused.
func TestCopyCorpus(t *testing.T) {
	t.Parallel()
	r := New(nil)
	r.Derived = true
	dir, cat := copyCases(t, r)
	copied, err := cases.LoadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(copied) != len(cat.Cases) {
		t.Fatalf("%d cases load from the copy of %d", len(copied), len(cat.Cases))
	}
	orig, _, err := r.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range copied {
		o, ci := orig[i], cat.Cases[i]
		if ci.Format == FormatUpstream {
			if !c.Upstream {
				t.Errorf("%s: written in upstream's format but loads as extended", c.Name)
			}
			o, c = labelless(o), labelless(c)
		}
		c.Upstream, o.Upstream = false, false
		if !reflect.DeepEqual(o, c) {
			t.Errorf("%s (%s): the copy asks something else", ci.Name, ci.Format)
		}
	}
	f, err := os.Open(filepath.Join(dir, runner.IndexFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	lines := 0
	for sc := bufio.NewScanner(f); sc.Scan(); {
		lines++
	}
	if lines != len(cat.Cases) {
		t.Errorf("%s has %d lines for %d cases", runner.IndexFile, lines, len(cat.Cases))
	}
	if err := cat.Copy(dir, cat.Cases); !errors.Is(err, runner.ErrNotEmpty) {
		t.Errorf("copying over a copy: %v, want ErrNotEmpty", err)
	}
}

func labelless(c *cases.Case) *cases.Case {
	k := *c
	k.Description, k.Requirements = "", nil
	return &k
}
