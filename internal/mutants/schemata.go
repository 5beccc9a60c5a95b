package mutants

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Mutant schemata, as Stryker and Mull make them: every mechanical mutant
// compiled into one build and chosen at run time. The committed reference
// carries none of it: the switched copy of each file lives in a temp
// folder named by a go build -overlay file, as the diffs of the
// one-build-per-mutant path do.
//
// A function holding mutation sites gets, at the top of its body, a switch
// on the active mutant (schema.Active) with one arm per mutant: a copy of
// the whole body with that mutant's edit applied, run as a function
// literal of the same result types, so returns, named results, defers and
// labels mean what they mean in the mutant's own build. The original body
// follows, with a call to schema.Hit before each statement that holds a
// site, so one run of a case with no mutant active records which sites it
// reaches. A copy of the whole body, not of the changed expression, keeps
// the generator free of types: a switched expression would need its type
// written out. Sites outside any function body (a constant, a package
// variable) cannot be switched at run time; they are left out of the
// schemata and judged by a build of their own.

// SchemaPackage is the import path suffix, under the module, of the
// run-time switch the schemata import.
const SchemaPackage = "internal/mutants/schema"

// JudgePackage is the main package, relative to the module root, of the
// schemata judge: the corpus's runner with the switched reference linked
// in (internal/mutants/schemajudge).
const JudgePackage = "./internal/mutants/schemajudge"

// Schemata is a suite's mechanical mutants in one overlay.
type Schemata struct {
	// Sites are the mutants, numbered from 1 in this order (ID).
	Sites []site
	// ID is each mutant's number in the schemata, by name.
	ID map[string]int
	// Outside names the mutants whose sites lie outside every function
	// body: not switched.
	Outside map[string]bool
	// BuildFailed holds, by name, the first compiler error of each mutant
	// left out because its copy does not compile.
	BuildFailed map[string]string

	module, modPath string
	files           map[string][]byte      // switched sources by slash path
	copies          map[string][]lineRange // the lines of each mutant's copy, by file
}

type lineRange struct{ from, to, id int }

// NewSchemata generates the mechanical mutants of s and their schemata.
func NewSchemata(module string, s Suite) (*Schemata, error) {
	sites, err := generateSites(module, s)
	if err != nil {
		return nil, err
	}
	return newSchemata(module, sites)
}

func newSchemata(module string, sites []site) (*Schemata, error) {
	gomod, err := os.ReadFile(filepath.Join(module, "go.mod"))
	if err != nil {
		return nil, err
	}
	m := regexp.MustCompile(`(?m)^module\s+(\S+)`).FindSubmatch(gomod)
	if m == nil {
		return nil, fmt.Errorf("%s/go.mod names no module", module)
	}
	sc := &Schemata{Sites: sites, ID: map[string]int{}, Outside: map[string]bool{}, BuildFailed: map[string]string{}, module: module, modPath: string(m[1])}
	for i, st := range sites {
		sc.ID[st.Name] = i + 1
		if st.unused != "" {
			sc.BuildFailed[st.Name] = fmt.Sprintf("%q imported and not used", st.unused)
		}
	}
	return sc, sc.generate()
}

// generate writes the switched source of every file with a site, leaving
// out the mutants in BuildFailed.
func (sc *Schemata) generate() error {
	sc.files, sc.copies = map[string][]byte{}, map[string][]lineRange{}
	byFile := map[string][]int{}
	var order []string
	for i, st := range sc.Sites {
		if _, ok := byFile[st.File]; !ok {
			order = append(order, st.File)
		}
		byFile[st.File] = append(byFile[st.File], i+1)
	}
	for _, file := range order {
		src, err := os.ReadFile(filepath.Join(sc.module, filepath.FromSlash(file)))
		if err != nil {
			return err
		}
		if err := sc.switchFile(file, src, byFile[file]); err != nil {
			return err
		}
	}
	return nil
}

// switchFile writes the schemata of one file.
func (sc *Schemata) switchFile(file string, src []byte, ids []int) error {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, file, src, parser.SkipObjectResolution)
	if err != nil {
		return err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	type fn struct {
		decl   *ast.FuncDecl
		lb, rb int
		ids    []int
	}
	var fns []*fn
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Body != nil {
			fns = append(fns, &fn{decl: fd, lb: off(fd.Body.Lbrace), rb: off(fd.Body.Rbrace)})
		}
	}
	for _, id := range ids {
		st := sc.Sites[id-1]
		if sc.BuildFailed[st.Name] != "" {
			continue
		}
		first, last := st.changes[0], st.changes[len(st.changes)-1]
		i := slices.IndexFunc(fns, func(g *fn) bool { return first.start > g.lb && last.end <= g.rb })
		if i < 0 {
			sc.Outside[st.Name] = true
			continue
		}
		fns[i].ids = append(fns[i].ids, id)
	}
	var out bytes.Buffer
	line := 1
	write := func(b []byte) {
		out.Write(b)
		line += bytes.Count(b, []byte{'\n'})
	}
	at := 0
	imported := false
	for _, g := range fns {
		if len(g.ids) == 0 {
			continue
		}
		if !imported {
			end := off(f.Name.End())
			write(src[:end])
			write([]byte("\n\nimport mutantschema " + strconv.Quote(sc.modPath+"/"+SchemaPackage) + "\n"))
			at, imported = end, true
		}
		write(src[at : g.lb+1])
		results := "" // the function literal's result list, as written
		if r := g.decl.Type.Results; r != nil {
			results = " " + string(src[off(r.Pos()):off(r.End())])
		}
		write([]byte("\nswitch mutantschema.Active() {\n"))
		for _, id := range g.ids {
			body := slices.Clone(src[g.lb+1 : g.rb])
			ch := sc.Sites[id-1].changes
			for j := len(ch) - 1; j >= 0; j-- {
				c := ch[j]
				body = slices.Concat(body[:c.start-g.lb-1], []byte(c.text), body[c.end-g.lb-1:])
			}
			from := line
			if results == "" {
				write(fmt.Appendf(nil, "case %d:\nfunc() {%s}()\nreturn\n", id, body))
			} else {
				write(fmt.Appendf(nil, "case %d:\nreturn func()%s {%s}()\n", id, results, body))
			}
			sc.copies[file] = append(sc.copies[file], lineRange{from, line, id})
		}
		write([]byte("}\n"))
		// The original body, with a hit before each statement holding a site.
		hits := map[int][]int{} // offset -> sites
		for _, id := range g.ids {
			p := siteStatement(g.decl.Body, off, sc.Sites[id-1].changes[0].start, src)
			hits[p] = append(hits[p], id)
		}
		pos := slices.Sorted(maps.Keys(hits))
		cur := g.lb + 1
		for _, p := range pos {
			write(src[cur:p])
			for _, id := range hits[p] {
				write(fmt.Appendf(nil, "mutantschema.Hit(%d); ", id))
			}
			cur = p
		}
		write(src[cur:g.rb])
		at = g.rb
	}
	if !imported {
		return nil
	}
	write(src[at:])
	sc.files[file] = out.Bytes()
	return nil
}

// siteStatement returns the offset of the innermost statement of a
// statement list in body that holds offset at (past any blanks): the
// place to record that the site was reached. A site in a condition or a
// case expression counts as reached with the statement that holds it.
func siteStatement(body *ast.BlockStmt, off func(token.Pos) int, at int, src []byte) int {
	for at < len(src) && (src[at] == ' ' || src[at] == '\t' || src[at] == '\n') {
		at++
	}
	best, span := off(body.Lbrace)+1, -1
	consider := func(list []ast.Stmt) {
		for _, s := range list {
			switch s.(type) {
			case *ast.CaseClause, *ast.CommClause: // a switch's arms, not statements
				continue
			}
			if p, e := off(s.Pos()), off(s.End()); p <= at && at < e && (span < 0 || e-p < span) {
				best, span = p, e-p
			}
		}
	}
	ast.Inspect(body, func(n ast.Node) bool {
		switch n := n.(type) {
		case *ast.BlockStmt:
			consider(n.List)
		case *ast.CaseClause:
			consider(n.Body)
		case *ast.CommClause:
			consider(n.Body)
		}
		return true
	})
	return best
}

// Build writes the overlay and builds the judge binary into dir, leaving
// out (into BuildFailed) every mutant whose copy does not compile, until
// the rest does. It returns the binary's path.
func (sc *Schemata) Build(ctx context.Context, dir string) (string, error) {
	bin := filepath.Join(dir, "schemajudge")
	errLine := regexp.MustCompile(`(?m)^(?:\S*/)?(\S+\.go):(\d+):(?:\d+:)? (.*)$`)
	for round := 0; ; round++ {
		ov, err := sc.writeOverlay(dir)
		if err != nil {
			return "", err
		}
		cmd := exec.CommandContext(ctx, "go", "build", "-overlay", ov, "-gcflags="+sc.modPath+"/reference/...=-e", "-o", bin, JudgePackage)
		cmd.Dir = sc.module
		out, err := cmd.CombinedOutput()
		if err == nil {
			return bin, nil
		}
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		found := false
		for _, m := range errLine.FindAllStringSubmatch(string(out), -1) {
			n, _ := strconv.Atoi(m[2])
			for file, rs := range sc.copies {
				if m[1] != strings.ReplaceAll(file, "/", "_") { // the overlay's file name

					continue
				}
				for _, r := range rs {
					if r.from <= n && n < r.to {
						name := sc.Sites[r.id-1].Name
						if sc.BuildFailed[name] == "" {
							sc.BuildFailed[name] = m[3]
							found = true
						}
					}
				}
			}
		}
		if !found || round > 20 {
			return "", fmt.Errorf("building the schemata: %s", bytes.TrimSpace(out))
		}
		if err := sc.generate(); err != nil {
			return "", err
		}
	}
}

func (sc *Schemata) writeOverlay(dir string) (string, error) {
	replace := map[string]string{}
	for file, data := range sc.files {
		tmp := filepath.Join(dir, strings.ReplaceAll(file, "/", "_"))
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return "", err
		}
		replace[filepath.Join(sc.module, filepath.FromSlash(file))] = tmp
	}
	data, err := json.Marshal(map[string]any{"Replace": replace})
	if err != nil {
		return "", err
	}
	ov := filepath.Join(dir, "overlay.json")
	return ov, os.WriteFile(ov, data, 0o644)
}
