// Package targets holds the native Go fuzz targets of blockpatch's
// reference (testing.F) and their seed corpora under testdata/fuzz. It has
// no code of its own: see targets_test.go and fuzz/smoke.sh, which runs each
// target briefly.
//
//	FuzzParse      Parse never panics; an accepted patch renders with Format
//	               and parses back to the same Patch, and Format is a fixed point.
//	FuzzFind       Find and LineRanges agree with a quadratic oracle.
//	FuzzPlanApply  a generated tree and request: plan, render, parse, apply,
//	               retry (already_applied), reverse (the original tree).
//	FuzzCLIArgs    the CLI on any argv never panics and reports failures with
//	               a spec error code other than unexpected_error.
package targets
