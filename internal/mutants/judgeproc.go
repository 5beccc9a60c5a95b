package mutants

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"runtime/debug"
	"slices"
	"sync"
	"syscall"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/cases"
	"github.com/blockpatch-conformance/blockpatch-conformance/internal/mutants/schema"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner/blockpatch"
)

// The schemata judge is one process per mutant (a sandbox of its own, with
// a memory limit and its parent's timeout) that runs the cases in process
// against the switched reference: a mutant that loops, panics or eats
// memory fails only itself. Its two modes:
//
//	cover  run every case with no mutant active, recording the sites each
//	       reaches; one JSON line per case (CoverLine)
//	judge  read a JudgeRequest on stdin, make its mutant active and run
//	       its batches of cases in turn, stopping at the first failing
//	       case; JSON lines: a JudgeLine per batch started, then the result
//
// Each case still runs in a fresh temp tree of its own, as the runner
// always does.

// NewSchemaImpl returns the switched reference run in process; covering
// names the file a reference started as a separate process appends the
// sites it reached to ("" when not covering). The judge's main supplies it,
// since only it links the reference.
type NewSchemaImpl func(mutant int, hitsFile string) runner.Implementation

// CoverLine is the judge's report on one case in cover mode.
type CoverLine struct {
	Case    string  `json:"case"`
	Sites   []int   `json:"sites"`
	Verdict string  `json:"verdict"`
	Seconds float64 `json:"seconds"`
}

// JudgeRequest asks the judge for one mutant's verdict.
type JudgeRequest struct {
	Mutant  int        `json:"mutant"`
	Batches [][]string `json:"batches"`
}

// JudgeLine is a line of the judge's output in judge mode: a batch
// started, or (Done) the verdict.
type JudgeLine struct {
	Batch   int    `json:"batch,omitempty"`
	Done    bool   `json:"done,omitempty"`
	Killer  string `json:"killer,omitempty"`
	Verdict string `json:"verdict,omitempty"`
	Reason  string `json:"reason,omitempty"`
	Error   string `json:"error,omitempty"`
}

// MemoryLimit bounds the address space of a judge process, as the
// certifier bounds a command's.
const MemoryLimit = 4 << 30

// JudgeMain is the main of the schemata judge: args are its mode and
// nothing else. It returns the exit status.
func JudgeMain(args []string, newImpl NewSchemaImpl, stdin io.Reader, stdout io.Writer) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "schemajudge:", err)
		return 2
	}
	if len(args) != 1 {
		return fail(errors.New("usage: schemajudge cover|judge"))
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()
	enc := json.NewEncoder(out)
	switch args[0] {
	case "cover":
		if err := cover(newImpl, enc, out); err != nil {
			return fail(err)
		}
	case "judge":
		syscall.Setrlimit(syscall.RLIMIT_AS, &syscall.Rlimit{Cur: MemoryLimit, Max: MemoryLimit})
		debug.SetMemoryLimit(MemoryLimit / 2)
		var req JudgeRequest
		if err := json.NewDecoder(stdin).Decode(&req); err != nil {
			return fail(err)
		}
		schema.SetActive(req.Mutant)
		impl := newImpl(req.Mutant, "")
		for i, batch := range req.Batches {
			enc.Encode(JudgeLine{Batch: i + 1})
			out.Flush()
			first, err := runBatch(impl, batch, nil)
			if err != nil {
				enc.Encode(JudgeLine{Done: true, Error: err.Error()})
				return 0
			}
			if first != nil {
				enc.Encode(JudgeLine{Done: true, Killer: first.Name, Verdict: string(first.Verdict), Reason: first.Reason})
				return 0
			}
		}
		enc.Encode(JudgeLine{Done: true})
	default:
		return fail(fmt.Errorf("unknown mode %q", args[0]))
	}
	return 0
}

// runBatch runs the named cases, one at a time, and returns the first
// that failed (nil when all passed). each, when set, sees every result.
func runBatch(impl runner.Implementation, names []string, each func(*runner.Result)) (*runner.Result, error) {
	if len(names) == 0 {
		return nil, nil
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	r := newBlockpatchRunner()
	r.Impl = impl
	r.Require = slices.Clone(cases.Levels)
	r.RunRegexp = runner.Select(names)
	if each == nil { // judging: load only the cases it runs
		src := r.Sources[0]
		src.FS = onlyCases(src.FS, names)
		r.Sources = []blockpatch.Source{src}
	}
	var (
		mu    sync.Mutex
		first *runner.Result
	)
	r.Progress = func(p runner.Progress) {
		if each != nil {
			each(p.Last)
		}
		if p.Last.Verdict.Failed() && each == nil {
			mu.Lock()
			if first == nil {
				first = p.Last
			}
			mu.Unlock()
			cancel()
		}
	}
	_, err := r.Run(ctx)
	mu.Lock()
	defer mu.Unlock()
	if first != nil {
		return first, nil
	}
	return nil, err
}

// onlyCases shows of fsys the case folders named and the folders above
// them: loading a few cases then costs little, where the whole corpus
// costs half a second.
func onlyCases(fsys fs.FS, names []string) fs.FS {
	keep := map[string]bool{}
	for _, n := range names {
		for p := n; p != "." && p != "/" && !keep[p]; p = path.Dir(p) {
			keep[p] = true
		}
	}
	return filterFS{fsys, keep}
}

type filterFS struct {
	fs.FS
	keep map[string]bool
}

// ReadDir lists the files of name and the folders kept; inside a kept
// case folder, everything.
func (f filterFS) ReadDir(name string) ([]fs.DirEntry, error) {
	es, err := fs.ReadDir(f.FS, name)
	if err != nil {
		return nil, err
	}
	return slices.DeleteFunc(es, func(e fs.DirEntry) bool {
		if !e.IsDir() {
			return false
		}
		for p := name; p != "."; p = path.Dir(p) {
			if f.keep[p] && !f.keep[path.Join(name, e.Name())] && isCaseDir(f.FS, p) {
				return false
			}
		}
		return !f.keep[path.Join(name, e.Name())]
	}), nil
}

func isCaseDir(fsys fs.FS, dir string) bool {
	_, err := fs.Stat(fsys, path.Join(dir, cases.CaseFile))
	return err == nil
}

func cover(newImpl NewSchemaImpl, enc *json.Encoder, out *bufio.Writer) error {
	tmp, err := os.MkdirTemp("", "schemajudge-hits-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	hitsFile := filepath.Join(tmp, "hits")
	schema.Record(true)
	impl := newImpl(0, hitsFile)
	all, _, err := newBlockpatchRunner().Load()
	if err != nil {
		return err
	}
	names := make([]string, len(all))
	for i, c := range all {
		names[i] = c.Name
	}
	schema.TakeHits() // loading reached nothing of the reference, but be sure
	last := time.Now()
	var werr error
	_, err = runBatch(impl, names, func(res *runner.Result) {
		sites := schema.TakeHits()
		more, err := schema.ReadHits(hitsFile)
		if err != nil && werr == nil {
			werr = err
		}
		sites = append(sites, more...)
		slices.Sort(sites)
		now := time.Now()
		if err := enc.Encode(CoverLine{Case: res.Name, Sites: slices.Compact(sites), Verdict: string(res.Verdict), Seconds: now.Sub(last).Seconds()}); err != nil && werr == nil {
			werr = err
		}
		last = now
	})
	if err != nil {
		return err
	}
	return werr
}
