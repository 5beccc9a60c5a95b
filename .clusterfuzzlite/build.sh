#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of the module's native Go fuzz targets
# (func FuzzXxx(f *testing.F)), run by the image's `compile` in
# $SRC/blockpatch-conformance (see Dockerfile beside this file).
#
# compile_native_go_fuzzer_v2 PACKAGE FUNCTION NAME builds one target as
# the libFuzzer binary $OUT/NAME with go-118-fuzz-build_v2, which compiles
# the package with its test files. The older compile_native_go_fuzzer
# (same arguments) compiles the target's file without the package's other
# test files and with a testing package of its own that has no testing.TB:
# none of our targets builds that way (tried with go-118-fuzz-build
# v0.0.0-20250520111509-a70c2aa677fa: helpers such as corpusPatches,
# naiveFind and testing.TB undefined), as their seeds and oracles live in
# sibling test files.
#
# Both need go-118-fuzz-build's testing package in the module, hence the
# file written and the go get below, in the image's copy of the sources
# only, never committed.
#
# Every target of the module is listed once, named after its package
# folder (slashes as _) and its function. fuzz/internal/cflite's tests
# fail when a target is missing here, named twice or gone, and when its
# package's test binary does not build with -tags gofuzz.

# go.mod asks for Go 1.26. An older go in the image fetches that toolchain
# into the module cache, whose files are read-only, and go-118-fuzz-build_v2
# cannot then overlay the toolchain's testing package: run a writable copy.
goroot=$(go env GOROOT)
if [[ "$goroot" == "$(go env GOMODCACHE)"* ]]; then
  copy=$(mktemp -d)
  cp -r "$goroot/." "$copy"
  chmod -R u+w "$copy"
  export GOROOT="$copy" PATH="$copy/bin:$PATH" GOTOOLCHAIN=local
fi

# go-118-fuzz-build_v2 compiles a target's package with its test files as
# one package, so an external test package beside them (package cases_test
# in cases/) would be a second package in the folder. Fuzzers need none of
# those files: drop them from the image's copy.
grep -rl --include='*_test.go' '^package [A-Za-z0-9_]*_test$' . | xargs -r rm --

printf 'package targets\n\nimport _ "github.com/AdamKorcz/go-118-fuzz-build/testing"\n' \
  > fuzz/targets/register_go118fuzzbuild.go
go get github.com/AdamKorcz/go-118-fuzz-build/testing

compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/cases FuzzParse cases_FuzzParse
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzApply fuzz_patchdiff_FuzzApply
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzDecodeRequest fuzz_patchdiff_FuzzDecodeRequest
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzDecodeTransaction fuzz_patchdiff_FuzzDecodeTransaction
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzOccurrences fuzz_patchdiff_FuzzOccurrences
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzCLIArgs fuzz_targets_FuzzCLIArgs
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzFind fuzz_targets_FuzzFind
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzParse fuzz_targets_FuzzParse
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzPlanApply fuzz_targets_FuzzPlanApply
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/reference FuzzIndex reference_FuzzIndex
compile_native_go_fuzzer_v2 github.com/blockpatch-conformance/blockpatch-conformance/reference FuzzParseNoPanic reference_FuzzParseNoPanic
