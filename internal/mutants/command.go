package mutants

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Options are the settings of cmd/blockpatch-mutants.
type Options struct {
	// Suite is the reference mutated: Blockpatch (the zero value) or
	// PatchDIFF, whose files are the defaults of Results, Report and
	// Verdicts.
	Suite      Suite
	Mechanical bool
	Run        *regexp.Regexp // mutants selected by name; nil is all
	Parallel   int
	Sample     int
	Results    string
	Report     string
	Verdicts   string
	ReportOnly bool
	// PerMutantBuild judges blockpatch's mechanical mutants the old way,
	// one build and one process per case each, instead of through the
	// schemata (SchemaCampaign); patchdiff's always are.
	PerMutantBuild bool
	CorpusHash     string // report-only: the corpus the results were judged with, when not the current one
	Note           string // report-only: a sentence added to the report
	Took           string // report-only: how long the campaign took, and where
	Opinions       string // a file for what the reference's own tests make of the unreviewed survivors
	Stdout         io.Writer
	Stderr         io.Writer
}

// Main runs the command: the kill matrix of the hand-written mutants, or
// the mechanical campaign. It reports false when a hand-written mutant
// survives.
func Main(ctx context.Context, o Options) (bool, error) {
	root, err := ModuleRoot()
	if err != nil {
		return false, err
	}
	if o.Suite.Name == "" {
		o.Suite = Blockpatch
	}
	suite := o.Suite
	file := func(set, def string) string {
		if set != "" {
			return set
		}
		return filepath.Join(root, filepath.FromSlash(def))
	}
	o.Results, o.Report, o.Verdicts = file(o.Results, suite.Results), file(o.Report, suite.Report), file(o.Verdicts, suite.Verdicts)
	tmp, err := os.MkdirTemp("", "blockpatch-mutants-")
	if err != nil {
		return false, err
	}
	defer os.RemoveAll(tmp)
	b := &Builder{Module: root, Dir: tmp, Package: suite.Package}
	pick := func(ms []Mutant) []Mutant {
		if o.Run == nil {
			return ms
		}
		return slices.DeleteFunc(ms, func(m Mutant) bool { return !o.Run.MatchString(m.Name) })
	}
	if !o.Mechanical {
		if suite.Name != Blockpatch.Name {
			return false, fmt.Errorf("the hand-written mutants are blockpatch's; use -mechanical for %s", suite.Name)
		}
		ms, err := Hand()
		if err != nil {
			return false, err
		}
		return handMatrix(ctx, b, pick(ms), o)
	}
	ms, err := Generate(root, suite)
	if err != nil {
		return false, err
	}
	generated := len(ms)
	ms = pick(Sample(ms, o.Sample))
	corpusHash, err := suite.corpusHash()
	if err != nil {
		return false, err
	}
	if o.CorpusHash != "" {
		corpusHash = o.CorpusHash
	}
	start := time.Now()
	var recs []Record
	if o.ReportOnly {
		all, err := LoadRecords(o.Results)
		if err != nil {
			return false, err
		}
		byName := map[string]Record{}
		for _, r := range all {
			byName[r.Name] = r
		}
		for _, m := range ms {
			if r, ok := byName[m.Name]; ok && r.DiffSum == diffSum(m) {
				recs = append(recs, r)
			}
		}
	} else if suite.Name == Blockpatch.Name && !o.PerMutantBuild {
		fast, err := os.MkdirTemp(FastTempDir(), "blockpatch-schemata-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(fast)
		c := &SchemaCampaign{Module: root, Suite: suite, Dir: fast, Parallel: o.Parallel, Progress: o.Stderr}
		keep := map[string]bool{}
		for _, m := range ms {
			keep[m.Name] = true
		}
		if recs, err = c.Run(ctx, func(name string) bool { return keep[name] }); err != nil {
			return false, err
		}
		// Merged into the results already there, so a campaign over some
		// mutants (-run: the survivors, after cases were added) keeps the
		// others' verdicts: a case added never revives a killed mutant.
		prev, err := LoadRecords(o.Results)
		if err != nil {
			return false, err
		}
		merged := map[string]Record{}
		for _, r := range prev {
			merged[r.Name] = r
		}
		for _, r := range recs {
			merged[r.Name] = r
		}
		all, err := Generate(root, suite)
		if err != nil {
			return false, err
		}
		var keepAll []Record
		for _, m := range all {
			if r, ok := merged[m.Name]; ok && r.DiffSum == diffSum(m) {
				keepAll = append(keepAll, r)
			}
		}
		if err := WriteRecords(o.Results, keepAll); err != nil {
			return false, err
		}
	} else {
		fmt.Fprintf(o.Stderr, "%d mechanical mutants; results in %s\n", len(ms), o.Results)
		c := &Campaign{Builder: b, Judge: Judge{Certify: suite.Certify}, Parallel: o.Parallel, Results: o.Results, Progress: o.Stderr}
		if recs, err = c.Run(ctx, ms); err != nil {
			return false, err
		}
	}
	if suite.Name == Blockpatch.Name {
		markOtherPlatform(root, recs)
	}
	v, err := LoadVerdicts(o.Verdicts)
	if err != nil {
		return false, err
	}
	if o.Opinions != "" {
		var names []string
		for _, r := range recs {
			if (r.Status == Survived || r.Status == NotReached) && v[r.Name] == "" {
				names = append(names, r.Name)
			}
		}
		fast, err := os.MkdirTemp(FastTempDir(), "blockpatch-opinions-")
		if err != nil {
			return false, err
		}
		defer os.RemoveAll(fast)
		ops, err := Opinions(ctx, root, suite, fast, names, o.Parallel)
		if err != nil {
			return false, err
		}
		if err := writeOpinions(o.Opinions, ops); err != nil {
			return false, err
		}
	}
	opinions, err := LoadVerdicts(filepath.Join(root, filepath.FromSlash(strings.Replace(suite.Verdicts, "verdicts", "opinions", 1))))
	if err != nil {
		return false, err
	}
	var buf bytes.Buffer
	sampled := "all of them"
	if o.Sample > 1 {
		sampled = fmt.Sprintf("sampled one in %d by name", o.Sample)
	}
	how := fmt.Sprintf("Mutants: every operator over the non-test Go files of %v, %s, judged in an order that mixes files and operators; each judged through runner.Command by the embedded corpus until its first failing case.", suite.Dirs, sampled)
	took := o.Took
	if suite.Name == Blockpatch.Name && !o.PerMutantBuild {
		how = fmt.Sprintf("Mutants: every operator over the non-test Go files of %v, %s. Judged through the mutant schemata: one build holding every mutant, one run of the corpus recording the cases that reach each site, then a process per mutant running in process only the cases reaching its site, the likeliest killers first, until its first failing case; a mutant outside every function body is built on its own.", suite.Dirs, sampled)
		if !o.ReportOnly {
			load, _ := os.ReadFile("/proc/loadavg")
			took = fmt.Sprintf("%s wall time for %d mutants, %d at a time, on %d cores shared with other workers (load average at the end: %s), so noisy.", time.Since(start).Round(time.Second), len(ms), o.Parallel, runtime.NumCPU(), strings.Join(strings.Fields(string(load))[:min(3, len(strings.Fields(string(load))))], " "))
		}
	}
	refHash, err := ReferenceHash(root, suite)
	if err != nil {
		return false, err
	}
	sites, err := generateSites(root, suite)
	if err != nil {
		return false, err
	}
	funcs := map[string]string{}
	for _, st := range sites {
		funcs[st.Name] = st.Func
	}
	if o.Note != "" {
		how += " " + o.Note
	}
	if err := WriteReport(&buf, Report{Suite: suite, Records: recs, Verdicts: v, CorpusHash: corpusHash, ReferenceHash: refHash, Took: took, Funcs: funcs, Opinions: opinions, Generated: generated, Selected: len(ms), How: how}); err != nil {
		return false, err
	}
	if err := os.WriteFile(o.Report, buf.Bytes(), 0o644); err != nil {
		return false, err
	}
	s := Summarise(recs, v)
	fmt.Fprintf(o.Stdout, "%d mutants: %d killed, %d timed out, %d survived (%d equivalent, %d unreviewed), %d not compiling; kill rate %.1f%% (%.1f%% with the cases added for survivors); %s; report %s\n",
		s.Generated, s.Killed, s.TimedOut, s.Survived, s.Equivalent, s.Unreviewed, s.BuildFailed, s.KillRate(), s.KillRateAfterReview(), time.Since(start).Round(time.Second), o.Report)
	return true, nil
}

// handMatrix runs every hand-written mutant over the whole corpus and
// prints the kill matrix.
func handMatrix(ctx context.Context, b *Builder, ms []Mutant, o Options) (bool, error) {
	all, _, err := newBlockpatchRunner().Load()
	if err != nil {
		return false, err
	}
	mx := &Matrix{Kills: map[string][]string{}}
	for _, c := range all {
		mx.Cases = append(mx.Cases, c.Name)
	}
	var (
		mu   sync.Mutex
		errs []error
	)
	judge := Judge{Certify: Blockpatch.Certify}
	b.Each(ctx, ms, o.Parallel, func(m Mutant, impl *runner.Command, err error) {
		var jd Judgement
		if err == nil {
			jd, err = judge.Run(ctx, impl, nil)
		}
		mu.Lock()
		defer mu.Unlock()
		if err != nil {
			errs = append(errs, err)
			return
		}
		mx.Kills[m.Name] = jd.Killers
		fmt.Fprintf(o.Stderr, "%s: killed by %d cases\n", m.Name, len(jd.Killers))
	})
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	fmt.Fprint(o.Stdout, mx)
	for _, err := range errs {
		fmt.Fprintln(o.Stderr, err)
	}
	return len(errs) == 0 && len(mx.Survivors()) == 0, nil
}

// corpusHash is the hash of the corpus the suite's mutants are judged by.
func (s Suite) corpusHash() (string, error) {
	if s.Name == PatchDIFF.Name {
		_, h, err := newPatchDIFFRunner().Load()
		return h, err
	}
	_, h, err := newBlockpatchRunner().Load()
	return h, err
}
