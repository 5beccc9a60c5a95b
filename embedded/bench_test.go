package embedded

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// BenchmarkCorpus certifies the reference over the embedded corpus and, when
// present, upstream's ten cases: in process, through the built reference CLI
// (go build ./cmd/blockpatch), and through this binary re-executed as the
// reference. It reports the time per case, with all CPUs and serially
// (upstream's runner is serial and takes about 300 ms per case).
//
//	go test ./embedded -run '^$' -bench Corpus -benchtime 3x
func BenchmarkCorpus(b *testing.B) {
	built := filepath.Join(b.TempDir(), "blockpatch")
	build := exec.Command("go", "build", "-o", built, "github.com/blockpatch-conformance/blockpatch-conformance/cmd/blockpatch")
	if out, err := build.CombinedOutput(); err != nil {
		b.Fatalf("go build: %v\n%s", err, out)
	}
	cli, err := runner.NewCommand([]string{built})
	if err != nil {
		b.Fatal(err)
	}
	reexec, err := Process()
	if err != nil {
		b.Fatal(err)
	}
	sources := map[string][]blockpatch.Source{"corpus": {blockpatch.Corpus()}}
	if _, err := os.Stat(upstream); err == nil {
		sources["upstream"] = []blockpatch.Source{blockpatch.Dir(upstream)}
	}
	impls := []struct {
		name string
		impl runner.Implementation
	}{{"in-process", Reference()}, {"built-cli", cli}, {"reexec", reexec}}
	for sname, src := range sources {
		for _, im := range impls {
			for _, parallel := range []int{0, 1} {
				name := sname + "/" + im.name + "/parallel"
				if parallel == 1 {
					name = sname + "/" + im.name + "/serial"
				}
				b.Run(name, func(b *testing.B) {
					r := blockpatch.New(im.impl)
					r.Sources = src
					r.TempDir = b.TempDir()
					r.Timeout = 30 * time.Second
					if parallel > 0 {
						r.Parallel = parallel
					}
					n := 0
					for b.Loop() {
						rep, err := r.Run(context.Background())
						if err != nil {
							b.Fatal(err)
						}
						n = len(rep.Results)
					}
					b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(b.N*n), "ms/case")
					b.ReportMetric(float64(n), "cases")
				})
			}
		}
	}
}
