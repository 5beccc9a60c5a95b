// Package cflite checks the ClusterFuzzLite / OSS-Fuzz build of the
// module's native Go fuzz targets (.clusterfuzzlite at the module's root)
// as far as it can be checked without the OSS-Fuzz image: that build.sh
// names every func FuzzXxx(f *testing.F) of the module exactly once, that
// compile_native_go_fuzzer_v2 will find each target's file the way it
// looks for it, and that each target's package builds with its test files
// as that script builds it (go test -c -tags gofuzz). It has no code of
// its own.
package cflite
