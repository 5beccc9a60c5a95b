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
// twin (search.go: search_test.go), or every test of its package when the
// file has no twin, and then the tests of the suite's OpinionPackages, in
// test binaries of the schemata with the mutant active, at most parallel
// at once; the first binary that fails is the opinion.
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
	bins := map[string]string{} // package dir -> test binary
	buildTests := func(pkg string) error {
		if bins[pkg] != "" {
			return nil
		}
		bin := filepath.Join(dir, strings.ReplaceAll(pkg, "/", "_")+".test")
		cmd := exec.CommandContext(ctx, "go", "test", "-c", "-vet=off", "-overlay", ov, "-o", bin, "./"+pkg)
		cmd.Dir = module
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("building the tests of %s: %v: %s", pkg, err, out)
		}
		bins[pkg] = bin
		return nil
	}
	runs := map[string][]testRun{} // file -> the test runs judging its mutants
	for _, n := range names {
		file, _, _ := strings.Cut(n, ":")
		if _, ok := runs[file]; ok {
			continue
		}
		runs[file] = opinionRuns(module, s, file)
		for _, r := range runs[file] {
			if err := buildTests(r.pkg); err != nil {
				return nil, err
			}
		}
	}
	var (
		mu  sync.Mutex
		out []Opinion
		wg  sync.WaitGroup
	)
	jobs := make(chan string)
	for range max(parallel, 1) {
		wg.Go(func() {
			for n := range jobs {
				file, _, _ := strings.Cut(n, ":")
				id := sc.ID[n]
				if id == 0 || sc.BuildFailed[n] != "" || sc.Outside[n] {
					continue
				}
				op := Opinion{Name: n}
				for _, r := range runs[file] {
					if op.Failed, op.Test = runTests(ctx, module, dir, bins[r.pkg], r.pkg, r.pattern, id); op.Test != "" {
						break
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

// testRun is one run of a package's test binary; pattern "" runs every
// test.
type testRun struct{ pkg, pattern string }

// opinionRuns are the test runs that judge a mutant of file (a slash path
// under module), in order: the tests of its _test.go twin, or every test
// of its package when it has none, then the suite's OpinionPackages.
func opinionRuns(module string, s Suite, file string) []testRun {
	r := testRun{pkg: path.Dir(file)}
	twin := filepath.Join(module, filepath.FromSlash(strings.TrimSuffix(file, ".go")+"_test.go"))
	if names, err := testNames(twin); err == nil && len(names) > 0 {
		r.pattern = "^(" + strings.Join(names, "|") + ")$"
	}
	runs := []testRun{r}
	for _, p := range s.OpinionPackages {
		runs = append(runs, testRun{pkg: p})
	}
	return runs
}

// runTests runs the test binary of pkg (the tests pattern matches, or all)
// with mutant id active, and returns the first test that failed and a
// command that shows it ("" when every test passed).
func runTests(ctx context.Context, module, dir, bin, pkg, pattern string, id int) (failed, test string) {
	ctx, cancel := context.WithTimeout(ctx, 2*time.Minute)
	defer cancel()
	args := []string{"-test.short", "-test.count=1", "-test.timeout=100s"}
	if pattern != "" {
		args = append(args, "-test.run", pattern)
	}
	cmd := exec.CommandContext(ctx, bin, args...)
	cmd.Dir = filepath.Join(module, filepath.FromSlash(pkg))
	cmd.Env = append(os.Environ(), schema.MutantEnv+"="+strconv.Itoa(id), "TMPDIR="+dir)
	res, err := cmd.CombinedOutput()
	if err == nil {
		return "", ""
	}
	failed = "(the test binary failed)"
	if m := failRe.FindSubmatch(res); m != nil {
		failed = string(m[1])
	}
	if !strings.HasPrefix(failed, "Test") && !strings.HasPrefix(failed, "Fuzz") {
		if pattern == "" {
			return failed, fmt.Sprintf("go test ./%s", pkg)
		}
		return failed, fmt.Sprintf("go test ./%s -run '%s'", pkg, pattern)
	}
	return failed, fmt.Sprintf("go test ./%s -run '^%s$'", pkg, strings.SplitN(failed, "/", 2)[0])
}

var failRe = regexp.MustCompile(`(?m)^--- FAIL: (\S+)`)

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
	fmt.Fprintf(&b, "# What the reference's own tests (each file's _test.go twin or its whole package, then the suite's other test packages; -short) make of the unreviewed survivors,\n# run on each mutant through the schemata; suggestions for mechanical-verdicts.txt, to review.\n")
	for _, op := range ops {
		if op.Test != "" {
			fmt.Fprintf(&b, "%s\tkilled by %s (%s)\n", op.Name, op.Test, op.Failed)
		} else {
			fmt.Fprintf(&b, "%s\tno test of its file kills it\n", op.Name)
		}
	}
	return os.WriteFile(file, b.Bytes(), 0o644)
}
