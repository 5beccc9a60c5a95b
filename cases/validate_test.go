package cases

import (
	"strings"
	"testing"
)

// Minimal valid cases that the rows below break in one way each.
const (
	passCase = `"expect": "pass", "patch": "P", "expected_files": {}`
	failCase = `"expect": "fail", "error_code": "source_not_found", "patch": "P"`
	stepCase = `"patch": "P", "steps": [{"args": ["check"], "exit": 0, "unchanged": true}]`
	planCase = `"expect": "pass", "request": {"src": "f"}, "expected_files": {}`
)

// with wraps a base case and extra members into a case file.
func with(base, extra string) string {
	if extra == "" {
		return "{" + base + "}"
	}
	return "{" + base + ", " + extra + "}"
}

// step builds a step case around one step object's members.
func step(members string) string { return `{"patch": "P", "steps": [{` + members + `}]}` }

func TestParseErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name   string
		reason string
		opts   Options
		data   string
		field  string // the field the single error must name
		msg    string // a piece of its reason
	}{
		// The JSON text.
		{name: "invalid utf8", reason: "bytes a JSON string cannot carry belong in base64", data: "{\"patch\": \"\xff\"}", msg: "not valid UTF-8"},
		{name: "lone low surrogate", reason: "would decode to U+FFFD", data: `{` + passCase + `, "description": "\udc00"}`, msg: "unpaired surrogate"},
		{name: "lone high surrogate", reason: "would decode to U+FFFD", data: `{` + passCase + `, "description": "\ud800x"}`, msg: "unpaired surrogate"},
		{name: "syntax", reason: "the line of a syntax error helps", data: "{\n\"expect\": pass}", field: "expect", msg: "line 2"},
		{name: "not an object", reason: "a case file is one object", data: `[]`, msg: "one JSON object"},
		{name: "trailing data", reason: "a second value is a mistake", data: with(passCase, "") + ` {}`, msg: "after the JSON object"},
		{name: "duplicate key", reason: "the decoder would keep the last silently", data: with(passCase, `"expect": "fail"`), field: "expect", msg: "twice"},
		{name: "duplicate path", reason: "a path twice in a tree", data: with(passCase, `"files": {"a": "1", "a": "2"}`), field: `files["a"]`, msg: "twice"},
		{name: "null field", reason: "null is not absent", data: with(passCase, `"description": null`), field: "description", msg: "null"},
		{name: "null in entry", reason: "null is not absent", data: with(passCase, `"files": {"a": {"text": "x", "mode": null}}`), field: `files["a"].mode`, msg: "null"},
		{name: "unknown field", reason: "typos must not pass silently", data: with(passCase, `"expectt": "pass"`), field: "expectt", msg: "unknown field"},
		{name: "unknown entry field", reason: "strict at any depth", data: with(passCase, `"files": {"a": {"txt": "x"}}`), field: `files["a"].txt`, msg: "unknown field"},
		{name: "unknown step field", reason: "strict at any depth", data: step(`"args": [], "exitt": 0, "exit": 0, "unchanged": true`), field: "steps[0].exitt", msg: "unknown field"},
		{name: "unknown error field", reason: "only the spec's details", data: with(failCase, `"error": {"line": 3}`), field: "error.line", msg: "unknown field"},
		{name: "unknown result field", reason: "the patch of plan is expected_patch", data: with(passCase, `"result": {"patch": "P"}`), field: "result.patch", msg: "unknown field"},
		{name: "unknown move field", reason: "only the spec's move fields", data: with(passCase, `"result": {"moves": [{"from": "a"}]}`), field: "result.moves[0].from", msg: "unknown field"},
		{name: "unknown range field", reason: "ranges are start and end", data: with(failCase, `"error": {"source_range": {"start": 0, "end": 1, "begin": 0}}`), field: "error.source_range.begin", msg: "unknown field"},
		{name: "wrong type", reason: "names the type wanted", data: `{"expect": 1, "patch": "P", "expected_files": {}}`, field: "expect", msg: "got JSON number, want a string"},
		{name: "wrong nested type", reason: "names the nested field", data: step(`"args": [], "exit": "0", "unchanged": true`), field: "steps[0].exit", msg: "want an integer"},

		// Expectations.
		{name: "expect unknown", reason: "pass or fail only", data: `{"expect": "maybe", "patch": "P"}`, field: "expect", msg: "neither"},
		{name: "expect missing", reason: "a standard case states its outcome", data: `{"patch": "P"}`, field: "expect", msg: "required"},
		{name: "pass with error_code", reason: "impossible: pass has no error", data: with(passCase, `"error_code": "io_error"`), field: "error_code", msg: "not allowed when expect is pass"},
		{name: "fail without error_code", reason: "a failure names its code", data: `{"expect": "fail", "patch": "P"}`, field: "error_code", msg: "required when expect is fail"},
		{name: "fail with expected_files", reason: "a failure changes nothing", data: with(failCase, `"expected_files": {}`), field: "expected_files", msg: "not allowed when expect is fail"},
		{name: "pass without expected_files", reason: "upstream's protocol compares the tree", data: `{"expect": "pass", "patch": "P"}`, field: "expected_files", msg: "required when expect is pass"},
		{name: "error on pass", reason: "impossible: pass has no error", data: with(passCase, `"error": {"phase": "source"}`), field: "error", msg: "error details on a passing"},
		{name: "result on fail", reason: "impossible: fail has no success JSON", data: with(failCase, `"result": {"status": "applied"}`), field: "result", msg: "success result on a failing"},
		{name: "unknown code", reason: "only the 28 codes", data: `{"expect": "fail", "error_code": "no_such_code", "patch": "P"}`, field: "error_code", msg: "unknown error code"},
		{name: "injected code check", reason: "Options.KnownCode replaces the list", opts: Options{KnownCode: func(c string) bool { return c == "x_error" }}, data: with(failCase, ""), field: "error_code", msg: "unknown error code"},
		{name: "retry on fail", reason: "nothing runs after a failure", data: with(failCase, `"retry": {"expect": "pass"}`), field: "retry", msg: "not allowed when expect is fail"},
		{name: "expected_patch on fail", reason: "a failing plan prints no patch", data: `{"expect": "fail", "error_code": "invalid_move_args", "request": {}, "expected_patch": "P"}`, field: "expected_patch", msg: "not allowed when expect is fail"},
		{name: "retry pass with code", reason: "outcomes follow the case's rules", data: with(passCase, `"retry": {"expect": "pass", "error_code": "io_error"}`), field: "retry.error_code", msg: "not allowed when expect is pass"},
		{name: "reverse fail with tree", reason: "a failing command leaves the tree", data: with(passCase, `"reverse": {"expect": "fail", "error_code": "parse_error", "expected_files": {}}`), field: "reverse.expected_files", msg: "leaves the tree"},
		{name: "retry without expect", reason: "outcomes state their outcome", data: with(passCase, `"retry": {"result": {"status": "applied"}}`), field: "retry.expect", msg: "required"},

		// Fields and protocols.
		{name: "steps and request", reason: "one protocol per case", data: `{"request": {}, "steps": [{"args": [], "exit": 0, "unchanged": true}]}`, field: "request", msg: "not both"},
		{name: "patch in planner case", reason: "plan writes the patch", data: with(planCase, `"patch": "P"`), field: "patch", msg: "not used by the planned protocol"},
		{name: "expect in step case", reason: "steps carry their own expectations", data: with(stepCase, `"expect": "pass"`), field: "expect", msg: "not used by the steps protocol"},
		{name: "retry in planner case", reason: "only the standard protocol retries", data: with(planCase, `"retry": {"expect": "pass"}`), field: "retry", msg: "not used by the planned protocol"},
		{name: "standard without patch", reason: "check and apply need a patch", data: `{"expect": "pass", "expected_files": {}}`, field: "patch", msg: "required"},
		{name: "level the commands show", reason: "a level is stated only where the command lines do not show it", data: with(planCase, `"levels": ["planner"]`), field: "levels[0]", msg: "already follows"},
		{name: "level unknown", reason: "three levels", data: with(passCase, `"levels": ["full"]`), field: "levels[0]", msg: "not one of"},
		{name: "level twice", reason: "a list of levels names each once", data: with(passCase, `"levels": ["cli", "cli"]`), field: "levels[1]", msg: "twice"},
		{name: "levels empty", reason: "an empty list says nothing", data: with(passCase, `"levels": []`), field: "levels", msg: "empty list"},
		{name: "level, the old field", reason: "levels follow from the commands now; the one-level field is gone", data: with(passCase, `"level": "cli"`), field: "level", msg: "unknown"},
		{name: "since unknown", reason: "1.0 or 1.1", data: with(passCase, `"since": "2.0"`), field: "since", msg: "not one of"},
		{name: "request not an object", reason: "other input goes through stdin", data: `{"expect": "fail", "error_code": "invalid_json", "request": "{"}`, field: "request", msg: "JSON object"},

		// Metadata.
		{name: "empty description", reason: "says nothing", data: with(passCase, `"description": " "`), field: "description", msg: "empty"},
		{name: "empty requirements", reason: "a listed case checks something", data: with(passCase, `"requirements": []`), field: "requirements", msg: "empty list"},
		{name: "malformed requirement", reason: "IDs look like MATCH-003", data: with(passCase, `"requirements": ["match-3"]`), field: "requirements[0]", msg: "not a requirement ID"},
		{name: "duplicate requirement", reason: "listed twice", data: with(passCase, `"requirements": ["FMT-001", "FMT-001"]`), field: "requirements[1]", msg: "twice"},
		{name: "unknown requirement", reason: "Options.KnownRequirement consults the spec", opts: Options{KnownRequirement: func(id string) bool { return id == "FMT-001" }}, data: with(passCase, `"requirements": ["FMT-002"]`), field: "requirements[0]", msg: "unknown requirement"},
		{name: "requirement not in spec", reason: "by default IDs come from spec.Lookup", data: with(passCase, `"requirements": ["ZZZ-999"]`), field: "requirements[0]", msg: "unknown requirement ZZZ-999"},
		{name: "corpus without description", reason: "our cases say what they check", opts: CorpusOptions, data: with(passCase, `"requirements": ["FMT-001"], "since": "1.1"`), field: "description", msg: "required"},
		{name: "corpus without requirements", reason: "our cases name requirements", opts: CorpusOptions, data: with(passCase, `"description": "d", "since": "1.1"`), field: "requirements", msg: "required"},
		{name: "corpus without since", reason: "our cases state their version", opts: CorpusOptions, data: with(passCase, `"description": "d", "requirements": ["FMT-001"]`), field: "since", msg: "required"},

		// Content and trees.
		{name: "invalid base64", reason: "no silent garbage", data: with(passCase, `"files": {"a": {"base64": "not base64!"}}`), field: `files["a"].base64`, msg: "invalid base64"},
		{name: "two kinds", reason: "an entry is one thing", data: with(passCase, `"files": {"a": {"text": "x", "symlink": "y"}}`), field: `files["a"]`, msg: "two kinds, text and symlink"},
		{name: "no kind", reason: "an entry needs content", data: with(passCase, `"files": {"a": {"mode": "0644"}}`), field: `files["a"]`, msg: "no content"},
		{name: "newline in lines", reason: "one item, one line", data: `{"expect": "pass", "expected_files": {}, "patch": {"lines": ["a", "b\nc"]}}`, field: "patch.lines[1]", msg: "newline"},
		{name: "repeat zero", reason: "a content repeats at least once", data: with(passCase, `"files": {"a": {"text": "x", "repeat": 0}}`), field: `files["a"].repeat`, msg: "at least once"},
		{name: "repeat on symlink", reason: "only bytes repeat", data: with(passCase, `"files": {"a": {"symlink": "b", "repeat": 2}}`), field: `files["a"].repeat`, msg: "only content repeats"},
		{name: "repeat past the bound", reason: "a case file cannot make the loader allocate without bound", data: with(passCase, `"files": {"a": {"text": "xx", "repeat": 200000000}}`), field: `files["a"].repeat`, msg: "past the 268435456 bytes"},
		{name: "contents past the bound", reason: "the bound holds for a case's contents together", opts: Options{MaxContent: 100}, data: with(passCase, `"files": {"a": {"text": "x", "repeat": 60}, "b": {"parts": ["y", {"text": "x", "repeat": 60}]}}`), field: `files["b"].parts[1].repeat`, msg: "past the 100 bytes"},
		{name: "bad part", reason: "a part is a content like any other", data: with(passCase, `"files": {"a": {"parts": ["x", {"base64": "!"}]}}`), field: `files["a"].parts[1].base64`, msg: "invalid base64"},
		{name: "mode on symlink", reason: "symlinks have no mode", data: with(passCase, `"files": {"a": {"symlink": "b", "mode": "0644"}}`), field: `files["a"].mode`, msg: "no mode"},
		{name: "mode on patch", reason: "content is bytes only", data: `{"expect": "pass", "expected_files": {}, "patch": {"text": "P", "mode": "0644"}}`, field: "patch", msg: "belong to tree entries"},
		{name: "bad mode", reason: "octal permission bits", data: with(passCase, `"files": {"a": {"text": "x", "mode": "755x"}}`), field: `files["a"].mode`, msg: "octal"},
		{name: "zero mode", reason: "0000 reads as unstated", data: with(passCase, `"files": {"a": {"text": "x", "mode": "0000"}}`), field: `files["a"].mode`, msg: "0000"},
		{name: "dir false", reason: "a folder entry is dir: true", data: with(passCase, `"files": {"a": {"dir": false}}`), field: `files["a"].dir`, msg: "false"},
		{name: "hardlink in expected tree", reason: "an expectation lists files, not how they are linked", data: with(passCase[:len(passCase)-len(`, "expected_files": {}`)], `"files": {"a": "x"}, "expected_files": {"a": "x", "b": {"hardlink": "a"}}`), field: `expected_files["b"]`, msg: "starting tree"},
		{name: "hardlink to nothing", reason: "a hard link names a file of the same tree", data: with(passCase, `"files": {"b": {"hardlink": "a"}}`), field: `files["b"]`, msg: "not a file of this tree"},
		{name: "hardlink to folder", reason: "folders cannot be hard linked", data: with(passCase, `"files": {"a": {"dir": true}, "b": {"hardlink": "a"}}`), field: `files["b"]`, msg: "not a file of this tree"},
		{name: "bad stdout_matches", reason: "the pattern must compile", data: step(`"args": ["help"], "exit": 0, "stdout_matches": "(", "unchanged": true`), field: `steps[0].stdout_matches`, msg: "missing closing )"},
		{name: "stdout_matches with stdout", reason: "exact stdout already says it all", data: step(`"args": ["help"], "exit": 0, "stdout": "x", "stdout_matches": "x", "unchanged": true`), field: `steps[0].stdout_matches`, msg: "exact output"},
		{name: "empty symlink", reason: "a symlink points somewhere", data: with(passCase, `"files": {"a": {"symlink": ""}}`), field: `files["a"].symlink`, msg: "empty target"},
		{name: "entry of wrong type", reason: "string or object", data: with(passCase, `"files": {"a": 1}`), field: `files["a"]`, msg: "want a string or an object"},
		{name: "absolute path", reason: "trees stay inside the work folder", data: with(passCase, `"files": {"/a": "x"}`), field: `files["/a"]`, msg: "absolute"},
		{name: "dotdot path", reason: "trees stay inside the work folder", data: with(passCase, `"files": {"a/../b": "x"}`), field: `files["a/../b"]`, msg: `".." segment`},
		{name: "dot path", reason: "one spelling per path", data: with(passCase, `"files": {"./a": "x"}`), field: `files["./a"]`, msg: `"." segment`},
		{name: "empty segment", reason: "one spelling per path", data: with(passCase, `"files": {"a//b": "x"}`), field: `files["a//b"]`, msg: "empty segment"},
		{name: "trailing slash", reason: "folders are dir entries", data: with(passCase, `"files": {"a/": "x"}`), field: `files["a/"]`, msg: "empty segment"},
		{name: "backslash", reason: "paths use /", data: `{"expect": "pass", "patch": "P", "expected_files": {"a\\b": "x"}}`, field: `expected_files["a\\b"]`, msg: "backslash"},
		{name: "control character", reason: "no such names on disk", data: with(passCase, `"files": {"a\u0007": "x"}`), field: `files["a\a"]`, msg: "control character"},
		{name: "empty path", reason: "names nothing", data: with(passCase, `"files": {"": "x"}`), field: `files[""]`, msg: "empty path"},
		{name: "entry inside file", reason: "a file is not a folder", data: with(passCase, `"files": {"a": "x", "a/b": "y"}`), field: `files["a/b"]`, msg: "lies inside"},
		{name: "entry inside symlink", reason: "writing through a symlink leaves the tree", data: with(passCase, `"files": {"a": {"symlink": "."}, "a/b": "y"}`), field: `files["a/b"]`, msg: "lies inside"},
		{name: "tree not an object", reason: "paths map to entries", data: with(passCase, `"files": ["a"]`), field: "files", msg: "want an object"},
		{name: "input named like the patch", reason: "the patch is written there", data: step(`"args": [], "exit": 0, "unchanged": true, "inputs": {"patch.blockpatch": "x"}`), field: `steps[0].inputs["patch.blockpatch"]`, msg: "patch is written there"},

		// Absence.
		{name: "present and absent", reason: "impossible: a path both exists and does not", data: `{"expect": "pass", "patch": "P", "expected_files": {"a": "x"}, "expected_absent": ["a"]}`, field: "expected_absent[0]", msg: "also in expected_files"},
		{name: "absent folder of an expected file", reason: "impossible: the folder exists", data: `{"expect": "pass", "patch": "P", "expected_files": {"a/b": "x"}, "expected_absent": ["a"]}`, field: "expected_absent[0]", msg: "exists as a folder"},
		{name: "fail absent but in files", reason: "a failure leaves files in place", data: with(failCase, `"files": {"a": "x"}, "expected_absent": ["a"]`), field: "expected_absent[0]", msg: "also in files"},
		{name: "absent twice", reason: "listed twice", data: with(passCase, `"expected_absent": ["a", "a"]`), field: "expected_absent[1]", msg: "twice"},
		{name: "absent unsafe path", reason: "paths stay inside the work folder", data: with(passCase, `"expected_absent": ["/etc/passwd"]`), field: "expected_absent[0]", msg: "absolute"},

		// Arguments.
		{name: "cwd in args", reason: "the runner sets the work folder", data: with(passCase, `"args": ["--cwd", "x"]`), field: "args[0]", msg: "set by the runner"},
		{name: "cwd= in args", reason: "the runner sets the work folder", data: with(passCase, `"args": ["--directory=x"]`), field: "args[0]", msg: "set by the runner"},
		{name: "input in args", reason: "the runner passes the patch", data: with(passCase, `"args": ["-i"]`), field: "args[0]", msg: "set by the runner"},
		{name: "strip and -p", reason: "two strip counts", data: with(passCase, `"strip": 0, "args": ["-p1"]`), field: "args[0]", msg: "strip both"},
		{name: "strip and --strip", reason: "two strip counts", data: with(passCase, `"strip": 0, "args": ["--strip", "1"]`), field: "args[0]", msg: "strip both"},
		{name: "negative strip", reason: "counts are not negative", data: with(passCase, `"strip": -1`), field: "strip", msg: "negative"},

		// Error details.
		{name: "empty error", reason: "asserts nothing", data: with(failCase, `"error": {}`), field: "error", msg: "empty"},
		{name: "empty detail", reason: "absent details are not asserted", data: with(failCase, `"error": {"path": ""}`), field: "error.path", msg: "empty string"},
		{name: "unknown phase", reason: "OUT-023 lists the phases 1.1.0 prints", data: with(failCase, `"error": {"phase": "apply"}`), field: "error.phase", msg: "not one of"},
		{name: "bad payload hash", reason: "lower-case hex SHA-256", data: with(failCase, `"error": {"payload_sha256": "ABC"}`), field: "error.payload_sha256", msg: "hex"},
		{name: "negative matches", reason: "a count", data: with(failCase, `"error": {"matches": -1}`), field: "error.matches", msg: "negative"},
		{name: "truncated asserted", reason: "a case states the exact count; a truncated lower bound is accepted for it (MATCH-010)", data: with(failCase, `"error": {"matches": 50, "matches_truncated": true}`), field: "error.matches_truncated", msg: "exact count"},
		{name: "range reversed", reason: "start after end", data: with(failCase, `"error": {"ranges": [{"start": 5, "end": 4}]}`), field: "error.ranges[0]", msg: "after end"},
		{name: "range negative", reason: "byte offsets start at 0", data: with(failCase, `"error": {"ranges": [{"start": -1, "end": 4}]}`), field: "error.ranges[0]", msg: "below 0"},
		{name: "line range zero", reason: "lines start at 1", data: with(failCase, `"error": {"line_ranges": [{"start": 0, "end": 1}]}`), field: "error.line_ranges[0]", msg: "below 1"},
		{name: "too many ranges", reason: "an error lists at most 10 (D3)", data: with(failCase, `"error": {"ranges": [`+strings.Repeat(`{"start": 0, "end": 1}, `, 10)+`{"start": 0, "end": 1}]}`), field: "error.ranges", msg: "at most 10"},
		{name: "ranges against matches", reason: "min(matches, 10) ranges (D3)", data: with(failCase, `"error": {"matches": 3, "ranges": [{"start": 0, "end": 1}]}`), field: "error.ranges", msg: "lists 3"},
		{name: "line ranges against ranges", reason: "the same matches twice", data: with(failCase, `"error": {"ranges": [{"start": 0, "end": 1}], "line_ranges": [{"start": 1, "end": 1}, {"start": 2, "end": 2}]}`), field: "error.line_ranges", msg: "same matches"},
		{name: "range without end", reason: "both bounds", data: with(failCase, `"error": {"source_range": {"start": 0}}`), field: "error.source_range", msg: "both"},
		{name: "empty ranges", reason: "absent details are not asserted", data: with(failCase, `"error": {"ranges": []}`), field: "error.ranges", msg: "empty list"},

		// Results.
		{name: "empty result", reason: "asserts nothing", data: with(passCase, `"result": {}`), field: "result", msg: "empty"},
		{name: "result not an object", reason: "a JSON subset", data: with(passCase, `"result": []`), field: "result", msg: "want an object"},
		{name: "result ok false", reason: "success JSON has ok true", data: with(passCase, `"result": {"ok": false}`), field: "result.ok", msg: "ok true"},
		{name: "unknown status", reason: "three statuses", data: with(passCase, `"result": {"status": "done"}`), field: "result.status", msg: "not one of"},
		{name: "noop against status", reason: "noop exactly for noop and already_applied (D13)", data: with(passCase, `"result": {"status": "applied", "noop": true}`), field: "result.noop", msg: "contradicts"},
		{name: "changed against status", reason: "nothing changes unless applied (D13)", data: with(passCase, `"result": {"status": "noop", "changed": ["a"]}`), field: "result.changed", msg: "not empty"},
		{name: "changed against noop", reason: "noop exactly when changed is empty (D13)", data: with(passCase, `"result": {"noop": true, "changed": ["a"]}`), field: "result.changed", msg: "noop is true"},
		{name: "written without change", reason: "noop and already_applied write nothing", data: with(passCase, `"result": {"status": "already_applied", "written": true}`), field: "result.written", msg: "nothing is written"},
		{name: "strip_components against strip", reason: "the runner passed -pN", data: with(passCase, `"strip": 0, "result": {"strip_components": 1}`), field: "result.strip_components", msg: "strip is 0"},
		{name: "changed not affected", reason: "changed paths were examined", data: with(passCase, `"result": {"changed": ["a"], "affected": ["b"]}`), field: "result.changed", msg: "not in affected"},
		{name: "source range against payload_bytes", reason: "the source range spans the payload (the target range spans the anchor, OUT-015)", data: with(passCase, `"result": {"moves": [{"payload_bytes": 3, "source_range": {"start": 0, "end": 4}}]}`), field: "result.moves[0].source_range", msg: "spans 4"},
		{name: "warning message", reason: "messages are not part of the contract", data: with(passCase, `"result": {"warnings": [{"code": "adjacent_bytes", "message": "m"}]}`), field: "result.warnings[0].message", msg: "not part of the contract"},
		{name: "already_applied source range", reason: "the source is gone (D14)", data: with(passCase, `"result": {"status": "already_applied", "moves": [{"source_range": {"start": 0, "end": 1}}]}`), field: "result.moves[0].source_range", msg: "D14"},
		{name: "null status", reason: "only three move fields can be null", data: with(passCase, `"result": {"status": null}`), field: "result.status", msg: "null"},
		{name: "null move id", reason: "only three move fields can be null", data: with(passCase, `"result": {"moves": [{"id": null}]}`), field: "result.moves[0].id", msg: "null"},
		{name: "bad move hash", reason: "lower-case hex SHA-256", data: with(passCase, `"result": {"moves": [{"payload_sha256": "x"}]}`), field: "result.moves[0].payload_sha256", msg: "hex"},
		{name: "negative insert_index", reason: "a byte offset", data: with(passCase, `"result": {"moves": [{"insert_index": -1}]}`), field: "result.moves[0].insert_index", msg: "byte offset"},

		// Steps.
		{name: "no steps", reason: "a step case runs something", data: `{"steps": []}`, field: "steps", msg: "empty list"},
		{name: "steps not a list", reason: "steps run in order", data: `{"steps": {}}`, field: "steps", msg: "want a list"},
		{name: "step without args", reason: "the command line", data: step(`"exit": 0, "unchanged": true`), field: "steps[0].args", msg: "required"},
		{name: "step without exit", reason: "every step states its status", data: step(`"args": [], "unchanged": true`), field: "steps[0].exit", msg: "required"},
		{name: "exit 2", reason: "blockpatch exits 0 or 1 (D4)", data: step(`"args": [], "exit": 2, "unchanged": true`), field: "steps[0].exit", msg: "exits 0"},
		{name: "exit 0 with ok false", reason: "impossible: success prints ok true", data: step(`"args": [], "exit": 0, "json": {"ok": false}, "unchanged": true`), field: "steps[0].json.ok", msg: "exit 0"},
		{name: "exit 1 with ok true", reason: "impossible: failure prints ok false", data: step(`"args": [], "exit": 1, "json": {"ok": true}, "unchanged": true`), field: "steps[0].json.ok", msg: "exit 1"},
		{name: "exit 0 with error", reason: "impossible: success prints no error", data: step(`"args": [], "exit": 0, "json": {"error": {}}, "unchanged": true`), field: "steps[0].json.error", msg: "exit 0"},
		{name: "step unknown code", reason: "only the 28 codes", data: step(`"args": [], "exit": 1, "json": {"error": {"code": "oops"}}, "unchanged": true`), field: "steps[0].json.error.code", msg: "unknown error code"},
		{name: "step json not object", reason: "blockpatch prints objects", data: step(`"args": [], "exit": 0, "json": [], "unchanged": true`), field: "steps[0].json", msg: "want an object"},
		{name: "json and stdout", reason: "two expectations of stdout", data: step(`"args": [], "exit": 0, "json": {"ok": true}, "stdout": "x", "unchanged": true`), field: "steps[0].stdout", msg: "describes stdout"},
		{name: "json and stderr", reason: "two expectations of stderr", data: step(`"args": [], "exit": 1, "json": {"ok": false}, "stderr_contains": "x", "unchanged": true`), field: "steps[0].stderr_contains", msg: "describes stderr"},
		{name: "files and unchanged", reason: "two expectations of the tree", data: step(`"args": [], "exit": 0, "files": {}, "unchanged": true`), field: "steps[0].unchanged", msg: "already gives"},
		{name: "no tree expectation", reason: "every step states its effect on the tree", data: step(`"args": [], "exit": 0`), field: "steps[0]", msg: "needs files"},
		{name: "unchanged false", reason: "say what the tree is instead", data: step(`"args": [], "exit": 0, "unchanged": false`), field: "steps[0].unchanged", msg: "false"},
		{name: "unknown placeholder", reason: "a likely typo", data: step(`"args": ["apply", "{wrok}"], "exit": 0, "unchanged": true`), field: "steps[0].args[1]", msg: "unknown placeholder"},
		{name: "patch placeholder without patch", reason: "nothing to point at", data: `{"steps": [{"args": ["apply", "{patch}"], "exit": 0, "unchanged": true}]}`, field: "steps[0].args[1]", msg: "no patch"},
		{name: "dir unknown", reason: "work or inputs", data: step(`"args": [], "dir": "tmp", "exit": 0, "unchanged": true`), field: "steps[0].dir", msg: "neither"},
		{name: "empty stderr_contains", reason: "matches anything", data: step(`"args": [], "exit": 1, "stderr_contains": "", "unchanged": true`), field: "steps[0].stderr_contains", msg: "empty"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			c, err := tt.opts.Parse("area/case", []byte(tt.data))
			if err == nil {
				t.Fatalf("Parse succeeded (%+v); want an error at %q: %s", c, tt.field, tt.reason)
			}
			errs := CaseErrors(err)
			if len(errs) != 1 {
				t.Fatalf("got %d errors, want 1 (%s):\n%v", len(errs), tt.reason, err)
			}
			e := errs[0]
			if e.Case != "area/case" || e.Field != tt.field || !strings.Contains(e.Err.Error(), tt.msg) {
				t.Errorf("got case %q field %q reason %q\nwant case %q field %q reason containing %q (%s)",
					e.Case, e.Field, e.Err, "area/case", tt.field, tt.msg, tt.reason)
			}
			if !strings.HasPrefix(err.Error(), "case area/case: ") {
				t.Errorf("message %q does not name the case first", err)
			}
		})
	}
}

func TestParseReportsEveryProblem(t *testing.T) {
	t.Parallel()
	data := `{"expect": "pass", "error_code": "io_error", "patch": "P", "files": {"/a": "x"}, "since": "3"}`
	_, err := Options{}.Parse("c", []byte(data))
	var fields []string
	for _, e := range CaseErrors(err) {
		fields = append(fields, e.Field)
	}
	want := []string{"since", `files["/a"]`, "error_code", "expected_files"}
	if strings.Join(fields, " ") != strings.Join(want, " ") {
		t.Errorf("fields %q, want %q\n%v", fields, want, err)
	}
}
