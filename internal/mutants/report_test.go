package mutants

import (
	"os"
	"regexp"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// TestMechanicalReport checks the committed report of the last mechanical
// campaign: present, in shape, every survivor with a verdict column. A
// blockpatch report made from another corpus or other reference code is
// stale and fails: the schemata campaign judges the full set in minutes.
// PatchDIFF's, still judged one build per mutant, is only logged when
// stale.
func TestMechanicalReport(t *testing.T) {
	for _, s := range Suites {
		t.Run(s.Name, func(t *testing.T) { testReport(t, s) })
	}
}

func testReport(t *testing.T, s Suite) {
	reportFile := strings.TrimPrefix(s.Report, "internal/mutants/")
	verdictsFile := strings.TrimPrefix(s.Verdicts, "internal/mutants/")
	data, err := os.ReadFile(reportFile)
	if err != nil {
		t.Fatalf("%v; run go run ./cmd/blockpatch-mutants -mechanical -suite %s", err, s.Name)
	}
	report := string(data)
	for _, want := range []string{"# Mechanical mutants of the reference", "| generated from the code |", "| judged |", "| killed |", "| survived |", "| timed out", "Kill rate", "## Survivors", "| mutant | change | verdict |"} {
		if !strings.Contains(report, want) {
			t.Errorf("%s lacks %q", reportFile, want)
		}
	}
	made := ReportCorpus(data)
	if made == "" {
		t.Fatalf("%s names no corpus hash (a %q line)", reportFile, ReportCorpusLine)
	}
	current, err := s.corpusHash()
	if err != nil {
		t.Fatal(err)
	}
	if made != current && s.Name == Blockpatch.Name {
		t.Errorf("%s is stale: made from corpus %s, the corpus is now %s; judge the mutants again with go run ./cmd/blockpatch-mutants -mechanical (the survivors alone with -run, then -report-only)", reportFile, made, current)
	}
	if s.Name == Blockpatch.Name {
		root, err := ModuleRoot()
		if err != nil {
			t.Fatal(err)
		}
		ref, err := ReferenceHash(root, s)
		if err != nil {
			t.Fatal(err)
		}
		if got := ReportReference(data); got != ref {
			t.Errorf("%s is stale: made from reference code %q, the code is now %s; run go run ./cmd/blockpatch-mutants -mechanical", reportFile, got, ref)
		}
		for _, want := range []string{"| hash residue (of 4) |", "| file |", "| operator |", "Campaign time: "} {
			if !strings.Contains(report, want) {
				t.Errorf("%s lacks %q", reportFile, want)
			}
		}
	}
	if made != current && s.Name != Blockpatch.Name {
		t.Logf("%s is stale: made from corpus %s, the corpus is now %s; rerun go run ./cmd/blockpatch-mutants -mechanical -suite %s", reportFile, made, current, s.Name)
	}
	_, rest, _ := strings.Cut(report, "## Survivors")
	row := regexp.MustCompile("^\\| `[^`]+:\\d+:[a-z-]+:\\d+` \\| .+ \\| .+ \\|$")
	for _, line := range strings.Split(rest, "\n") {
		if strings.HasPrefix(line, "| `") && !row.MatchString(line) {
			t.Errorf("survivor row not in shape: %s", line)
		}
	}
	v, pins, err := loadVerdicts(verdictsFile)
	if err != nil {
		t.Error(err)
	}
	checkVerdictsCurrent(t, strings.TrimPrefix(s.Results, "internal/mutants/"), v, pins)
}

// checkVerdictsCurrent fails on a verdict that no longer judges anything:
// one naming no mutant of the last campaign (its line moved or went), one
// whose pin is not its mutant's mistake (its line now holds another
// statement), or one other than "killed by" naming a mutant the corpus
// now kills, whose reason is now wrong.
func checkVerdictsCurrent(t *testing.T, resultsFile string, v Verdicts, pins map[string]string) {
	recs, err := LoadRecords(resultsFile)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Record{}
	for _, r := range recs {
		byName[r.Name] = r
	}
	for name, verdict := range v {
		r, ok := byName[name]
		switch {
		case !ok:
			t.Errorf("verdict on %s, which the last campaign did not generate: move it to the mutant's new name or drop it", name)
		case pins[name] != Pin(r.Mistake):
			t.Errorf("verdict on %s is pinned to %q, not to its mutant's mistake %q (pin %s): review it for that mistake and write it as %s@%s", name, pins[name], r.Mistake, Pin(r.Mistake), name, Pin(r.Mistake))
		case (r.Status == Killed || r.Status == TimedOut) && !strings.HasPrefix(verdict, "killed by"):
			t.Errorf("verdict %q on %s, which the corpus now kills: drop it", verdict, name)
		}
	}
}

func TestSummaryKillRate(t *testing.T) {
	recs := []Record{{Name: "a", Status: Killed}, {Name: "b", Status: TimedOut}, {Name: "c", Status: Survived}, {Name: "d", Status: Survived}, {Name: "e", Status: BuildFailed}}
	s := Summarise(recs, Verdicts{"c": "equivalent: the branch is dead"})
	if s.Equivalent != 1 || s.Unreviewed != 1 || s.BuildFailed != 1 || s.KillRate() < 66.6 || s.KillRate() > 66.7 {
		t.Errorf("summary %+v, kill rate %.2f; want 1 equivalent, 1 unreviewed, 1 not compiling, 2 of 3 killed", s, s.KillRate())
	}
	s = Summarise(recs, Verdicts{"c": "beyond cases: a race; killed by go test ./reference -run TestRace", "d": "killed by x/y (added): a case"})
	if s.BeyondCases != 1 || s.KilledByAdded != 1 || s.KillRate() != 200.0/3 || s.KillRateAfterReview() != 100 {
		t.Errorf("summary %+v, kill rates %.2f and %.2f; want 1 beyond cases, 1 killed by an added case, 2 of 3 killed, then 3 of 3", s, s.KillRate(), s.KillRateAfterReview())
	}
}

// TestLoadVerdictsPins reads pinned and unpinned verdicts by their bare
// names, keeping each pin apart.
func TestLoadVerdictsPins(t *testing.T) {
	t.Parallel()
	path := t.TempDir() + "/verdicts.txt"
	data := "# a comment\nreference/a.go:3:negate:0@" + Pin("`x` → `y`") + "\tequivalent: a\n\nreference/b.go:4:literal:1\treal, no case added: b\n"
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	v, pins, err := loadVerdicts(path)
	if err != nil {
		t.Fatal(err)
	}
	wantV := Verdicts{"reference/a.go:3:negate:0": "equivalent: a", "reference/b.go:4:literal:1": "real, no case added: b"}
	wantPins := map[string]string{"reference/a.go:3:negate:0": Pin("`x` → `y`"), "reference/b.go:4:literal:1": ""}
	if diff := cmp.Diff(wantV, v); diff != "" {
		t.Errorf("verdicts (-want +got):\n%s", diff)
	}
	if diff := cmp.Diff(wantPins, pins); diff != "" {
		t.Errorf("pins (-want +got):\n%s", diff)
	}
	if p := Pin("`x` → `y`"); len(p) != 8 || p == Pin("`x` → `z`") {
		t.Errorf("Pin gives %q; want eight hex digits that tell mistakes apart", p)
	}
}
