package cases

import (
	"embed"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases/internal/caseerr"
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
	// MaxContent bounds the bytes the contents of one case file stand for
	// together; zero means DefaultMaxContent.
	MaxContent int
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
type CaseError = caseerr.Error

// CaseErrors returns every *CaseError in err, which may be a single one or
// an errors.Join of several.
func CaseErrors(err error) []*CaseError { return caseerr.All(err) }

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
		var caseEntry fs.DirEntry
		for _, e := range entries {
			hasSub = hasSub || e.IsDir()
			if e.Name() == CaseFile {
				hasCase, caseEntry = true, e
			}
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
		if err := CheckName(name); err != nil {
			fail(name, err)
			return nil
		}
		data, err := readCaseFile(fsys, path.Join(dir, CaseFile), caseEntry)
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
	c.writable(k)
	if err := c.err(); err != nil {
		return nil, err
	}
	return k, nil
}

// writable refuses trees the runner would have to write through one of
// their own symlinks: an entry below a symlink of the same tree, a step's
// input below a symlink an earlier step's inputs made, a race on a path
// below or at a symlink of the starting tree.
func (c *checker) writable(k *Case) {
	if err := k.Files.CheckWritable(); err != nil {
		c.add("files", err)
	}
	inputs := Tree{}
	for i, s := range k.Steps {
		for p, e := range s.Inputs {
			inputs[p] = e
		}
		if err := inputs.CheckWritable(); err != nil {
			c.add(fmt.Sprintf("steps[%d].inputs", i), err)
		}
		if s.Race == nil {
			continue
		}
		for _, p := range append(parents(s.Race.Path), s.Race.Path) {
			if k.Files[p].Kind() == "symlink" {
				c.errorf(fmt.Sprintf("steps[%d].race", i), "%q is the symlink %q or below it: the runner does not write through symlinks", s.Race.Path, p)
			}
		}
	}
}

// MaxCaseFile is the largest case.json the loader reads.
const MaxCaseFile = 16 << 20

// readCaseFile reads a case.json found as the directory entry e: it must be
// a regular file, not a symlink, FIFO or device, and at most MaxCaseFile
// bytes.
func readCaseFile(fsys fs.FS, name string, e fs.DirEntry) ([]byte, error) {
	if e != nil && !e.Type().IsRegular() {
		return nil, fmt.Errorf("%s is a %s, not a regular file", CaseFile, kindName(e.Type()))
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	info, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s is a %s, not a regular file", CaseFile, kindName(info.Mode().Type()))
	}
	if info.Size() > MaxCaseFile {
		return nil, fmt.Errorf("%s holds %d bytes, more than the %d a case file may hold", CaseFile, info.Size(), MaxCaseFile)
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxCaseFile+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxCaseFile {
		return nil, fmt.Errorf("%s holds more than the %d bytes a case file may hold", CaseFile, MaxCaseFile)
	}
	return data, nil
}

// ReadCaseFile reads the case.json of the case name under root in fsys,
// with the checks of Load.
func ReadCaseFile(fsys fs.FS, root, name string) ([]byte, error) {
	file := path.Join(root, name, CaseFile)
	entries, err := fs.ReadDir(fsys, path.Dir(file))
	if err != nil {
		return nil, err
	}
	for _, e := range entries {
		if e.Name() == CaseFile {
			return readCaseFile(fsys, file, e)
		}
	}
	return nil, fmt.Errorf("%s: %w", file, fs.ErrNotExist)
}

func kindName(m fs.FileMode) string {
	if m&fs.ModeSymlink != 0 {
		return "symlink"
	}
	return fileKind(m)
}

// CheckName reports why name cannot be a case name. A name is a slash path
// of segments made of ASCII letters, digits and - _ . + = , @ only, so that
// it prints safely in every report and shell line: no spaces, no control
// characters, no quotes, no '#'.
func CheckName(name string) error {
	for seg := range strings.SplitSeq(name, "/") {
		if seg == "" || seg == "." || seg == ".." {
			return fmt.Errorf("case name %q: empty, . or .. segment", name)
		}
		for _, r := range seg {
			if !nameRune(r) {
				return fmt.Errorf("case name %q: the character %q is not allowed; case names use ASCII letters, digits and - _ . + = , @", name, r)
			}
		}
	}
	return nil
}

func nameRune(r rune) bool {
	switch {
	case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9':
		return true
	}
	return strings.ContainsRune("-_.+=,@", r)
}

// checker gathers the problems of one case.
type checker struct {
	name string
	opts Options
	errs []error
	// contentBytes counts the bytes of the contents built so far.
	contentBytes int
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
