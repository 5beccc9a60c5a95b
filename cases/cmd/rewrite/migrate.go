package main

import "github.com/blockpatch-conformance/blockpatch-conformance/cases"

// migrate is the hook for a migration the flags cannot express, such as a
// value computed from others: edit doc (with Get, Set, Delete, Rename) and
// run "go run ./cases/cmd/rewrite -migrate". Keep it a no-op between
// migrations, so that the file states no stale one.
func migrate(name string, doc *cases.Object) error {
	_, _ = name, doc
	return nil
}
