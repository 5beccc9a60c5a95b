package cflite

import (
	"bufio"
	"bytes"
	"flag"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

var coverage = flag.Bool("cflite.coverage", false,
	"build each target package as the coverage build does: with -cover -covermode=atomic -coverpkg=MODULE/... (slow)")

// target is one native fuzz target of the module.
type target struct {
	// Dir is the package's folder relative to the module's root (slash
	// separated), Pkg its import path, Func the target's name, File the
	// file that declares it.
	Dir, Pkg, Func, File string
}

// root is the module's root folder and its module path.
func root(t *testing.T) (dir, module string) {
	t.Helper()
	dir, err := filepath.Abs(".")
	if err != nil {
		t.Fatal(err)
	}
	for {
		data, err := os.ReadFile(filepath.Join(dir, "go.mod"))
		if err == nil {
			for line := range strings.Lines(string(data)) {
				if m, ok := strings.CutPrefix(strings.TrimSpace(line), "module "); ok {
					return dir, strings.Trim(strings.TrimSpace(m), `"`)
				}
			}
			t.Fatalf("%s/go.mod names no module", dir)
		}
		if filepath.Dir(dir) == dir {
			t.Fatal("no go.mod above the test's folder")
		}
		dir = filepath.Dir(dir)
	}
}

// targets lists every func FuzzXxx(f *testing.F) in the module's
// *_test.go files, read with go/parser: the folders the go command builds
// (not testdata, not names starting with "." or "_", not nested modules).
func targets(t *testing.T) []target {
	t.Helper()
	dir, module := root(t)
	var out []target
	fset := token.NewFileSet()
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			name := d.Name()
			if p != dir && (name == "testdata" || name == "vendor" || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_")) {
				return filepath.SkipDir
			}
			if _, err := os.Stat(filepath.Join(p, "go.mod")); p != dir && err == nil {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(p, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, p, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, filepath.Dir(p))
		rel = filepath.ToSlash(rel)
		for _, fn := range fuzzFuncs(f) {
			pkg := module
			if rel != "." {
				pkg += "/" + rel
			}
			out = append(out, target{Dir: rel, Pkg: pkg, Func: fn, File: p})
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// fuzzFuncs are the names of the fuzz targets declared in f, by go test's
// rule: a function (no receiver) named Fuzz or FuzzXxx, Xxx not starting
// with a lower-case letter, whose one parameter is *testing.F.
func fuzzFuncs(f *ast.File) []string {
	testing := ""
	for _, imp := range f.Imports {
		if path, _ := strconv.Unquote(imp.Path.Value); path == "testing" {
			testing = "testing"
			if imp.Name != nil {
				testing = imp.Name.Name
			}
		}
	}
	var out []string
	for _, decl := range f.Decls {
		fn, ok := decl.(*ast.FuncDecl)
		if !ok || fn.Recv != nil || testing == "" {
			continue
		}
		rest, ok := strings.CutPrefix(fn.Name.Name, "Fuzz")
		if r, _ := utf8.DecodeRuneInString(rest); !ok || unicode.IsLower(r) {
			continue
		}
		params := fn.Type.Params.List
		if len(params) != 1 || len(params[0].Names) > 1 {
			continue
		}
		star, ok := params[0].Type.(*ast.StarExpr)
		if !ok {
			continue
		}
		sel, ok := star.X.(*ast.SelectorExpr)
		if !ok || sel.Sel.Name != "F" {
			continue
		}
		if x, ok := sel.X.(*ast.Ident); ok && x.Name == testing {
			out = append(out, fn.Name.Name)
		}
	}
	return out
}

// compileCommand is the OSS-Fuzz image's command build.sh builds each
// target with (see build.sh for why the _v2 one).
const compileCommand = "compile_native_go_fuzzer_v2"

// compileLine is one "compile_native_go_fuzzer_v2 PACKAGE FUNCTION NAME" of
// build.sh.
type compileLine struct {
	Line              int
	Pkg, Func, Fuzzer string
}

func buildScript(t *testing.T) []compileLine {
	t.Helper()
	dir, _ := root(t)
	data, err := os.ReadFile(filepath.Join(dir, ".clusterfuzzlite", "build.sh"))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.HasPrefix(data, []byte("#!/bin/bash -eu\n")) {
		t.Errorf("build.sh does not begin with #!/bin/bash -eu (a failing step must fail the build)")
	}
	var out []compileLine
	sc := bufio.NewScanner(bytes.NewReader(data))
	for n := 1; sc.Scan(); n++ {
		fields := strings.Fields(sc.Text())
		if len(fields) == 0 || !strings.HasPrefix(fields[0], "compile_") {
			continue
		}
		if fields[0] != compileCommand || len(fields) != 4 {
			t.Errorf("build.sh:%d: want %s PACKAGE FUNCTION NAME, got %q", n, compileCommand, sc.Text())
			continue
		}
		out = append(out, compileLine{Line: n, Pkg: fields[1], Func: fields[2], Fuzzer: fields[3]})
	}
	return out
}

// TestBuildScriptNamesEveryTarget: .clusterfuzzlite/build.sh compiles
// every native fuzz target of the module exactly once, under the name its
// package folder and function give it, and names no target that does not
// exist; so a new target cannot be forgotten.
func TestBuildScriptNamesEveryTarget(t *testing.T) {
	t.Parallel()
	found := targets(t)
	if len(found) < 10 {
		t.Fatalf("found %d fuzz targets in the module, want at least the 11 there were: %v", len(found), found)
	}
	lines := buildScript(t)
	byKey := map[[2]string]target{}
	for _, tg := range found {
		byKey[[2]string{tg.Pkg, tg.Func}] = tg
	}
	named := map[[2]string][]int{}
	fuzzers := map[string]int{}
	for _, l := range lines {
		key := [2]string{l.Pkg, l.Func}
		named[key] = append(named[key], l.Line)
		tg, ok := byKey[key]
		if !ok {
			t.Errorf("build.sh:%d compiles %s %s, which is no func %s(f *testing.F) of that package", l.Line, l.Pkg, l.Func, l.Func)
			continue
		}
		want := strings.ReplaceAll(tg.Dir, "/", "_") + "_" + tg.Func
		if l.Fuzzer != want {
			t.Errorf("build.sh:%d names the fuzzer %s, want %s (package folder, slashes as _, and function)", l.Line, l.Fuzzer, want)
		}
		if prev, dup := fuzzers[l.Fuzzer]; dup {
			t.Errorf("build.sh:%d and %d both build a fuzzer named %s", prev, l.Line, l.Fuzzer)
		}
		fuzzers[l.Fuzzer] = l.Line
	}
	for _, tg := range found {
		switch at := named[[2]string{tg.Pkg, tg.Func}]; len(at) {
		case 1:
		case 0:
			t.Errorf("build.sh does not compile %s.%s (%s): add\n  %s %s %s %s",
				tg.Dir, tg.Func, tg.File, compileCommand, tg.Pkg, tg.Func, strings.ReplaceAll(tg.Dir, "/", "_")+"_"+tg.Func)
		default:
			t.Errorf("build.sh compiles %s %s on lines %v, want once", tg.Pkg, tg.Func, at)
		}
	}
}

// TestScriptFindsEachTarget: compile_native_go_fuzzer_v2 (and the older
// compile_native_go_fuzzer) finds a target's file with grep -r -l NAME
// over the package's folder (subfolders included), then wants exactly one
// line there holding both "func NAME" and "testing.F" (the older one then
// rewrites the signature func NAME(x *testing.F)); when it finds none or
// two, it prints a message and builds nothing, and the build still
// succeeds. So: exactly one file
// below the folder holds the name, and in it exactly one such line, of
// that form. (A target whose name begins another's, as FuzzDecode did
// FuzzDecodeRequest's, has two.)
func TestScriptFindsEachTarget(t *testing.T) {
	t.Parallel()
	dir, _ := root(t)
	for _, tg := range targets(t) {
		var holders []string
		err := filepath.WalkDir(filepath.Join(dir, filepath.FromSlash(tg.Dir)), func(p string, d fs.DirEntry, err error) error {
			if err != nil || !d.Type().IsRegular() {
				return err
			}
			data, err := os.ReadFile(p)
			if err == nil && bytes.Contains(data, []byte(tg.Func)) {
				holders = append(holders, p)
			}
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		if len(holders) != 1 || holders[0] != tg.File {
			t.Errorf("%s %s: files below %s holding the name: %v; want %s alone", tg.Dir, tg.Func, tg.Dir, holders, tg.File)
			continue
		}
		data, err := os.ReadFile(tg.File)
		if err != nil {
			t.Fatal(err)
		}
		signature := regexp.MustCompile(`func ` + tg.Func + `\([a-zA-Z0-9]* \*testing\.F\)`)
		var lines []string
		for line := range strings.Lines(string(data)) {
			if strings.Contains(line, "func "+tg.Func) && strings.Contains(line, "testing.F") {
				lines = append(lines, strings.TrimSpace(line))
			}
		}
		if len(lines) != 1 || !signature.MatchString(lines[0]) {
			t.Errorf("%s %s: lines with \"func %s\" and \"testing.F\": %q; want one, func %s(f *testing.F)", tg.Dir, tg.Func, tg.Func, lines, tg.Func)
		}
	}
}

// TestClusterFuzzLiteFiles: the image is the Go builder with the sources
// and build.sh where compile looks for them, and the project is a Go one.
func TestClusterFuzzLiteFiles(t *testing.T) {
	t.Parallel()
	dir, _ := root(t)
	for file, wants := range map[string][]string{
		"Dockerfile": {
			"FROM gcr.io/oss-fuzz-base/base-builder-go\n",
			"COPY . $SRC/blockpatch-conformance\n",
			"WORKDIR $SRC/blockpatch-conformance\n",
			"COPY .clusterfuzzlite/build.sh $SRC/\n",
		},
		"project.yaml": {"\nlanguage: go\n"},
	} {
		data, err := os.ReadFile(filepath.Join(dir, ".clusterfuzzlite", file))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range wants {
			if !strings.Contains(string(data), want) {
				t.Errorf(".clusterfuzzlite/%s does not hold %q", file, want)
			}
		}
	}
}

// TestTargetPackagesBuild builds the test binary of each package with
// targets as compile_native_go_fuzzer_v2's coverage build does (go test -c
// -tags gofuzz; with -cflite.coverage also -cover -covermode=atomic
// -coverpkg=MODULE/...): the package with all its test files, as its
// libFuzzer build (go-118-fuzz-build_v2 and clang, in the OSS-Fuzz image,
// not tried here) compiles it too.
func TestTargetPackagesBuild(t *testing.T) {
	t.Parallel()
	dir, module := root(t)
	var pkgs []string
	for _, tg := range targets(t) {
		pkgs = append(pkgs, tg.Pkg)
	}
	slices.Sort(pkgs)
	out := t.TempDir()
	for _, pkg := range slices.Compact(pkgs) {
		t.Run(strings.TrimPrefix(pkg, module+"/"), func(t *testing.T) {
			t.Parallel()
			args := []string{"test", "-c", "-tags", "gofuzz", "-o", filepath.Join(out, strings.ReplaceAll(pkg, "/", "_")+".test")}
			if *coverage {
				args = append(args, "-cover", "-covermode=atomic", "-coverpkg="+module+"/...")
			}
			cmd := exec.Command("go", append(args, pkg)...)
			cmd.Dir = dir
			if b, err := cmd.CombinedOutput(); err != nil {
				t.Errorf("go %s: %v\n%s", strings.Join(append(args, pkg), " "), err, b)
			}
		})
	}
}
