// Package mutants measures the conformance corpus against broken variants
// of the reference implementation (mutants) and records which cases catch
// them (the kill matrix).
//
// A mutant is a small unified diff against files of reference/. The
// builder applies it to temporary copies and builds cmd/blockpatch with
// go build -overlay, so the checkout is never edited and the reference
// carries no mutation hooks; each mutant binary is then certified through
// runner.Command like any external implementation. The hand-written
// mutants are realistic implementer mistakes kept in testdata/hand; the
// mechanical ones are generated from the reference's syntax (Generate).
// The mechanical campaign of blockpatch judges them all at once through
// mutant schemata (schemata.go, SchemaCampaign): one overlay build that
// switches every mutant at run time, per-case coverage of the mutation
// sites, and a judge process per mutant running in process only the cases
// that reach its site.
package mutants

import (
	"embed"
	"fmt"
	"io/fs"
	"path"
	"strings"
)

// Mutant is one broken implementation.
type Mutant struct {
	// Name identifies the mutant: the file name of a hand-written one, or
	// FILE:LINE:OPERATOR:INDEX for a mechanical one.
	Name string
	// Mistake says what an implementer got wrong (hand-written), or what
	// the change is (mechanical).
	Mistake string
	// Diff is the mutant's unified diff against the module's files.
	Diff []byte
}

// DoNothing is the mutant that answers every command with {"ok":true} and
// touches nothing: it must not pass a single pass-case. It has no diff.
const DoNothing = "do-nothing"

//go:embed testdata/hand/*.diff
var handFS embed.FS

// HandDir is where the hand-written mutants live, relative to this
// package.
const HandDir = "testdata/hand"

// Hand returns the hand-written mutants, one per testdata/hand/NAME.diff,
// sorted by name. The first line of each diff says what the mistake is.
func Hand() ([]Mutant, error) {
	entries, err := fs.ReadDir(handFS, HandDir)
	if err != nil {
		return nil, err
	}
	var out []Mutant
	for _, e := range entries {
		data, err := fs.ReadFile(handFS, path.Join(HandDir, e.Name()))
		if err != nil {
			return nil, err
		}
		desc, _, err := ParseDiff(data)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", e.Name(), err)
		}
		summary, _, _ := strings.Cut(desc, "\n")
		out = append(out, Mutant{Name: strings.TrimSuffix(e.Name(), ".diff"), Mistake: summary, Diff: data})
	}
	return out, nil
}
