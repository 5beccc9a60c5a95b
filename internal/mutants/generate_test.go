package mutants

import (
	"strings"
	"testing"
)

// TestGenerate checks the mechanical mutants of each suite's reference:
// many, uniquely named, each a diff that applies and changes its file.
func TestGenerate(t *testing.T) {
	for _, s := range Suites {
		t.Run(s.Name, func(t *testing.T) { testGenerate(t, s) })
	}
}

func testGenerate(t *testing.T, s Suite) {
	b := testBuilder(t)
	ms, err := Generate(b.Module, s)
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) < 300 {
		t.Errorf("%d mechanical mutants; want several hundred", len(ms))
	}
	ops := map[string]int{}
	seen := map[string]bool{}
	for _, m := range ms {
		if seen[m.Name] {
			t.Errorf("%s: duplicate name", m.Name)
		}
		seen[m.Name] = true
		parts := strings.Split(m.Name, ":")
		if len(parts) != 4 || Operators[parts[2]] == "" {
			t.Errorf("%s: want FILE:LINE:OPERATOR:INDEX with a known operator", m.Name)
			continue
		}
		ops[parts[2]]++
		if _, err := b.Patch(m); err != nil {
			t.Errorf("%s: %v", m.Name, err)
		}
	}
	for op := range Operators {
		if ops[op] == 0 {
			t.Errorf("operator %s generated no mutant", op)
		}
	}
	t.Logf("%d mechanical mutants: %v", len(ms), ops)
}
