module github.com/blockpatch-conformance/blockpatch-conformance

go 1.26
