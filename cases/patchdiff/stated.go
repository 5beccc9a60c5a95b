package pdcases

// SeedStates reports whether the seed states the value of a diagnostic
// member, so that a case writes it under "diagnostic" (a difference fails
// the case) rather than "diagnostic_recommended" (a difference is only
// recommended): see README.md, "Diagnostics". key is the member's name,
// inFailureContext says it sits inside failure_context, and boundsCheck
// that the diagnostic's span_check is "bounds". The case generator and the
// differential campaign (fuzz/patchdiff) both sort diagnostics with it.
func SeedStates(key string, value any, inFailureContext, boundsCheck bool) bool {
	if inFailureContext {
		switch key {
		case "prior_changes", "buffer_length":
			return true
		case "buffer":
			return value == "intermediate_buffer"
		}
		return false // where the excerpt starts and what it holds
	}
	switch key {
	case "candidate_count", "candidates", "failure_detail", "edit_index", "change_id", "invalid_input", "path", "byte_offset":
		return false
	case "near_miss_status":
		return value == "match_too_large"
	case "actual_text":
		return !boundsCheck
	}
	return true
}
