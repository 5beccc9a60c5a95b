package main

import (
	"os"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// TestChangelogNamesCorpus: the corpus `version` prints has its entry in
// CHANGELOG.md.
func TestChangelogNamesCorpus(t *testing.T) {
	t.Parallel()
	_, hash, err := blockpatch.New(nil).Load()
	if err != nil {
		t.Fatal(err)
	}
	log, err := os.ReadFile("../../CHANGELOG.md")
	if err != nil {
		t.Fatal(err)
	}
	if err := certcmd.CheckChangelog(log, "blockpatch", hash); err != nil {
		t.Error(err)
	}
}
