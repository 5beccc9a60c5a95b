package cases

import (
	"embed"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

//go:embed testdata/corpus
var corpus embed.FS

// CorpusRoot is where the corpus lives in this folder, for tools that read
// it from disk rather than through Corpus.
const CorpusRoot = "testdata/corpus"

// Corpus returns the project's own cases, embedded in the binary. Case names
// are relative to its root, so Load(Corpus(), ".") loads them all.
func Corpus() fs.FS {
	sub, err := fs.Sub(corpus, CorpusRoot)
	if err != nil {
		panic(err) // the embed pattern above guarantees the folder
	}
	return sub
}

// CaseFile is the name of the file that makes a folder a case.
const CaseFile = "case.json"

// Options adjust what the loader accepts. The zero value loads any
// well-formed case, upstream's included.
type Options struct {
	// KnownCode reports whether an error code exists. Nil means IsCode,
	// the 28 codes of blockpatch 1.1.
	KnownCode func(code string) bool
	// KnownRequirement reports whether a requirement ID exists. Nil means
	// DefaultKnownRequirement, the spec's index. IDs must have the shape of
	// IsRequirementID either way.
	KnownRequirement func(id string) bool
	// RequireMetadata makes description, requirements and since mandatory,
	// as they are for the project's own corpus.
	RequireMetadata bool
}

// DefaultKnownRequirement is the requirement check used when
// Options.KnownRequirement is nil: the ID must be in the spec's requirement
// index (spec.Lookup).
func DefaultKnownRequirement(id string) bool {
	_, ok := spec.Lookup(id)
	return ok
}

// CorpusOptions are the options the project's own corpus must load under.
var CorpusOptions = Options{RequireMetadata: true}

// CaseError is a problem with one case: the case's name, the field at fault
// (empty for the file as a whole) and the reason.
type CaseError struct {
	Case  string
	Field string
	Err   error
}

func (e *CaseError) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("case %s: %v", e.Case, e.Err)
	}
	return fmt.Sprintf("case %s: %s: %v", e.Case, e.Field, e.Err)
}

func (e *CaseError) Unwrap() error { return e.Err }

// CaseErrors returns every *CaseError in err, which may be a single one or
// an errors.Join of several.
func CaseErrors(err error) []*CaseError {
	var out []*CaseError
	var walk func(error)
	walk = func(err error) {
		if ce, ok := err.(*CaseError); ok {
			out = append(out, ce)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}

// Load loads every case under root in fsys with the zero Options.
func Load(fsys fs.FS, root string) ([]*Case, error) { return Options{}.Load(fsys, root) }

// LoadDir loads every case under the folder dir on disk.
func LoadDir(dir string) ([]*Case, error) { return Load(os.DirFS(dir), ".") }

// LoadCorpus loads the embedded corpus under CorpusOptions.
func LoadCorpus() ([]*Case, error) { return CorpusOptions.Load(Corpus(), ".") }

// Load loads every case under root in fsys, sorted by name. A case is a
// folder holding a case.json; its name is the folder's slash path relative
// to root. Files other than case.json are ignored. A case.json directly at
// root, a case folder inside another, a folder with neither a case.json nor
// subfolders, and two names that differ only in case (one checkout would lose
// a case) are errors. On any error Load returns no cases and an error joining
// a *CaseError for every problem it found.
func (o Options) Load(fsys fs.FS, root string) ([]*Case, error) {
	var errs []error
	var out []*Case
	fail := func(name string, err error) { errs = append(errs, &CaseError{Case: name, Err: err}) }
	err := fs.WalkDir(fsys, root, func(dir string, d fs.DirEntry, err error) error {
		if err != nil || !d.IsDir() {
			return err
		}
		name := strings.TrimPrefix(strings.TrimPrefix(dir, root), "/")
		if root == "." {
			name = dir
		}
		entries, err := fs.ReadDir(fsys, dir)
		if err != nil {
			return err
		}
		hasCase, hasSub := false, false
		for _, e := range entries {
			hasSub = hasSub || e.IsDir()
			hasCase = hasCase || e.Name() == CaseFile
		}
		switch {
		case hasCase && dir == root:
			fail(root, fmt.Errorf("%s at the root of the case folder: load the folder above it", CaseFile))
			return nil
		case hasCase && hasSub:
			fail(name, errors.New("a case folder holds no other folders"))
			return fs.SkipDir
		case !hasCase && !hasSub && dir != root:
			fail(name, fmt.Errorf("folder holds no %s and no case folders", CaseFile))
			return nil
		case !hasCase:
			return nil
		}
		data, err := fs.ReadFile(fsys, path.Join(dir, CaseFile))
		if err != nil {
			fail(name, err)
			return nil
		}
		c, err := o.Parse(name, data)
		if err != nil {
			errs = append(errs, err)
			return nil
		}
		out = append(out, c)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	folded := map[string]string{}
	for _, c := range out {
		k := strings.ToLower(c.Name)
		if other, ok := folded[k]; ok {
			fail(c.Name, fmt.Errorf("name differs from case %s only in letter case", other))
		}
		folded[k] = c.Name
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	slices.SortFunc(out, func(a, b *Case) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// Parse decodes and validates one case.json under the given case name. The
// error, when not nil, joins a *CaseError for every problem found.
func (o Options) Parse(name string, data []byte) (*Case, error) {
	c := &checker{name: name, opts: o}
	if err := checkText(data); err != nil {
		c.add("", err)
		return nil, c.err()
	}
	if f, err := scanJSON(data); err != nil {
		c.add(f, err)
		return nil, c.err()
	}
	var raw rawCase
	if err := strictUnmarshal(data, &raw); err != nil {
		c.add(decodeError("", err))
		return nil, c.err()
	}
	k := c.build(&raw)
	if err := c.err(); err != nil {
		return nil, err
	}
	return k, nil
}

// checker gathers the problems of one case.
type checker struct {
	name string
	opts Options
	errs []error
}

func (c *checker) add(field string, err error) {
	c.errs = append(c.errs, &CaseError{Case: c.name, Field: field, Err: err})
}

func (c *checker) errorf(field, format string, args ...any) {
	c.add(field, fmt.Errorf(format, args...))
}

func (c *checker) err() error { return errors.Join(c.errs...) }

func (c *checker) knownCode(code string) bool {
	if c.opts.KnownCode != nil {
		return c.opts.KnownCode(code)
	}
	return IsCode(code)
}

func (c *checker) knownRequirement(id string) bool {
	if c.opts.KnownRequirement != nil {
		return c.opts.KnownRequirement(id)
	}
	return DefaultKnownRequirement(id)
}
