package cases

import (
	"encoding/json"
	"testing"
)

func TestMatchSubset(t *testing.T) {
	t.Parallel()
	got := json.RawMessage(`{"ok": true, "status": "applied", "changed": ["a"], "noop": false,
		"moves": [{"id": "m", "source_range": null, "target_range": {"start": 0, "end": 3}, "insert_index": 0}]}`)
	tests := []struct {
		name   string
		reason string
		want   any
		got    any
		match  bool
	}{
		{"empty want", "asks nothing", map[string]any{}, got, true},
		{"one member", "other members are not compared", map[string]any{"status": "applied"}, got, true},
		{"wrong value", "values must be equal", map[string]any{"status": "noop"}, got, false},
		{"missing member", "a member want names must exist", map[string]any{"written": false}, got, false},
		{"false is not absent", "only null stands for absent", map[string]any{"noop": false, "written": false}, got, false},
		{"null matches null", "null expects null", map[string]any{"moves": []any{map[string]any{"source_range": nil}}}, got, true},
		{"null matches absent", "null also expects a missing member", map[string]any{"patch": nil}, got, true},
		{"null against value", "null does not match a value", map[string]any{"moves": []any{map[string]any{"target_range": nil}}}, got, false},
		{"nested subset", "objects inside lists compare as subsets", json.RawMessage(`{"moves": [{"target_range": {"end": 3}}]}`), got, true},
		{"list length", "lists compare item by item, same length", map[string]any{"changed": []any{}}, got, false},
		{"list extra item", "an extra item is a difference", map[string]any{"changed": []any{"a", "b"}}, got, false},
		{"numbers by value", "int against JSON number", map[string]any{"moves": []any{map[string]any{"insert_index": 0}}}, got, true},
		{"type mismatch", "object against list", map[string]any{"changed": map[string]any{}}, got, false},
		{"bytes as JSON", "[]byte is JSON text", []byte(`{"ok": true}`), got, true},
		{"struct", "a struct compares as its JSON", struct {
			OK bool `json:"ok"`
		}{true}, got, true},
		{"bad JSON", "unreadable input is a difference", json.RawMessage(`{`), got, false},
		{"scalars", "top-level scalars compare too", "x", "x", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			d := MatchSubset(tt.want, tt.got)
			if (d == "") != tt.match {
				t.Errorf("MatchSubset = %q, want match %v (%s)", d, tt.match, tt.reason)
			}
		})
	}
}
