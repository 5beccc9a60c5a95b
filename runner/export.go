package runner

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
)

// This file lets the cases leave the certifier: listed with what they
// check, and copied as plain files that a harness in any language runs.

// CaseInfo describes one case for list and copy.
type CaseInfo struct {
	Name         string   `json:"name"`
	Source       string   `json:"source"`
	Requirements []string `json:"requirements,omitempty"`
	// Since is the profile the case holds from.
	Since string `json:"since"`
	// Tags say what kind of case it is: its protocol, what it expects,
	// and marks such as "derived".
	Tags []string `json:"tags"`
	// Levels are the levels the case needs, each independent of the
	// others (blockpatch's core, planner, cli); the case runs for an
	// implementation that claims all of them.
	Levels      []string `json:"levels,omitempty"`
	Description string   `json:"description,omitempty"`
	// File is where a copy writes the case, relative to the copy's
	// folder, and Format names the format of that file (a key of
	// Catalog.Formats).
	File   string `json:"file"`
	Format string `json:"format"`
	// Data is the case file a copy writes.
	Data []byte `json:"-"`
}

// Catalog is the cases of a suite as loaded, for list and copy.
type Catalog struct {
	Suite  string
	Corpus CorpusInfo
	// Cases are sorted by name.
	Cases []CaseInfo
	// Formats explains each format a copy may hold, in the order the
	// copy's README lists them: its name and a paragraph for people.
	Formats []Format
}

// Format is one case-file format a copy may hold.
type Format struct {
	Name, About string
}

// Selected returns the cases of c that the settings' -run and -skip select.
func (s *Settings) Selected(c *Catalog) []CaseInfo {
	var out []CaseInfo
	for _, ci := range c.Cases {
		if s.matches(ci.Name) {
			out = append(out, ci)
		}
	}
	return out
}

func (s *Settings) matches(name string) bool {
	return (s.RunRegexp == nil || s.RunRegexp.MatchString(name)) && (s.SkipRegexp == nil || !s.SkipRegexp.MatchString(name))
}

// WriteList prints cases one a line, name, profile, tags (then the levels
// joined by "+", as in "steps,pass,core+cli") and requirement IDs in
// columns; with asJSON, one JSON object a line (JSON Lines), as a
// copy's IndexFile holds them.
func WriteList(w io.Writer, cases []CaseInfo, asJSON bool) error {
	if asJSON {
		for _, ci := range cases {
			line, err := plainjson.Marshal(ci)
			if err != nil {
				return err
			}
			if _, err := fmt.Fprintf(w, "%s\n", line); err != nil {
				return err
			}
		}
		return nil
	}
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	for _, ci := range cases {
		tags := ci.Tags
		if len(ci.Levels) > 0 {
			tags = append(slices.Clone(tags), strings.Join(ci.Levels, "+"))
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\n", nameText(ci.Name), ci.Since, strings.Join(tags, ","), strings.Join(ci.Requirements, " "))
	}
	return tw.Flush()
}

// IndexFile is the copy's list of its cases, as WriteList writes with
// asJSON: one JSON object per case, one a line.
const IndexFile = "cases.jsonl"

// ErrNotEmpty is returned by Copy for a folder that already holds files:
// a copy never mixes with or overwrites other files.
var ErrNotEmpty = errors.New("the folder is not empty")

// Copy writes cases into dir as plain files, each at its File, with a
// README.md saying what each format is and IndexFile listing them. dir is
// made when missing and must be empty. A case file is written only below
// dir: a File that would leave it is an error.
func (c *Catalog) Copy(dir string, cases []CaseInfo) error {
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > 0 {
		return fmt.Errorf("copy to %s: %w", dir, ErrNotEmpty)
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	counts := map[string]int{}
	var index strings.Builder
	if err := WriteList(&index, cases, true); err != nil {
		return err
	}
	for _, ci := range cases {
		if !filepath.IsLocal(filepath.FromSlash(ci.File)) || ci.File != path.Clean(ci.File) {
			return fmt.Errorf("case %s: file %q is not a plain path below the copy", ci.Name, ci.File)
		}
		if d := path.Dir(ci.File); d != "." {
			if err := root.MkdirAll(d, 0o755); err != nil {
				return err
			}
		}
		if err := root.WriteFile(ci.File, ci.Data, 0o644); err != nil {
			return fmt.Errorf("case %s: %w", ci.Name, err)
		}
		counts[ci.Format]++
	}
	if err := root.WriteFile(IndexFile, []byte(index.String()), 0o644); err != nil {
		return err
	}
	return root.WriteFile("README.md", []byte(c.readme(counts, len(cases))), 0o644)
}

// readme is the copy's README: where the cases came from and how each
// format reads.
func (c *Catalog) readme(counts map[string]int, n int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s conformance cases\n\n", c.Suite)
	fmt.Fprintf(&b, "%d cases copied from %s (corpus sha256:%s), %s.\n",
		n, strings.Join(c.Corpus.Sources, ", "), c.Corpus.SHA256, ModuleVersion())
	fmt.Fprintf(&b, "`%s` lists every case, one JSON object a line: its name, requirement IDs,\n", IndexFile)
	b.WriteString("profile (`since`), tags, description, and the file and format it is written in.\n")
	b.WriteString("The certifier runs this folder as it is with `--no-corpus --cases DIR`.\n")
	for _, f := range c.Formats {
		if counts[f.Name] == 0 {
			continue
		}
		fmt.Fprintf(&b, "\n## Format %q (%d cases)\n\n%s\n", f.Name, counts[f.Name], strings.TrimSpace(f.About))
	}
	return b.String()
}
