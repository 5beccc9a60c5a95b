package cases

import (
	"encoding/json"
	"fmt"

	"github.com/google/go-cmp/cmp"
)

// MatchSubset compares the JSON value got with the expected subset want and
// returns a go-cmp diff (-want +got), or "" when got matches.
//
// Both sides are read as JSON: json.RawMessage and []byte as JSON text, any
// other value through json.Marshal, so a Go struct with JSON tags compares
// like the JSON it prints. Then:
//
//   - an object matches when every member of want matches the member of
//     the same name in got; members want does not name are not compared;
//   - a list matches a list of the same length whose items match item by
//     item;
//   - null in want matches null or a missing member;
//   - any other value must be equal (numbers by value).
func MatchSubset(want, got any) (diff string) {
	w, err := asJSON(want)
	if err != nil {
		return fmt.Sprintf("want is not JSON: %v", err)
	}
	g, err := asJSON(got)
	if err != nil {
		return fmt.Sprintf("got is not JSON: %v", err)
	}
	return cmp.Diff(w, prune(w, g))
}

func asJSON(v any) (any, error) {
	var data []byte
	switch x := v.(type) {
	case json.RawMessage:
		data = x
	case []byte:
		data = x
	default:
		b, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		data = b
	}
	var out any
	if err := json.Unmarshal(data, &out); err != nil {
		return nil, err
	}
	return out, nil
}

// prune drops from got what want does not ask about, so that cmp.Diff shows
// only the differences that matter. Where the shapes differ it keeps got as
// it is and lets the diff show the mismatch.
func prune(want, got any) any {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return got
		}
		out := make(map[string]any, len(w))
		for k, wv := range w {
			if gv, ok := g[k]; ok {
				out[k] = prune(wv, gv)
			} else if wv == nil {
				out[k] = nil
			}
		}
		return out
	case []any:
		g, ok := got.([]any)
		if !ok {
			return got
		}
		out := make([]any, len(g))
		for i, gv := range g {
			if i < len(w) {
				out[i] = prune(w[i], gv)
			} else {
				out[i] = gv
			}
		}
		return out
	}
	return got
}
