package campaign

import (
	"bytes"
	"cmp"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file merges the output folders of a campaign's shards (--shard i/n
// on several machines, each writing its own --out) into one folder of
// case files without duplicates.
//
// What a duplicate is follows from what the case files hold. Both suites
// write one JSON object per case whose "description" member is the only
// one that says where the case was found (seed, iteration, the
// difference's detail); every other member is a function of the shrunk
// scenario and of the reference's outcomes on it. Two files equal but for
// that member are the same test, whichever shard or iteration shrank to
// it. Their names differ (they carry seed and iteration), so content
// decides, not the name.

// maxCaseFile bounds the size of a file merge reads as a case.
const maxCaseFile = 64 << 20

// MergeReport is what Merge did.
type MergeReport struct {
	// Read counts the case files read from the inputs.
	Read int
	// Written lists the files written, relative to the output folder.
	Written []string
	// Duplicates lists the files left out as duplicates, each with the
	// file kept in its place.
	Duplicates []Duplicate
	// Renamed lists the files written under another name, because two
	// different cases had the same one.
	Renamed []Rename
	// Skipped lists what was not read as a case, with the reason:
	// symbolic links (never followed), files of other kinds, files not
	// ending in .json.
	Skipped []string
}

// Duplicate is a case file left out in favour of Kept (both are
// input-qualified paths).
type Duplicate struct{ Dropped, Kept string }

// Rename is a case file From (input-qualified) written as To (relative
// to the output folder).
type Rename struct{ From, To string }

// Summary prints the report.
func (r *MergeReport) Summary(w io.Writer, out string) {
	for _, d := range r.Duplicates {
		fmt.Fprintf(w, "duplicate: %s (same case as %s)\n", d.Dropped, d.Kept)
	}
	for _, rn := range r.Renamed {
		fmt.Fprintf(w, "renamed: %s -> %s (another case has its name)\n", rn.From, rn.To)
	}
	for _, s := range r.Skipped {
		fmt.Fprintf(w, "skipped: %s\n", s)
	}
	fmt.Fprintf(w, "merge: %d case files read, %d written to %s, %d duplicates left out, %d renamed, %d skipped\n",
		r.Read, len(r.Written), out, len(r.Duplicates), len(r.Renamed), len(r.Skipped))
}

// caseFile is one case file read from an input.
type caseFile struct {
	input string // the input folder as given
	rel   string // slash path below it
	data  []byte
}

func (f *caseFile) where() string { return filepath.Join(f.input, filepath.FromSlash(f.rel)) }

// Merge reads the case files (*.json) below the input folders and writes
// one of each case to out, a folder that does not exist yet or is empty,
// keeping each file's path below its input. Of duplicates (see caseKey)
// the one with the smallest path, then the smallest bytes, is kept; two
// different cases with the same path keep it in the same order and the
// later ones get a suffix ("-2"). The result depends only on the set of
// files read, not on the order of the inputs, and merging the output
// again gives the same output. Merge never follows a symbolic link below
// an input (nor an input that is one), refuses an output folder that is,
// holds or lies inside an input and inputs that overlap one another, and
// writes into a temporary folder renamed to out at the end, so a failed
// merge leaves no partial output.
func Merge(out string, inputs []string) (*MergeReport, error) {
	if out == "" || len(inputs) == 0 {
		return nil, errors.New("merge needs an output folder and at least one input folder")
	}
	outAbs, err := canonical(out)
	if err != nil {
		return nil, err
	}
	seen := map[string]string{}
	for _, in := range inputs {
		info, err := os.Lstat(in)
		if err != nil {
			return nil, err
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return nil, fmt.Errorf("input %s is a symbolic link: name the folder it points to", in)
		}
		if !info.IsDir() {
			return nil, fmt.Errorf("input %s is not a folder", in)
		}
		inAbs, err := canonical(in)
		if err != nil {
			return nil, err
		}
		if within(outAbs, inAbs) || within(inAbs, outAbs) {
			return nil, fmt.Errorf("output %s and input %s overlap: merge writes a folder of its own", out, in)
		}
		for other, otherAbs := range seen {
			if within(inAbs, otherAbs) || within(otherAbs, inAbs) {
				return nil, fmt.Errorf("inputs %s and %s overlap: name each folder once", other, in)
			}
		}
		seen[in] = inAbs
	}
	if err := checkOut(out); err != nil {
		return nil, err
	}
	r := &MergeReport{}
	var files []*caseFile
	for _, in := range inputs {
		found, skipped, err := readCases(in)
		if err != nil {
			return nil, err
		}
		files = append(files, found...)
		r.Skipped = append(r.Skipped, skipped...)
	}
	r.Read = len(files)

	// One group per case; the group's first file (by path, then bytes) is
	// kept.
	groups := map[[sha256.Size]byte][]*caseFile{}
	for _, f := range files {
		k := sha256.Sum256([]byte(caseKey(f.data)))
		groups[k] = append(groups[k], f)
	}
	byPath := func(a, b *caseFile) int {
		return cmp.Or(strings.Compare(a.rel, b.rel), bytes.Compare(a.data, b.data), strings.Compare(a.where(), b.where()))
	}
	var kept []*caseFile
	for _, g := range groups {
		slices.SortFunc(g, byPath)
		kept = append(kept, g[0])
		for _, d := range g[1:] {
			r.Duplicates = append(r.Duplicates, Duplicate{Dropped: d.where(), Kept: g[0].where()})
		}
	}
	slices.SortFunc(kept, byPath)
	slices.SortFunc(r.Duplicates, func(a, b Duplicate) int {
		return cmp.Or(strings.Compare(a.Dropped, b.Dropped), strings.Compare(a.Kept, b.Kept))
	})

	// Names: the first case with a path keeps it, the others take the
	// first free suffix.
	names := make([]string, len(kept))
	taken := map[string]bool{}
	for i, f := range kept {
		if !taken[f.rel] {
			names[i], taken[f.rel] = f.rel, true
		}
	}
	for i, f := range kept {
		if names[i] != "" {
			continue
		}
		for n := 2; ; n++ {
			if p := suffixed(f.rel, n); !taken[p] {
				names[i], taken[p] = p, true
				break
			}
		}
		r.Renamed = append(r.Renamed, Rename{From: f.where(), To: names[i]})
	}

	if err := writeMerged(out, kept, names); err != nil {
		return nil, err
	}
	r.Written = slices.Sorted(slices.Values(names))
	return r, nil
}

// checkOut accepts an output folder that does not exist or is an empty
// folder (not a symbolic link).
func checkOut(out string) error {
	info, err := os.Lstat(out)
	if errors.Is(err, fs.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !info.IsDir() {
		return fmt.Errorf("output %s exists and is not a folder", out)
	}
	entries, err := os.ReadDir(out)
	if err != nil {
		return err
	}
	if len(entries) > 0 {
		return fmt.Errorf("output %s is not empty: merge writes a new folder", out)
	}
	return nil
}

// canonical is p absolute, with the symbolic links of its existing part
// resolved, so that overlapping folders are seen whatever their names.
func canonical(p string) (string, error) {
	abs, err := filepath.Abs(p)
	if err != nil {
		return "", err
	}
	rest := ""
	for dir := abs; ; dir = filepath.Dir(dir) {
		if resolved, err := filepath.EvalSymlinks(dir); err == nil {
			return filepath.Join(resolved, rest), nil
		}
		if filepath.Dir(dir) == dir {
			return abs, nil
		}
		rest = filepath.Join(filepath.Base(dir), rest)
	}
}

// within reports whether p is dir or below it.
func within(p, dir string) bool {
	rel, err := filepath.Rel(dir, p)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel)
}

// readCases reads the case files below in, without following symbolic
// links: WalkDir reports a link as a link, and a file that changed into
// something else between the walk and the read is refused.
func readCases(in string) ([]*caseFile, []string, error) {
	var files []*caseFile
	var skipped []string
	err := filepath.WalkDir(in, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return nil
		}
		switch {
		case d.Type()&fs.ModeSymlink != 0:
			skipped = append(skipped, p+": a symbolic link, not followed")
			return nil
		case !d.Type().IsRegular():
			skipped = append(skipped, p+": not a regular file")
			return nil
		case !strings.HasSuffix(d.Name(), ".json"):
			skipped = append(skipped, p+": not a case file (*.json)")
			return nil
		}
		walked, err := d.Info()
		if err != nil {
			return err
		}
		if walked.Size() > maxCaseFile {
			skipped = append(skipped, fmt.Sprintf("%s: larger than %d bytes", p, maxCaseFile))
			return nil
		}
		data, err := readSame(p, walked)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(in, p)
		if err != nil {
			return err
		}
		files = append(files, &caseFile{input: in, rel: filepath.ToSlash(rel), data: data})
		return nil
	})
	return files, skipped, err
}

// readSame reads the regular file p, which must still be the file walked.
func readSame(p string, walked fs.FileInfo) ([]byte, error) {
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	opened, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !opened.Mode().IsRegular() || !os.SameFile(walked, opened) {
		return nil, fmt.Errorf("%s changed while merging (a link or another file now)", p)
	}
	data, err := io.ReadAll(io.LimitReader(f, maxCaseFile+1))
	if err == nil && len(data) > maxCaseFile {
		err = fmt.Errorf("%s grew past %d bytes while merging", p, maxCaseFile)
	}
	return data, err
}

// caseKey is what makes two case files the same case: the JSON object's
// tokens, in order, without the top-level "description" member. A file
// that is not one valid UTF-8 JSON object is its bytes. Tokens, not a
// decoded map, so that duplicate members and number spellings stay
// distinct; valid UTF-8 only, because the decoder would map invalid bytes
// to U+FFFD and make different files equal.
func caseKey(data []byte) string {
	if k, ok := tokenKey(data); ok {
		return "json\x00" + k
	}
	return "bytes\x00" + string(data)
}

func tokenKey(data []byte) (string, bool) {
	if !utf8.Valid(data) {
		return "", false
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var b strings.Builder
	// stack holds, per open container, whether it is an object whose next
	// token is a member name.
	type frame struct{ object, name bool }
	var stack []frame
	started := false
	for {
		if started && len(stack) == 0 {
			// One value only: anything after it makes the file bytes.
			if _, err := dec.Token(); err != io.EOF {
				return "", false
			}
			return b.String(), true
		}
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		if !started {
			if d, ok := tok.(json.Delim); !ok || d != '{' {
				return "", false
			}
			started = true
		}
		top := len(stack) - 1
		if name, ok := tok.(string); ok && top >= 0 && stack[top].object && stack[top].name {
			if top == 0 && name == "description" {
				var skip json.RawMessage
				if err := dec.Decode(&skip); err != nil {
					return "", false
				}
				continue
			}
			stack[top].name = false
			b.WriteString("k" + strconv.Quote(name) + "\x00")
			continue
		}
		switch t := tok.(type) {
		case json.Delim:
			switch t {
			case '{', '[':
				stack = append(stack, frame{object: t == '{', name: t == '{'})
			default:
				stack = stack[:top]
			}
			b.WriteString(string(t) + "\x00")
		case string:
			b.WriteString("s" + strconv.Quote(t) + "\x00")
		case json.Number:
			b.WriteString("n" + string(t) + "\x00")
		case bool:
			b.WriteString("b" + strconv.FormatBool(t) + "\x00")
		case nil:
			b.WriteString("z\x00")
		}
		// After a value in an object, a member name comes next.
		if top = len(stack) - 1; top >= 0 && stack[top].object {
			if d, ok := tok.(json.Delim); !ok || d == '}' || d == ']' {
				stack[top].name = true
			}
		}
	}
}

// suffixed is rel with "-n" added to the case's name: the folder of a
// "NAME/case.json", else the file's own name.
func suffixed(rel string, n int) string {
	dir, base := path.Split(rel)
	dir = strings.TrimSuffix(dir, "/")
	if base == "case.json" && dir != "" {
		return dir + "-" + strconv.Itoa(n) + "/" + base
	}
	stem := strings.TrimSuffix(base, ".json")
	return path.Join(dir, stem+"-"+strconv.Itoa(n)+".json")
}

// writeMerged writes the kept files under their names into a temporary
// folder beside out and renames it to out.
func writeMerged(out string, kept []*caseFile, names []string) (err error) {
	parent := filepath.Dir(filepath.Clean(out))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(parent, ".merge-*")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			os.RemoveAll(tmp)
		}
	}()
	for i, f := range kept {
		p := filepath.Join(tmp, filepath.FromSlash(names[i]))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, f.data, 0o644); err != nil {
			return err
		}
	}
	// The modes, whatever the umask: folders 0755, files 0644.
	err = filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			return os.Chmod(p, 0o755)
		}
		return os.Chmod(p, 0o644)
	})
	if err != nil {
		return err
	}
	// out is absent or an empty folder (checkOut); Remove refuses a folder
	// that filled up meanwhile.
	if err := os.Remove(out); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return os.Rename(tmp, out)
}

// MergeMain is the merge subcommand of a campaign command (name merge
// --out DIR IN...): it returns 0 when the folder is written, 2 on a usage
// or harness error.
func MergeMain(name, usage string, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet(name+" merge", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	out := fs.String("out", "", "")
	help := fs.Bool("help", false, "")
	fs.BoolVar(help, "h", false, "")
	fail := func(format string, a ...any) int {
		fmt.Fprintf(stderr, name+" merge: "+format+"\n", a...)
		return 2
	}
	if err := fs.Parse(args); err != nil {
		return fail("%v\n\n%s", err, usage)
	}
	if *help {
		fmt.Fprint(stdout, usage)
		return 0
	}
	if *out == "" || fs.NArg() == 0 {
		return fail("want --out DIR and at least one input folder\n\n%s", usage)
	}
	r, err := Merge(*out, fs.Args())
	if err != nil {
		return fail("%v", err)
	}
	r.Summary(stdout, *out)
	return 0
}
