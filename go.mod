module github.com/blockpatch-conformance/blockpatch-conformance

go 1.26

require (
	github.com/google/go-cmp v0.7.0
	github.com/leanovate/gopter v0.2.11
	github.com/rivo/uniseg v0.4.7
	github.com/rogpeppe/go-internal v1.16.0
	github.com/zeebo/xxh3 v1.1.0
	golang.org/x/sys v0.30.0
)

require (
	github.com/klauspost/cpuid/v2 v2.2.10 // indirect
	golang.org/x/tools v0.26.0 // indirect
)
