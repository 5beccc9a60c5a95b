package cases

// spec/COVERAGE.md traces the corpus to the spec; coverage_test.go fails when
// it is stale.
//go:generate go run ./internal/coveragegen -out ../spec/COVERAGE.md
