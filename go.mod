module github.com/blockpatch-conformance/blockpatch-conformance

go 1.26

require github.com/google/go-cmp v0.7.0 // indirect
