package main

// Builders of transactions. Member names of tx/2 and tx/3 are spec/patchdiff's.

// TFID is the target_file_id every transaction names: the runtime checks
// its shape only; lookup is the service's (PRECONDITION_GUARD).
const TFID = "3f2c8a1e-5b7d-4e9a-8c6f-0d1e2f3a4b5c"

// tx1 is a patchdiff-tx/1 transaction guarded by expected_target_version 1,
// the target_version every case sends unless it says otherwise.
func tx1(edits ...obj) obj {
	return o("format", "patchdiff-tx/1", "target_file_id", TFID, "intent", "edit", "expected_target_version", 1, "edits", objs(edits))
}

// e is a tx/1 edit; extra holds further members as key, value pairs.
func e(match, replace any, extra ...any) obj {
	return o("match", match, "replace", replace).with(extra...)
}

func objs(xs []obj) []any {
	out := make([]any, len(xs))
	for i, x := range xs {
		out[i] = x
	}
	return out
}

// tx2 is a patchdiff-tx/2 transaction of operations.
func tx2(ops ...obj) obj {
	return o("format", "patchdiff-tx/2", "target_file_id", TFID, "intent", "edit", "expected_target_version", 1, "operations", objs(ops))
}

// om is a tx/2 match operation.
func om(match, replace any, extra ...any) obj {
	return o("op", "match", "match", match, "replace", replace).with(extra...)
}

// os_ is a tx/2 span operation.
func os_(start, end any, expected, replace any, extra ...any) obj {
	return o("op", "span", "start", start, "end", end, "expected_text", expected, "replace", replace).with(extra...)
}

// tx3 is a patchdiff-tx/3 transaction of one replace_all.
func tx3(ops ...obj) obj {
	return o("format", "patchdiff-tx/3", "target_file_id", TFID, "intent", "rewrite", "expected_target_version", 1, "operations", objs(ops))
}

// ora is a replace_all operation.
func ora(replace any, extra ...any) obj {
	return o("op", "replace_all", "replace", replace).with(extra...)
}

// text is a transaction given as text.
func text(t any) txText { return txText{t} }
