package mutants

import (
	"bytes"
	"context"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants/schema"
)

// Opinion is what the reference's own tests make of a surviving mutant:
// the verdict "beyond cases" needs a test that kills it, and a survivor
// no test kills either is worth a case first.
type Opinion struct {
	Name string
	// Test is the command that killed the mutant ("" when none did), and
	// Failed the first test that failed.
	Test, Failed string
}

// Opinions runs, for each named survivor, the tests of its file's _test.go
// twin (search.go: search_test.go) in a test binary of the schemata with
// the mutant active, at most parallel at once. Survivors in files without
// a twin are left out.
func Opinions(ctx context.Context, module string, s Suite, dir string, names []string, parallel int) ([]Opinion, error) {
	sites, err := generateSites(module, s)
	if err != nil {
		return nil, err
	}
	sc, err := newSchemata(module, sites)
	if err != nil {
		return nil, err
	}
	if _, err := sc.Build(ctx, dir); err != nil { // settles BuildFailed and the overlay
		return nil, err
	}
	ov := filepath.Join(dir, "overlay.json")
	bins := map[string]string{}  // package dir -> test binary
	tests := map[string]string{} // file -> -test.run pattern
	for _, n := range names {
		file, _, _ := strings.Cut(n, ":")
		if _, ok := tests[file]; ok {
			continue
		}
		twin := filepath.Join(module, filepath.FromSlash(strings.TrimSuffix(file, ".go")+"_test.go"))
		names, err := testNames(twin)
		if err != nil || len(names) == 0 {
			tests[file] = ""
			continue
		}
		tests[file] = "^(" + strings.Join(names, "|") + ")$"
		pkg := path.Dir(file)
		if bins[pkg] == "" {
			bin := filepath.Join(dir, strings.ReplaceAll(pkg, "/", "_")+".test")
			cmd := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-overlay", ov, "-o", bin, "./"+pkg)
			cmd.Dir = module
			if out, err := cmd.CombinedOutput(); err != nil {
				return nil, fmt.Errorf("building the tests of %s: %v: %s", pkg, err, out)
			}
			bins[pkg] = bin
		}
	}
	var (
		mu  sync.Mutex
		out []Opinion
		wg  sync.WaitGroup
	)
	jobs := make(chan string)
	failRe := regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)
	for range max(parallel, 1) {
		wg.Go(func() {
			for n := range jobs {
				file, _, _ := strings.Cut(n, ":")
				id := sc.ID[n]
				if tests[file] == "" || id == 0 || sc.BuildFailed[n] != "" || sc.Outside[n] {
					continue
				}
				pkg := path.Dir(file)
				tctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
				cmd := exec.CommandContext(tctx, bins[pkg], "-test.run", tests[file], "-test.short", "-test.count=1", "-test.timeout=100s")
				cmd.Dir = filepath.Join(module, filepath.FromSlash(pkg))
				cmd.Env = append(os.Environ(), schema.MutantEnv+"="+strconv.Itoa(id), "TMPDIR="+dir)
				res, err := cmd.CombinedOutput()
				cancel()
				op := Opinion{Name: n}
				if err != nil {
					op.Failed = "(the test binary failed)"
					if m := failRe.FindSubmatch(res); m != nil {
						op.Failed = string(m[1])
					}
					op.Test = fmt.Sprintf("go test ./%s -run '^%s$'", pkg, strings.SplitN(op.Failed, "/", 2)[0])
					if !strings.HasPrefix(op.Failed, "Test") {
						op.Test = fmt.Sprintf("go test ./%s -run '%s'", pkg, tests[file])
					}
				}
				mu.Lock()
				out = append(out, op)
				mu.Unlock()
			}
		})
	}
	for _, n := range names {
		jobs <- n
	}
	close(jobs)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	slices.SortFunc(out, func(a, b Opinion) int { return strings.Compare(a.Name, b.Name) })
	return out, nil
}

// testNames lists the Test functions of a _test.go file.
func testNames(file string) ([]string, error) {
	src, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	f, err := parser.ParseFile(token.NewFileSet(), file, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var out []string
	for _, d := range f.Decls {
		if fd, ok := d.(*ast.FuncDecl); ok && fd.Recv == nil && strings.HasPrefix(fd.Name.Name, "Test") && fd.Name.Name != "TestMain" {
			out = append(out, fd.Name.Name)
		}
	}
	return out, nil
}

// writeOpinions writes opinions as verdict suggestions, for review.
func writeOpinions(file string, ops []Opinion) error {
	var b bytes.Buffer
	fmt.Fprintf(&b, "# What the reference's own tests (each file's _test.go twin, -short) make of the unreviewed survivors,\n# run on each mutant through the schemata; suggestions for mechanical-verdicts.txt, to review.\n")
	for _, op := range ops {
		if op.Test != "" {
			fmt.Fprintf(&b, "%s\tkilled by %s (%s)\n", op.Name, op.Test, op.Failed)
		} else {
			fmt.Fprintf(&b, "%s\tno test of its file kills it\n", op.Name)
		}
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
