package fuzz

import (
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants"
)

// TestBenchTableListsTheHandMutants: the planted-bug table committed in
// README.md (the run after the generators were extended) names exactly
// the hand-written mutants there are, so adding one asks for a new run
// (go run ./cmd/blockpatch-fuzz bench-mutants).
func TestBenchTableListsTheHandMutants(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	_, after, ok := strings.Cut(string(data), "<!-- bench-mutants after -->")
	if !ok {
		t.Fatal("README.md has no <!-- bench-mutants after --> table")
	}
	table, _, _ := strings.Cut(after, "<!-- end -->")
	if strings.Contains(string(data), "<!-- incomplete -->") {
		t.Skip("README.md marks the benchmark table as an incomplete run")
	}
	ms, err := mutants.Hand()
	if err != nil {
		t.Fatal(err)
	}
	var want []string
	for _, m := range ms {
		want = append(want, m.Name)
	}
	got := BenchTableMutants(table)
	slices.Sort(got)
	if !slices.Equal(got, want) {
		t.Errorf("the planted-bug table lists %q,\nthe hand-written mutants are %q;\nrerun go run ./cmd/blockpatch-fuzz bench-mutants and paste its table", got, want)
	}
}

func TestBenchMedian(t *testing.T) {
	t.Parallel()
	rows := []BenchRow{{Iterations: 5}, {Iterations: 1}, {Iterations: 1000}, {Iterations: 7}}
	if m := BenchMedian(rows); m != 6 {
		t.Errorf("median %v, want 6", m)
	}
	if m := BenchMedian(rows[:3]); m != 5 {
		t.Errorf("median %v, want 5", m)
	}
}
