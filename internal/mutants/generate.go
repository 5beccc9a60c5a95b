package mutants

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
)

// Operators are the mechanical mutation operators, by the name used in
// mechanical mutant IDs.
var Operators = map[string]string{
	"boundary":    "a comparison's boundary moves: < and <=, > and >= swap",
	"negate":      "an equality test is negated: == and != swap",
	"and-or":      "&& and || swap",
	"arith":       "+ and - swap",
	"literal":     "an integer literal is one more or one less",
	"bool":        "true and false swap",
	"negate-if":   "an if condition is negated",
	"remove-stmt": "a statement is removed (calls, assignments, increments, break and continue, returns inside an if)",
	"remove-if":   "an if statement without else is removed",
	"swap-code":   "an error code constant is replaced by the next one in the spec's list",
}

// Generate returns the mechanical mutants of the non-test Go files in
// s.Dirs, relative to the module root. Each changes one place in one file;
// its Name is FILE:LINE:OPERATOR:INDEX, INDEX counting the mutants of that
// operator on that line from 0, so names are stable while the file is.
// swap-code uses the constants s.Codes names, in their order.
func Generate(module string, s Suite) ([]Mutant, error) {
	sites, err := generateSites(module, s)
	if err != nil {
		return nil, err
	}
	out := make([]Mutant, len(sites))
	for i, st := range sites {
		out[i] = st.Mutant
	}
	return out, nil
}

// site is a mechanical mutant with the edits that make it: offsets into
// the source of File, applied from the last. The schemata (schemata.go)
// splice them into a copy of the enclosing function.
type site struct {
	Mutant
	File    string
	changes []edit
	// unused names an import the mutant leaves unused: such a mutant does
	// not compile on its own, while in the schemata the original still
	// uses the import.
	unused string
	// Func names the function holding the site ("" for none), as
	// Type.Method for a method: the report groups survivors by it.
	Func string
}

func generateSites(module string, s Suite) ([]site, error) {
	codes, err := codeNames(filepath.Join(module, filepath.FromSlash(s.Codes.File)), s.Codes.Type)
	if err != nil {
		return nil, err
	}
	var out []site
	for _, dir := range s.Dirs {
		entries, err := os.ReadDir(filepath.Join(module, filepath.FromSlash(dir)))
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			rel := path.Join(dir, e.Name())
			src, err := os.ReadFile(filepath.Join(module, filepath.FromSlash(rel)))
			if err != nil {
				return nil, err
			}
			ms, err := generateFile(rel, src, codes, s.Codes.Qualifier)
			if err != nil {
				return nil, err
			}
			out = append(out, ms...)
		}
	}
	return out, nil
}

// edit replaces src[start:end] with text.
type edit struct {
	op         string
	start, end int
	text       string
}

func generateFile(rel string, src []byte, codes []string, qualifier string) ([]site, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, rel, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	off := func(p token.Pos) int { return fset.Position(p).Offset }
	var edits []edit
	add := func(op string, start, end token.Pos, text string) {
		edits = append(edits, edit{op, off(start), off(end), text})
	}
	codeNext := map[string]string{}
	for i, c := range codes {
		codeNext[c] = codes[(i+1)%len(codes)]
	}
	defined := map[*ast.Ident]bool{} // names being declared are not uses
	removable := func(s ast.Stmt, inIf bool) bool {
		switch s := s.(type) {
		case *ast.ExprStmt, *ast.IncDecStmt:
			return true
		case *ast.AssignStmt:
			return s.Tok != token.DEFINE
		case *ast.BranchStmt:
			return s.Tok == token.BREAK || s.Tok == token.CONTINUE
		case *ast.ReturnStmt:
			return inIf
		}
		return false
	}
	var visit func(n ast.Node, inIf bool)
	visit = func(n ast.Node, inIf bool) {
		ast.Inspect(n, func(n ast.Node) bool {
			switch n := n.(type) {
			case *ast.GenDecl:
				if n.Tok == token.IMPORT {
					return false
				}
			case *ast.ValueSpec:
				for _, id := range n.Names {
					defined[id] = true
					if id.Name == "Codes" { // the list itself
						return false
					}
				}
			case *ast.BlockStmt:
				for _, s := range n.List {
					if removable(s, inIf) {
						add("remove-stmt", s.Pos(), s.End(), "")
					}
					if is, ok := s.(*ast.IfStmt); ok && is.Else == nil && !defines(is.Init) {
						add("remove-if", s.Pos(), s.End(), "")
					}
				}
			case *ast.IfStmt:
				if n.Init != nil {
					visit(n.Init, inIf)
				}
				add("negate-if", n.Cond.Pos(), n.Cond.Pos(), "!(")
				edits[len(edits)-1].end = off(n.Cond.Pos())
				edits = append(edits, edit{"negate-if-close", off(n.Cond.End()), off(n.Cond.End()), ")"})
				visit(n.Cond, inIf)
				visit(n.Body, true)
				if n.Else != nil {
					visit(n.Else, inIf)
				}
				return false
			case *ast.FuncLit:
				visit(n.Body, false)
				return false
			case *ast.BinaryExpr:
				swap := map[token.Token]struct{ op, to string }{
					token.LSS: {"boundary", "<="}, token.LEQ: {"boundary", "<"},
					token.GTR: {"boundary", ">="}, token.GEQ: {"boundary", ">"},
					token.EQL: {"negate", "!="}, token.NEQ: {"negate", "=="},
					token.LAND: {"and-or", "||"}, token.LOR: {"and-or", "&&"},
					token.ADD: {"arith", "-"}, token.SUB: {"arith", "+"},
				}
				if s, ok := swap[n.Op]; ok && !(n.Op == token.ADD && (isString(n.X) || isString(n.Y))) {
					add(s.op, n.OpPos, n.OpPos+token.Pos(len(n.Op.String())), s.to)
				}
			case *ast.BasicLit:
				if n.Kind != token.INT {
					return true
				}
				v, err := strconv.ParseInt(strings.ReplaceAll(n.Value, "_", ""), 0, 64)
				if err != nil {
					return true
				}
				add("literal", n.Pos(), n.End(), formatLike(n.Value, v+1))
				if v > 0 {
					add("literal", n.Pos(), n.End(), formatLike(n.Value, v-1))
				}
			case *ast.Ident:
				switch {
				case defined[n]:
				case n.Name == "true":
					add("bool", n.Pos(), n.End(), "false")
				case n.Name == "false":
					add("bool", n.Pos(), n.End(), "true")
				case codeNext[n.Name] != "":
					add("swap-code", n.Pos(), n.End(), codeNext[n.Name])
				}
			case *ast.SelectorExpr:
				if x, ok := n.X.(*ast.Ident); ok && x.Name == qualifier && codeNext[n.Sel.Name] != "" {
					add("swap-code", n.Sel.Pos(), n.Sel.End(), codeNext[n.Sel.Name])
					return false
				}
			}
			return true
		})
	}
	visit(f, false)

	var out []site
	seen := map[string]int{}
	for i := 0; i < len(edits); i++ {
		e := edits[i]
		if e.op == "negate-if-close" {
			continue
		}
		mutated := slices.Clone(src)
		change := []edit{e}
		if e.op == "negate-if" {
			change = append(change, edits[i+1])
		}
		if e.op == "remove-stmt" || e.op == "remove-if" {
			change[0] = wholeLines(src, e)
		}
		for j := len(change) - 1; j >= 0; j-- { // from the end, so offsets stay valid
			c := change[j]
			mutated = slices.Concat(mutated[:c.start], []byte(c.text), mutated[c.end:])
		}
		line := fset.Position(fset.File(f.Pos()).Pos(e.start)).Line
		key := fmt.Sprintf("%s:%d:%s", rel, line, e.op)
		name := fmt.Sprintf("%s:%d", key, seen[key])
		seen[key]++
		m := Mutant{Name: name, Mistake: describe(src, mutated, e), Diff: MakeDiff(rel, src, mutated, 2)}
		st := site{Mutant: m, File: rel, changes: change, Func: funcAt(f, e.start, off)}
		if e.op == "remove-stmt" || e.op == "remove-if" {
			st.unused = unusedImport(mutated)
		}
		out = append(out, st)
	}
	return out, nil
}

// funcAt names the function declaration holding offset at.
func funcAt(f *ast.File, at int, off func(token.Pos) int) string {
	for _, d := range f.Decls {
		fd, ok := d.(*ast.FuncDecl)
		if !ok || at < off(fd.Pos()) || at >= off(fd.End()) {
			continue
		}
		if fd.Recv != nil && len(fd.Recv.List) == 1 {
			t := fd.Recv.List[0].Type
			if st, ok := t.(*ast.StarExpr); ok {
				t = st.X
			}
			if ix, ok := t.(*ast.IndexExpr); ok {
				t = ix.X
			}
			if id, ok := t.(*ast.Ident); ok {
				return id.Name + "." + fd.Name.Name
			}
		}
		return fd.Name.Name
	}
	return ""
}

// unusedImport returns the path of an import that src does not use, or "".
func unusedImport(src []byte) string {
	f, err := parser.ParseFile(token.NewFileSet(), "", src, parser.SkipObjectResolution)
	if err != nil {
		return ""
	}
	used := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		if sel, ok := n.(*ast.SelectorExpr); ok {
			if id, ok := sel.X.(*ast.Ident); ok {
				used[id.Name] = true
			}
		}
		return true
	})
	for _, im := range f.Imports {
		p, _ := strconv.Unquote(im.Path.Value)
		name := path.Base(p)
		if len(name) > 1 && name[0] == 'v' && strings.Trim(name[1:], "0123456789") == "" {
			name = path.Base(path.Dir(p)) // math/rand/v2
		}
		if im.Name != nil {
			name = im.Name.Name
		}
		if name != "_" && name != "." && !used[name] {
			return p
		}
	}
	return ""
}

// codeNames returns the names of the constants of type typ in file.
func codeNames(file, typ string) ([]string, error) {
	f, err := parser.ParseFile(token.NewFileSet(), file, nil, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		if g, ok := d.(*ast.GenDecl); ok && g.Tok == token.CONST {
			for _, s := range g.Specs {
				vs := s.(*ast.ValueSpec)
				if t, ok := vs.Type.(*ast.Ident); ok && t.Name == typ {
					for _, id := range vs.Names {
						out = append(out, id.Name)
					}
				}
			}
		}
	}
	if len(out) < 2 {
		return nil, fmt.Errorf("%s: no error code constants", file)
	}
	return out, nil
}

func defines(s ast.Stmt) bool {
	a, ok := s.(*ast.AssignStmt)
	return ok && a.Tok == token.DEFINE
}

func isString(e ast.Expr) bool {
	switch e := e.(type) {
	case *ast.BasicLit:
		return e.Kind == token.STRING || e.Kind == token.CHAR
	case *ast.BinaryExpr:
		return isString(e.X) || isString(e.Y)
	case *ast.CallExpr:
		if id, ok := e.Fun.(*ast.Ident); ok && id.Name == "string" {
			return true
		}
		if sel, ok := e.Fun.(*ast.SelectorExpr); ok {
			switch sel.Sel.Name {
			case "Quote", "Itoa", "Join", "Sprintf", "Sprint", "EncodeToString", "TrimPrefix", "TrimSuffix", "FormatInt", "Error":
				return true
			}
		}
	case *ast.ParenExpr:
		return isString(e.X)
	}
	return false
}

func formatLike(lit string, v int64) string {
	switch {
	case strings.HasPrefix(lit, "0x"), strings.HasPrefix(lit, "0X"):
		return fmt.Sprintf("0x%x", v)
	case strings.HasPrefix(lit, "0o"), strings.HasPrefix(lit, "0O"):
		return fmt.Sprintf("0o%o", v)
	case strings.HasPrefix(lit, "0b"):
		return fmt.Sprintf("0b%b", v)
	case len(lit) > 1 && lit[0] == '0':
		return fmt.Sprintf("0%o", v)
	}
	return strconv.FormatInt(v, 10)
}

// wholeLines widens a removal to the whole lines it covers when nothing
// else is on them but blanks and a trailing comment.
func wholeLines(src []byte, e edit) edit {
	ls := e.start
	for ls > 0 && (src[ls-1] == ' ' || src[ls-1] == '\t') {
		ls--
	}
	if ls > 0 && src[ls-1] != '\n' {
		return e
	}
	le := e.end
	for le < len(src) && src[le] != '\n' {
		le++
	}
	rest := strings.TrimSpace(string(src[e.end:le]))
	if rest != "" && !strings.HasPrefix(rest, "//") {
		return e
	}
	return edit{e.op, ls, min(le+1, len(src)), ""}
}

// describe says what a mutant changes: the line before and after, or the
// statement removed.
func describe(src, mutated []byte, e edit) string {
	if e.op == "remove-stmt" || e.op == "remove-if" {
		text := strings.Join(strings.Fields(string(src[e.start:e.end])), " ")
		if len(text) > 80 {
			text = text[:77] + "..."
		}
		return "removed `" + text + "`"
	}
	lineOf := func(b []byte, at int) string {
		s := at
		for s > 0 && b[s-1] != '\n' {
			s--
		}
		end := at
		for end < len(b) && b[end] != '\n' {
			end++
		}
		return strings.TrimSpace(string(b[s:end]))
	}
	return "`" + lineOf(src, e.start) + "` → `" + lineOf(mutated, e.start) + "`"
}

// Sample keeps about one mutant in n, chosen by a hash of its name, so the
// same mutants are kept whatever else is generated.
func Sample(ms []Mutant, n int) []Mutant {
	if n <= 1 {
		return ms
	}
	var out []Mutant
	for _, m := range ms {
		if nameHash(m.Name)%uint32(n) == 0 {
			out = append(out, m)
		}
	}
	return out
}

func nameHash(name string) uint32 {
	h := fnv.New32a()
	h.Write([]byte(name))
	return h.Sum32()
}
