package spec

import (
	"strings"
	"testing"
)

func TestProfileTable(t *testing.T) {
	t.Parallel()
	seen := map[string]bool{}
	for i, p := range ProfileTable {
		switch {
		case seen[p.Name]:
			t.Errorf("profile %s listed twice", p.Name)
		case i == 0 && p.Inherits != "":
			t.Errorf("the first profile %s inherits %s", p.Name, p.Inherits)
		case i > 0 && !seen[p.Inherits]:
			t.Errorf("profile %s inherits %q, which is no earlier profile", p.Name, p.Inherits)
		case p.Release != p.Name && !strings.HasPrefix(p.Release, p.Name+"."):
			t.Errorf("profile %s is certified against release %s of another version", p.Name, p.Release)
		}
		seen[p.Name] = true
	}
}

func TestIncludes(t *testing.T) {
	t.Parallel()
	tests := []struct {
		profile, since string
		want           bool
	}{
		{"1.1.1", "1.0", true},
		{"1.1.1", "1.1.1", true},
		{"1.1", "1.0", true},
		{"1.0", "1.1", false},
		{"1.1", "1.1.1", false},
		{"2.0", "1.0", false},
		{"1.1", "0.9", false},
		{"", "", false},
	}
	for _, tt := range tests {
		if got := Includes(tt.profile, tt.since); got != tt.want {
			t.Errorf("Includes(%q, %q) = %v, want %v", tt.profile, tt.since, got, tt.want)
		}
	}
}
