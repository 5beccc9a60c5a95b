// Command rewrite re-encodes every case file of a case folder through the
// one case-file encoder (cases.Encode), applying migrations on the way, so a
// field's name, presence or value can change across the corpus in one
// command:
//
//	go run ./cases/cmd/rewrite                                  # re-encode only: a no-op on the corpus
//	go run ./cases/cmd/rewrite -rename-field result.moves.*.target_range=target_span
//	go run ./cases/cmd/rewrite -drop-field steps.*.description -n
//	go run ./cases/cmd/rewrite -migrate                         # run migrate.go's Go hook
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
)

const usage = `usage: rewrite [flags]

Decodes every case.json under -cases, applies the migrations in the order
the flags give them (then migrate.go's hook with -migrate), encodes each in
the corpus layout and writes the files that change. Every result must load
(with the corpus rules under -corpus-rules), or nothing is written.

A field path names members from the top of the case file joined with dots,
"*" standing for every list item or object member:
"result.moves.*.target_range", "steps.*.json.error.phase".

Flags:
`

func main() { os.Exit(run(os.Args[1:])) }

func run(args []string) int {
	fs := flag.NewFlagSet("rewrite", flag.ContinueOnError)
	fs.Usage = func() { fmt.Fprint(os.Stderr, usage); fs.PrintDefaults() }
	dir := fs.String("cases", "cases/testdata/corpus", "the case folder to rewrite")
	dry := fs.Bool("n", false, "list the cases that would change without writing them")
	corpusRules := fs.Bool("corpus-rules", true, "check the results under cases.CorpusOptions")
	hook := fs.Bool("migrate", false, "apply the Go migration of migrate.go")
	var edits []cases.Edit
	fs.Func("rename-field", "`path=new`: rename the member at path to new, in place", func(s string) error {
		path, name, ok := strings.Cut(s, "=")
		if !ok || name == "" {
			return fmt.Errorf("want path=new")
		}
		edits = append(edits, cases.RenameField(path, name))
		return nil
	})
	fs.Func("drop-field", "`path`: remove the member at path", func(s string) error {
		edits = append(edits, cases.DropField(s))
		return nil
	})
	fs.Func("set", "`path=json`: give the member at path this JSON value, adding it where missing", func(s string) error {
		path, value, ok := strings.Cut(s, "=")
		if !ok || !json.Valid([]byte(value)) {
			return fmt.Errorf("want path=<a JSON value>")
		}
		edits = append(edits, cases.SetField(path, json.RawMessage(value)))
		return nil
	})
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fs.Usage()
		return 2
	}
	if *hook {
		edits = append(edits, migrate)
	}
	opts := cases.Options{}
	if *corpusRules {
		opts = cases.CorpusOptions
	}
	changed, err := cases.Rewrite(*dir, opts, *dry, edits...)
	if err != nil {
		fmt.Fprintln(os.Stderr, "rewrite:", err)
		return 1
	}
	verb := "rewrote"
	if *dry {
		verb = "would rewrite"
	}
	for _, name := range changed {
		fmt.Println(name)
	}
	fmt.Fprintf(os.Stderr, "rewrite: %s %d case files\n", verb, len(changed))
	return 0
}
