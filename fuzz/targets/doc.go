// Package targets holds the native Go fuzz targets of blockpatch's
// reference (testing.F) and their seed corpora under testdata/fuzz. It has
// no code of its own: see targets_test.go, fuzz/README.md's table of the
// targets and their invariants, and fuzz/smoke.sh, which runs each target
// briefly.
//
// The targets are named in targets_test.go alone: OSS-Fuzz's
// compile_native_go_fuzzer (.clusterfuzzlite/build.sh) finds a target's
// file by searching this folder for its name and gives up when two files
// hold it.
package targets
