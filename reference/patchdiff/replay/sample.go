package replay

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// SampleTarget is the target SampleHistory starts from.
const SampleTarget = "sample-target-0001"

// SampleHistory records a history of n attempts through the reference
// runtime (Recorder): every format under the profiles that read it, a
// span with span context, a sole replacement, lineage members, and one
// rejected attempt in four (match_absent, target_version_mismatch,
// manifest_invalid). The target holds a counter each accepted attempt
// advances, so the text keeps its size however long the history.
func SampleHistory(n int) *History {
	counter := 0
	text := func(k int) string { return fmt.Sprintf("header\ncounter=%d\nbody \U0001F600 line\n", k) }
	r := NewRecorder(SampleTarget, "header\r\ncounter=0\nbody \U0001F600 line\n", 1)
	for i := range n {
		t := r.History().Targets[0]
		v := t.Version
		k := strconv.Itoa(counter)
		next := strconv.Itoa(counter + 1)
		guard := map[string]any{"target_file_id": SampleTarget, "intent": "advance the counter", "expected_target_version": v}
		var runtime string
		var tx map[string]any
		accepted := true
		switch i % 8 {
		case 0:
			runtime = "patchdiff-mvp-0.2.2"
			tx = with(guard, "format", "patchdiff-tx/1", "client_request_id", "req-"+strconv.Itoa(i), "attempt", 1,
				"edits", []any{map[string]any{"match": "counter=" + k + "\n", "replace": "counter=" + next + "\n", "risk": "low"}})
		case 1:
			runtime = "patchdiff-mvp-0.1.0"
			tx = with(guard, "format", "patchdiff-tx/1", "expected_current_hash", t.CurrentHash,
				"edits", []any{
					map[string]any{"match": "counter=" + k, "replace": "counter=" + next},
					map[string]any{"match": "header", "replace": "header", "change_id": "keep-header"},
				})
		case 2:
			runtime = "patchdiff-mvp-0.3.0"
			tx = with(guard, "format", "patchdiff-tx/2",
				"operations", []any{map[string]any{"op": "span", "start": 15, "end": 15 + len(k), "expected_text": k, "replace": next}})
		case 3:
			runtime, accepted = "patchdiff-mvp-0.2.2", false
			tx = with(guard, "format", "patchdiff-tx/1", "edits", []any{map[string]any{"match": "absent-token", "replace": "x"}})
		case 4:
			runtime = "patchdiff-mvp-0.4.0"
			tx = with(guard, "format", "patchdiff-tx/3", "parent_pdcp_log_id", "log-"+strconv.Itoa(i),
				"operations", []any{map[string]any{"op": "replace_all", "replace": text(counter + 1)}})
		case 5:
			runtime = "patchdiff-mvp-0.5.0"
			tx = with(guard, "format", "patchdiff-tx/2",
				"operations", []any{map[string]any{"op": "span", "start": 15, "end": 15 + len(k), "expected_text": k, "replace": next,
					"expected_before": "counter=", "expected_after": "\nbody"}})
		case 6:
			runtime, accepted = "patchdiff-mvp-0.3.0", false
			tx = with(guard, "format", "patchdiff-tx/1", "expected_target_version", v+5,
				"edits", []any{map[string]any{"match": "header", "replace": "HEADER"}})
		case 7:
			runtime = "patchdiff-mvp-0.2.0"
			tx = with(guard, "format", "patchdiff-tx/1", "metadata", map[string]any{"tool": "sample", "n": i},
				"edits", []any{map[string]any{"match": "counter=" + k + "\n", "replace": "counter=" + next + "\n", "rationale": "step"}})
		}
		body, _ := json.Marshal(tx)
		if i%16 == 11 {
			runtime, accepted, body = "patchdiff-mvp-0.2.2", false, []byte(`{"format":"patchdiff-tx/1","intent":`)
		}
		res := r.Submit(runtime, string(body))
		if res.Accepted() != accepted {
			panic(fmt.Sprintf("SampleHistory: attempt %d: %s %s", i, res.Status, res.Reason()))
		}
		if accepted {
			counter++
		}
	}
	return r.History()
}

func with(base map[string]any, kv ...any) map[string]any {
	m := map[string]any{}
	for k, v := range base {
		m[k] = v
	}
	for i := 0; i < len(kv); i += 2 {
		m[kv[i].(string)] = kv[i+1]
	}
	return m
}
