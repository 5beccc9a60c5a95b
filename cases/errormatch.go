package cases

import (
	"encoding/json"
	"maps"
	"slices"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// MatchError compares a JSON error document got with the expected subset
// want, as MatchSubset does, with two allowances the documentation makes:
//
//   - an optional detail (not in spec.RequiredDetails for the code) that got
//     leaves out is not asserted;
//   - want's matches is the exact number of occurrences; got may instead
//     report matches_truncated with a lower bound, any count from 1 up to
//     the exact one ("matches is a lower bound rather than an exact count").
func MatchError(want map[string]any, got []byte) (diff string) {
	var g map[string]any
	if err := json.Unmarshal(got, &g); err != nil {
		return MatchSubset(want, got)
	}
	we, _ := want["error"].(map[string]any)
	ge, _ := g["error"].(map[string]any)
	if we == nil || ge == nil {
		return MatchSubset(want, got)
	}
	code, _ := we["code"].(string)
	relaxed := maps.Clone(we)
	for k := range we {
		if _, present := ge[k]; !present && k != "code" && !slices.Contains(spec.RequiredDetails[code], k) {
			delete(relaxed, k)
		}
	}
	if truncated, _ := ge["matches_truncated"].(bool); truncated {
		exact, okW := asInt(we["matches"])
		bound, okG := asInt(ge["matches"])
		if okW && okG && bound >= 1 && bound <= exact {
			relaxed["matches"] = ge["matches"]
		}
	}
	w := maps.Clone(want)
	w["error"] = relaxed
	return MatchSubset(w, got)
}

func asInt(v any) (int, bool) {
	switch x := v.(type) {
	case int:
		return x, true
	case float64:
		return int(x), x == float64(int(x))
	}
	return 0, false
}
