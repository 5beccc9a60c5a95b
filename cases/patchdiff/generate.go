package pdcases

// COVERAGE.md traces the corpus to spec/patchdiff; coverage_test.go fails
// when it is stale. The corpus itself is written by internal/gen.
//go:generate go run ./internal/coveragegen -out COVERAGE.md
