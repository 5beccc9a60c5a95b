package mutants

import (
	"bufio"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// Verdicts are the hand-reviewed verdicts on surviving mechanical
// mutants, by mutant name: "equivalent: why", "killed by CASE: what was
// added", "beyond cases: why no case can show it; killed by TEST" or
// "real, no case added: what would show it".
type Verdicts map[string]string

// LoadVerdicts reads a verdicts file: lines "NAME<TAB>VERDICT" or
// "NAME@PIN<TAB>VERDICT" (see Pin); blank lines and lines starting with #
// are skipped. A missing file holds none.
func LoadVerdicts(path string) (Verdicts, error) {
	v, _, err := loadVerdicts(path)
	return v, err
}

// Pin names the mutation a verdict was written for: the first eight hex
// digits of the SHA-256 of the mutant's mistake. Names are file:line, so a
// verdict whose line came to hold another statement keeps its name; its
// pin then no longer matches and the report test says so.
func Pin(mistake string) string {
	sum := sha256.Sum256([]byte(mistake))
	return hex.EncodeToString(sum[:4])
}

// loadVerdicts is LoadVerdicts with each verdict's pin ("" for none).
func loadVerdicts(path string) (Verdicts, map[string]string, error) {
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return Verdicts{}, map[string]string{}, nil
	}
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	v, pins := Verdicts{}, map[string]string{}
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		if strings.TrimSpace(line) == "" || strings.HasPrefix(line, "#") {
			continue
		}
		name, verdict, ok := strings.Cut(line, "\t")
		if !ok || strings.TrimSpace(verdict) == "" {
			return nil, nil, fmt.Errorf("%s:%d: want NAME<TAB>VERDICT", path, n)
		}
		name, pin, _ := strings.Cut(name, "@")
		v[name], pins[name] = strings.TrimSpace(verdict), pin
	}
	return v, pins, sc.Err()
}

// Equivalent reports whether a verdict says the mutant is equivalent.
func Equivalent(verdict string) bool { return strings.HasPrefix(verdict, "equivalent") }

// BeyondCases reports whether a verdict says no case can show the mutant
// (races, input limits, faults of a file that shrinks): the reference's own
// tests judge those, and the corpus is not measured on them.
func BeyondCases(verdict string) bool { return strings.HasPrefix(verdict, "beyond cases") }

// Unreviewed is the verdict of a survivor nobody has looked at.
const Unreviewed = "unreviewed"

// Summary counts a campaign's records.
type Summary struct {
	Generated, Killed, TimedOut, Survived, Equivalent, Unreviewed, BuildFailed, Stale, Errors int
	// KilledByAdded counts survivors whose verdict names a case added for
	// them ("killed by ..."); BeyondCases those no case can show.
	KilledByAdded, BeyondCases int
	// NotReached counts the survivors no case reaches (schemata only);
	// OtherPlatform the mutants of files this platform does not build.
	NotReached, OtherPlatform int
}

// Summarise counts records, taking survivors' verdicts from v.
func Summarise(recs []Record, v Verdicts) Summary {
	var s Summary
	s.Generated = len(recs)
	for _, r := range recs {
		switch r.Status {
		case Killed:
			s.Killed++
		case TimedOut:
			s.TimedOut++
		case Survived, NotReached:
			s.Survived++
			if r.Status == NotReached {
				s.NotReached++
			}
			switch verdict := v[r.Name]; {
			case verdict == "":
				s.Unreviewed++
			case Equivalent(verdict):
				s.Equivalent++
			case strings.HasPrefix(verdict, "killed by"):
				s.KilledByAdded++
			case BeyondCases(verdict):
				s.BeyondCases++
			}
		case BuildFailed:
			s.BuildFailed++
		case OtherPlatform:
			s.OtherPlatform++
		case Stale:
			s.Stale++
		default:
			s.Errors++
		}
	}
	return s
}

// Judged counts the compiling mutants a case can show: judged, neither
// equivalent nor beyond cases.
func (s Summary) Judged() int {
	return s.Killed + s.TimedOut + s.Survived - s.Equivalent - s.BeyondCases
}

// KillRateAfterReview counts the survivors killed by the cases added for
// them as killed.
func (s Summary) KillRateAfterReview() float64 {
	if s.Judged() == 0 {
		return 0
	}
	return 100 * float64(s.Killed+s.TimedOut+s.KilledByAdded) / float64(s.Judged())
}

// KillRate is the share of the mutants a case can show (Judged) that the
// corpus kills (timeouts count as kills), in percent.
func (s Summary) KillRate() float64 {
	if s.Judged() == 0 {
		return 0
	}
	return 100 * float64(s.Killed+s.TimedOut) / float64(s.Judged())
}

// ReportCorpusLine is the report line naming the corpus hash it was made
// from; a test compares it with the current corpus.
const ReportCorpusLine = "Corpus hash: "

var reportCorpus = regexp.MustCompile(`(?m)^Corpus hash: ([0-9a-f]{64})$`)

// ReportCorpus returns the corpus hash a report names, or "".
func ReportCorpus(report []byte) string {
	if m := reportCorpus.FindSubmatch(report); m != nil {
		return string(m[1])
	}
	return ""
}

// ReportReferenceLine is the report line naming the hash of the code the
// mutants were made from (ReferenceHash); a test compares it with the
// current code.
const ReportReferenceLine = "Reference hash: "

var reportReference = regexp.MustCompile(`(?m)^Reference hash: ([0-9a-f]{64})$`)

// ReportReference returns the reference hash a report names, or "".
func ReportReference(report []byte) string {
	if m := reportReference.FindSubmatch(report); m != nil {
		return string(m[1])
	}
	return ""
}

// ReferenceHash is the SHA-256 over the name and bytes of every non-test
// Go file the suite's mutants are generated from, in name order.
func ReferenceHash(module string, s Suite) (string, error) {
	h := sha256.New()
	for _, dir := range s.Dirs {
		entries, err := os.ReadDir(filepath.Join(module, filepath.FromSlash(dir)))
		if err != nil {
			return "", err
		}
		for _, e := range entries {
			if e.IsDir() || !strings.HasSuffix(e.Name(), ".go") || strings.HasSuffix(e.Name(), "_test.go") {
				continue
			}
			data, err := os.ReadFile(filepath.Join(module, filepath.FromSlash(dir), e.Name()))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s/%s\x00%d\x00", dir, e.Name(), len(data))
			h.Write(data)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// Residues is how many hash residues the report rates apart: a mutant's
// residue is nameHash(name) mod Residues, the split Sample makes, so every
// sample of one in Residues is one row.
const Residues = 4

// Report is what the markdown report of a mechanical campaign is made of.
type Report struct {
	// ReferenceHash is ReferenceHash of the code the mutants were made
	// from; Took says how long the campaign took, and where.
	ReferenceHash, Took string
	// Funcs names the function holding each mutant's site, by name: the
	// survivors are grouped by it.
	Funcs map[string]string
	// Opinions says, by name, what the reference's own tests made of an
	// unreviewed survivor (-opinions), shown beside "unreviewed".
	Opinions   map[string]string
	Suite      Suite    // the reference mutated; zero is Blockpatch
	Records    []Record // the judged mutants
	Verdicts   Verdicts
	CorpusHash string // of the corpus the records were judged with
	Generated  int    // mutants generated from the code
	Selected   int    // of which the campaign set out to judge (the sample)
	How        string // a sentence on how the mutants were made and judged
}

// WriteReport writes the markdown report of a mechanical campaign.
func WriteReport(w io.Writer, rep Report) error {
	recs, v, corpusHash, how := rep.Records, rep.Verdicts, rep.CorpusHash, rep.How
	s := Summarise(recs, v)
	b := &strings.Builder{}
	suite, flag := rep.Suite, ""
	if suite.Name == "" {
		suite = Blockpatch
	}
	if suite.Name != Blockpatch.Name {
		flag = " -suite " + suite.Name
	}
	fmt.Fprintf(b, "# Mechanical mutants of %s\n\n", suite.Title)
	fmt.Fprintf(b, "Generated by `go run ./cmd/blockpatch-mutants -mechanical%s`; do not edit. Verdicts on survivors are\n", flag)
	fmt.Fprintf(b, "kept in `%s` and reviewed by hand.\n\n", suite.Verdicts)
	fmt.Fprintf(b, "%s%s\n\n", ReportCorpusLine, corpusHash)
	if rep.ReferenceHash != "" {
		fmt.Fprintf(b, "%s%s\n\n", ReportReferenceLine, rep.ReferenceHash)
	}
	if how != "" {
		fmt.Fprintf(b, "%s\n\n", how)
	}
	if rep.Took != "" {
		fmt.Fprintf(b, "Campaign time: %s\n\n", rep.Took)
	}
	fmt.Fprintf(b, "| | mutants |\n| --- | ---: |\n")
	fmt.Fprintf(b, "| generated from the code | %d |\n| selected for this campaign | %d |\n| judged | %d |\n", rep.Generated, rep.Selected, s.Generated)
	fmt.Fprintf(b, "| killed | %d |\n| timed out (killed by a timeout) | %d |\n| survived | %d |\n", s.Killed, s.TimedOut, s.Survived)
	fmt.Fprintf(b, "| of which equivalent | %d |\n| of which beyond cases (judged by the reference's tests) | %d |\n", s.Equivalent, s.BeyondCases)
	fmt.Fprintf(b, "| of which unreviewed | %d |\n", s.Unreviewed)
	if s.NotReached > 0 {
		fmt.Fprintf(b, "| of which reached by no case (no run needed) | %d |\n", s.NotReached)
	}
	fmt.Fprintf(b, "| not compiling (not counted) | %d |\n", s.BuildFailed)
	if s.OtherPlatform > 0 {
		fmt.Fprintf(b, "| in files built only on other platforms (not counted) | %d |\n", s.OtherPlatform)
	}
	if s.Stale+s.Errors > 0 {
		fmt.Fprintf(b, "| stale or not judged | %d |\n", s.Stale+s.Errors)
	}
	judged := s.Judged()
	fmt.Fprintf(b, "\nKill rate over the compiling mutants a case can show (neither equivalent nor beyond cases): **%.1f%%** (%d of %d) by the corpus the campaign ran with; "+
		"**%.1f%%** (%d of %d) with the cases added for survivors (verdict \"killed by\").\n\n",
		s.KillRate(), s.Killed+s.TimedOut, judged, s.KillRateAfterReview(), s.Killed+s.TimedOut+s.KilledByAdded, judged)
	table := func(title string, key func(r Record) string) {
		groups := map[string][]Record{}
		for _, r := range recs {
			groups[key(r)] = append(groups[key(r)], r)
		}
		fmt.Fprintf(b, "| %s | judged | killed | kill rate |\n| --- | ---: | ---: | ---: |\n", title)
		for _, k := range slices.Sorted(maps.Keys(groups)) {
			g := Summarise(groups[k], v)
			fmt.Fprintf(b, "| %s | %d | %d | %.1f%% |\n", k, g.Judged(), g.Killed+g.TimedOut, g.KillRate())
		}
		fmt.Fprintf(b, "\n")
	}
	fmt.Fprintf(b, "Judged counts the compiling mutants a case can show, as above.\n\n")
	table(fmt.Sprintf("hash residue (of %d)", Residues), func(r Record) string { return strconv.Itoa(int(nameHash(r.Name) % Residues)) })
	table("file", func(r Record) string { f, _, _ := strings.Cut(r.Name, ":"); return "`" + f + "`" })
	table("operator", func(r Record) string {
		if parts := strings.Split(r.Name, ":"); len(parts) == 4 {
			return parts[2]
		}
		return "?"
	})
	fmt.Fprintf(b, "## Survivors\n\nGrouped by the function holding the site: one behaviour each.\n")
	groups := map[string][]Record{}
	for _, r := range recs {
		if r.Status == Survived || r.Status == NotReached {
			f, _, _ := strings.Cut(r.Name, ":")
			k := f
			if fn := rep.Funcs[r.Name]; fn != "" {
				k += ": " + fn
			}
			groups[k] = append(groups[k], r)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(groups)) {
		kinds := map[string]int{}
		for _, r := range groups[k] {
			kinds[verdictKind(v[r.Name])]++
		}
		var parts []string
		for _, kind := range slices.Sorted(maps.Keys(kinds)) {
			parts = append(parts, fmt.Sprintf("%d %s", kinds[kind], kind))
		}
		fmt.Fprintf(b, "\n### `%s` (%s)\n\n| mutant | change | verdict |\n| --- | --- | --- |\n", k, strings.Join(parts, ", "))
		for _, r := range groups[k] {
			verdict := v[r.Name]
			if verdict == "" {
				verdict = Unreviewed
				if r.Status == NotReached {
					verdict += " (reached by no case)"
				}
				if op := rep.Opinions[r.Name]; op != "" {
					verdict += "; the reference's own tests: " + op
				}
			}
			fmt.Fprintf(b, "| `%s` | %s | %s |\n", r.Name, cell(r.Mistake), cell(verdict))
		}
	}
	if s.Stale+s.Errors > 0 {
		fmt.Fprintf(b, "\n## Not judged\n\n")
		for _, r := range recs {
			if r.Status == Stale || r.Status == RunError {
				fmt.Fprintf(b, "- `%s` (%s): %s\n", r.Name, r.Status, cell(firstLine(r.Reason)))
			}
		}
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// verdictKind is the kind of a verdict: its words before the colon.
func verdictKind(verdict string) string {
	switch {
	case verdict == "":
		return Unreviewed
	case Equivalent(verdict):
		return "equivalent"
	case BeyondCases(verdict):
		return "beyond cases"
	case strings.HasPrefix(verdict, "killed by"):
		return "killed by an added case"
	}
	return "real, no case added"
}

func cell(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "|", `\|`), "\n", " ")
}
