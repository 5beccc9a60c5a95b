package mutants

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// shortSample is the short campaign's share of the mechanical mutants:
// those whose name hashes to 0 modulo it, about 36 of 3,590.
const shortSample = 100

// outcome is what the comparison looks at: killed, survived, or not
// compiling.
func outcome(s Status) string {
	switch s {
	case Killed, TimedOut:
		return "killed"
	case Survived, NotReached:
		return "survived"
	}
	return string(s)
}

// TestShortSchemataCampaign judges a fixed small sample through the
// schemata, as the full campaign does, and requires the verdicts of the
// committed full campaign (internal/mutants/testdata/mechanical-results.jsonl)
// for each mutant of the sample whose diff is unchanged. Unless -short, it
// then judges a few of them the old way too, one build and one process
// per case each, and requires the same killed, survived or not compiling.
func TestShortSchemataCampaign(t *testing.T) {
	root, err := ModuleRoot()
	if err != nil {
		t.Skip(err)
	}
	dir, err := os.MkdirTemp(FastTempDir(), "schemata-test-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	c := &SchemaCampaign{Module: root, Suite: Blockpatch, Dir: dir, Parallel: 2}
	recs, err := c.Run(t.Context(), func(name string) bool { return nameHash(name)%shortSample == 0 })
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) < 10 {
		t.Fatalf("the short sample holds %d mutants; want at least 10", len(recs))
	}
	committed, err := LoadRecords(filepath.Join("testdata", "mechanical-results.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	full := map[string]Record{}
	for _, r := range committed {
		full[r.Name] = r
	}
	for _, r := range recs {
		if r.Status == RunError || r.Status == Stale {
			t.Errorf("%s: %s: %s", r.Name, r.Status, r.Reason)
		}
		if f, ok := full[r.Name]; ok && f.DiffSum == r.DiffSum && outcome(f.Status) != outcome(r.Status) {
			t.Errorf("%s: %s (%s), the committed full campaign says %s (%s)", r.Name, r.Status, r.Killer, f.Status, f.Killer)
		}
	}
	if testing.Short() {
		return
	}
	// The old path on one mutant of each outcome.
	var pick []Mutant
	want := map[string]string{}
	sites, err := generateSites(root, Blockpatch)
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]Mutant{}
	for _, s := range sites {
		byName[s.Name] = s.Mutant
	}
	for _, r := range recs {
		o := outcome(r.Status)
		if !slices.Contains(mapValues(want), o) && (o == "killed" || o == "survived" || o == "build-failed") {
			want[r.Name] = o
			pick = append(pick, byName[r.Name])
		}
	}
	// Not in /dev/shm: under bwrap a command sees a /dev of its own, and a
	// binary there cannot be started (exit status 127).
	oldDir := t.TempDir()
	b := &Builder{Module: root, Dir: oldDir}
	old := &Campaign{Builder: b, Judge: Judge{Certify: Blockpatch.Certify}, Parallel: 2, Results: filepath.Join(oldDir, "old.jsonl")}
	oldRecs, err := old.Run(context.Background(), pick)
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range oldRecs {
		if outcome(r.Status) != want[r.Name] {
			t.Errorf("%s: one build per mutant says %s (%s %s), the schemata %s", r.Name, r.Status, r.Killer, r.Reason, want[r.Name])
		}
	}
	t.Logf("compared %d mutants both ways: %v", len(oldRecs), want)
}

func mapValues(m map[string]string) []string {
	var out []string
	for _, v := range m {
		out = append(out, v)
	}
	return out
}

// TestSchemataSwitch checks the switched copy of a small function: each
// mutant's arm holds its edit, the original body its hits, and the file
// parses.
func TestSchemataSwitch(t *testing.T) {
	src := []byte("package p\n\nfunc f(a, b int) (int, error) {\n\tif a < b {\n\t\treturn a + b, nil\n\t}\n\treturn 0, nil\n}\n")
	sites, err := generateFile("p/p.go", src, []string{"A", "B"}, "p")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "p"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "p", "p.go"), src, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "go.mod"), []byte("module example.com/m\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, err := newSchemata(dir, sites)
	if err != nil {
		t.Fatal(err)
	}
	got := string(sc.files["p/p.go"])
	for _, want := range []string{
		`import mutantschema "example.com/m/` + SchemaPackage + `"`,
		"switch mutantschema.Active() {",
		"return func() (int, error) {\n\tif a <= b {",                       // boundary
		"return func() (int, error) {\n\tif a < b {\n\t\treturn a - b, nil", // arith
		"mutantschema.Hit(1); ",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("switched file lacks %q:\n%s", want, got)
		}
	}
	if len(sc.Outside) != 0 {
		t.Errorf("sites outside a function: %v", sc.Outside)
	}
}
