// Package props holds the gopter properties of blockpatch's invariants,
// checked on the reference: one test per invariant, named after it, over
// scenarios from fuzz/internal/gen (trees, patches and move requests biased
// toward repeated lines, CRLF, bare CR, missing final newlines and invalid
// UTF-8). The package has no code of its own; see props_test.go.
//
// The seed is fixed so CI is reproducible; -seed overrides it (0 picks one
// from the clock) and -props.n scales the number of cases. A failing
// property prints the seed and the shrunk scenario: its files, and its patch
// or request, one line per row.
//
//	go test ./fuzz/props -run TestRetryIsAlreadyApplied -seed 42 -props.n 5000
package props
