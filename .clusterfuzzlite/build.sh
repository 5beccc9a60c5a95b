#!/bin/bash -eu
# ClusterFuzzLite / OSS-Fuzz build of the module's native Go fuzz targets
# (func FuzzXxx(f *testing.F)), run by the image's `compile` in
# $SRC/blockpatch-conformance (see Dockerfile beside this file).
#
# compile_native_go_fuzzer PACKAGE FUNCTION NAME builds one target as the
# libFuzzer binary $OUT/NAME with go-118-fuzz-build, which puts a testing
# package of its own in place of the standard one. That package must be
# in the module, hence the file written below and the go get: both only in
# the image's copy of the sources, never committed.
#
# Every target of the module is listed once, named after its package
# folder (slashes as _) and its function. fuzz/internal/cflite's tests
# fail when a target is missing here, named twice or gone, and when its
# package's test binary does not build with -tags gofuzz.

printf 'package targets\n\nimport _ "github.com/AdamKorcz/go-118-fuzz-build/testing"\n' \
  > fuzz/targets/register_go118fuzzbuild.go
go get github.com/AdamKorcz/go-118-fuzz-build/testing

compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/cases FuzzParse cases_FuzzParse
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzApply fuzz_patchdiff_FuzzApply
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzDecodeRequest fuzz_patchdiff_FuzzDecodeRequest
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzDecodeTransaction fuzz_patchdiff_FuzzDecodeTransaction
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/patchdiff FuzzOccurrences fuzz_patchdiff_FuzzOccurrences
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzCLIArgs fuzz_targets_FuzzCLIArgs
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzFind fuzz_targets_FuzzFind
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzParse fuzz_targets_FuzzParse
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/fuzz/targets FuzzPlanApply fuzz_targets_FuzzPlanApply
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/reference FuzzIndex reference_FuzzIndex
compile_native_go_fuzzer github.com/blockpatch-conformance/blockpatch-conformance/reference FuzzParseNoPanic reference_FuzzParseNoPanic
