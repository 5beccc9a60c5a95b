package spec

import (
	"fmt"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/index"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/specmd"
)

const markdownFile = "blockpatch-1.1.md"

// decisionCount is the number of entries (D1..Dn) in the project's decision
// log; each must be recorded by at least one clarification.
const decisionCount = 29

func parseMarkdown(t *testing.T) *specmd.Document {
	t.Helper()
	doc, err := specmd.ParseFile(markdownFile, specmd.Blockpatch(Profiles))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestIndexIsFresh(t *testing.T) {
	t.Parallel()
	for _, p := range specmd.Stale(markdownFile, specmd.Blockpatch(Profiles), requirementsJSON) {
		t.Error(p)
	}
}

func TestIndexDecodesStrictly(t *testing.T) {
	t.Parallel()
	ix, err := index.DecodeStrict(requirementsJSON)
	if err != nil {
		t.Fatalf("embedded index does not decode: %v", err)
	}
	if newest := Profiles[len(Profiles)-1]; ix.Version != newest {
		t.Errorf("version = %q, want the newest profile %s", ix.Version, newest)
	}
	if !slices.Equal(ix.Profiles, Profiles) {
		t.Errorf("index profiles %q differ from Profiles %q", ix.Profiles, Profiles)
	}
	if len(ix.Requirements) == 0 || len(Requirements()) != len(ix.Requirements) {
		t.Errorf("Requirements() returns %d entries, index holds %d", len(Requirements()), len(ix.Requirements))
	}
}

// TestHeadIsTheIndexWithoutRequirements: what the CLI's start decodes is
// every member of the index but the requirements, as a full decode reads
// them.
func TestHeadIsTheIndexWithoutRequirements(t *testing.T) {
	t.Parallel()
	full, head := load(), loadHead()
	if head.Version != full.Version || !slices.Equal(head.Profiles, full.Profiles) ||
		!slices.Equal(head.ErrorCodes, full.ErrorCodes) || string(head.Options) != string(full.Options) {
		t.Errorf("head: version %q, profiles %q, codes %q, options %s\nfull: version %q, profiles %q, codes %q, options %s",
			head.Version, head.Profiles, head.ErrorCodes, head.Options, full.Version, full.Profiles, full.ErrorCodes, full.Options)
	}
	if len(full.Options) == 0 || len(full.ErrorCodes) == 0 || len(head.Requirements) != 0 {
		t.Errorf("%d bytes of options, %d codes, %d requirements in the head", len(full.Options), len(full.ErrorCodes), len(head.Requirements))
	}
}

func TestMarkdownMatchesAPI(t *testing.T) {
	t.Parallel()
	doc := parseMarkdown(t)
	reqs := Requirements()
	if len(reqs) != len(doc.Requirements) {
		t.Fatalf("API has %d requirements, markdown %d", len(reqs), len(doc.Requirements))
	}
	for i, m := range doc.Requirements {
		want := Requirement{ID: m.ID, Area: m.Area, Since: m.Since, Statement: m.Statement, Clarification: m.Clarification}
		if reqs[i] != want {
			t.Errorf("requirement %d: API %+v, markdown line %d %+v", i, reqs[i], m.Line, want)
		}
	}
	if !slices.Equal(ErrorCodes(), doc.ErrorCodes) {
		t.Errorf("ErrorCodes() = %q, markdown table = %q", ErrorCodes(), doc.ErrorCodes)
	}
}

func TestRequirementIDs(t *testing.T) {
	t.Parallel()
	idRE := regexp.MustCompile(`^(` + strings.Join(specmd.Areas, "|") + `)-[0-9]{3}$`)
	seen := map[string]bool{}
	for _, r := range Requirements() {
		if !idRE.MatchString(r.ID) {
			t.Errorf("%q is not a well-formed ID", r.ID)
		}
		if seen[r.ID] {
			t.Errorf("%s appears twice", r.ID)
		}
		seen[r.ID] = true
		if !strings.HasPrefix(r.ID, r.Area+"-") {
			t.Errorf("%s has area %q", r.ID, r.Area)
		}
	}
}

func TestEveryAreaHasRequirements(t *testing.T) {
	t.Parallel()
	count := map[string]int{}
	for _, r := range Requirements() {
		count[r.Area]++
	}
	for _, area := range specmd.Areas {
		t.Run(area, func(t *testing.T) {
			t.Parallel()
			if count[area] == 0 {
				t.Errorf("area %s has no requirements", area)
			}
		})
	}
	if len(count) != len(specmd.Areas) {
		t.Errorf("requirements use %d areas, want %d", len(count), len(specmd.Areas))
	}
}

func TestSinceIsAProfile(t *testing.T) {
	t.Parallel()
	bySince := map[string]int{}
	for _, r := range Requirements() {
		if !slices.Contains(Profiles, r.Since) {
			t.Errorf("%s: since %q is not one of %q", r.ID, r.Since, Profiles)
		}
		bySince[r.Since]++
	}
	for _, p := range Profiles {
		if bySince[p] == 0 {
			t.Errorf("no requirement is introduced in profile %s", p)
		}
	}
}

var mustRE = regexp.MustCompile(`\bMUST\b`)

func TestStatementsHoldOneMust(t *testing.T) {
	t.Parallel()
	for _, r := range Requirements() {
		if n := len(mustRE.FindAllString(r.Statement, -1)); n != 1 {
			t.Errorf("%s: statement holds %d MUST keywords, want exactly one (MUST or MUST NOT): %s", r.ID, n, r.Statement)
		}
		for _, kw := range []string{"SHOULD", "SHALL", "REQUIRED", "RECOMMENDED"} {
			if strings.Contains(r.Statement, kw) {
				t.Errorf("%s: statement uses %s; requirements use MUST or MUST NOT only", r.ID, kw)
			}
		}
		if !strings.HasSuffix(r.Statement, ".") {
			t.Errorf("%s: statement does not end with a full stop", r.ID)
		}
	}
}

func TestClarificationsCiteDecisions(t *testing.T) {
	t.Parallel()
	cited := map[string]bool{}
	for _, r := range parseMarkdown(t).Requirements {
		if len(r.Decisions) > 0 && !r.Clarification {
			t.Errorf("%s cites %v but is not a clarification", r.ID, r.Decisions)
		}
		for _, d := range r.Decisions {
			cited[d] = true
		}
	}
	for i := 1; i <= decisionCount; i++ {
		if d := fmt.Sprintf("D%d", i); !cited[d] {
			t.Errorf("decision %s is recorded by no clarification", d)
		}
	}
	for d := range cited {
		var n int
		if _, err := fmt.Sscanf(d, "D%d", &n); err != nil || n < 1 || n > decisionCount {
			t.Errorf("clarification cites %s, which is not in the decision log D1..D%d", d, decisionCount)
		}
	}
}

func TestClarificationsNameARelease(t *testing.T) {
	t.Parallel()
	// A clarification records what upstream's release does ("observed
	// 1.1.0"); only a convention of the project itself, such as the test
	// hook of WRITE-013, stands without one. Keep this list short.
	conventions := []string{"WRITE-013"}
	for _, r := range parseMarkdown(t).Requirements {
		switch {
		case r.Observed != "" && !r.Clarification:
			t.Errorf("%s names observed %s but is not a clarification", r.ID, r.Observed)
		case r.Clarification && r.Observed == "" && !slices.Contains(conventions, r.ID):
			t.Errorf("%s is a clarification that names no observed release", r.ID)
		case r.Observed != "" && slices.Contains(conventions, r.ID):
			t.Errorf("%s is listed as a project convention but names observed %s", r.ID, r.Observed)
		}
	}
}

func TestErrorCodesAreCited(t *testing.T) {
	t.Parallel()
	// Every code but the catch-all must be named by some requirement, so
	// that each has at least one testable trigger.
	text := ""
	for _, r := range Requirements() {
		text += r.Statement + "\n"
	}
	for _, code := range ErrorCodes() {
		if !strings.Contains(text, "`"+code+"`") {
			t.Errorf("no requirement names error code %s", code)
		}
	}
}

func TestLookup(t *testing.T) {
	t.Parallel()
	all := Requirements()
	tests := []struct {
		name   string
		id     string
		wantOK bool
	}{
		{"first requirement", all[0].ID, true},
		{"last requirement", all[len(all)-1].ID, true},
		{"overlap counting decision", "MATCH-004", true},
		{"unknown number", "FMT-999", false},
		{"unknown area", "XYZ-001", false},
		{"lower case", strings.ToLower(all[0].ID), false},
		{"empty", "", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			r, ok := Lookup(tt.id)
			if ok != tt.wantOK {
				t.Fatalf("Lookup(%q) ok = %v, want %v", tt.id, ok, tt.wantOK)
			}
			if ok && r.ID != tt.id {
				t.Errorf("Lookup(%q) returned %s", tt.id, r.ID)
			}
			if !ok && r != (Requirement{}) {
				t.Errorf("Lookup(%q) returned non-zero %+v with ok false", tt.id, r)
			}
		})
	}
	for _, r := range all {
		if got, ok := Lookup(r.ID); !ok || got != r {
			t.Errorf("Lookup(%s) = %+v, %v; want %+v", r.ID, got, ok, r)
		}
	}
}

func TestInProfile(t *testing.T) {
	t.Parallel()
	r10 := Requirement{ID: "FMT-001", Since: "1.0"}
	r11 := Requirement{ID: "FMT-039", Since: "1.1"}
	r111 := Requirement{ID: "OUT-024", Since: "1.1.1"}
	tests := []struct {
		name    string
		r       Requirement
		profile string
		want    bool
	}{
		{"1.0 requirement in 1.0", r10, "1.0", true},
		{"1.0 requirement in 1.1", r10, "1.1", true},
		{"1.1 requirement not in 1.0", r11, "1.0", false},
		{"1.1 requirement in 1.1", r11, "1.1", true},
		{"1.0 requirement in 1.1.1", r10, "1.1.1", true},
		{"1.1 requirement in 1.1.1", r11, "1.1.1", true},
		{"1.1.1 requirement not in 1.1", r111, "1.1", false},
		{"1.1.1 requirement not in 1.0", r111, "1.0", false},
		{"1.1.1 requirement in 1.1.1", r111, "1.1.1", true},
		{"release is not a profile", r10, "1.1.0", false},
		{"unknown profile", r10, "2.0", false},
		{"empty profile", r10, "", false},
		{"unknown since", Requirement{Since: "0.1"}, "1.1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			if got := InProfile(tt.r, tt.profile); got != tt.want {
				t.Errorf("InProfile(since %q, %q) = %v, want %v", tt.r.Since, tt.profile, got, tt.want)
			}
		})
	}
	// Each profile holds more requirements than the one before, and the
	// newest holds them all.
	sizes := make([]int, len(Profiles))
	for _, r := range Requirements() {
		for i, p := range Profiles {
			if InProfile(r, p) {
				sizes[i]++
			}
		}
	}
	for i := range sizes {
		if sizes[i] == 0 || i > 0 && sizes[i] <= sizes[i-1] {
			t.Errorf("profile sizes %v for %q: each profile must add requirements", sizes, Profiles)
			break
		}
	}
	if sizes[len(sizes)-1] != len(Requirements()) {
		t.Errorf("profile %s holds %d of %d requirements", Profiles[len(Profiles)-1], sizes[len(sizes)-1], len(Requirements()))
	}
}

func TestAccessorsReturnCopies(t *testing.T) {
	t.Parallel()
	reqs := Requirements()
	id := reqs[0].ID
	reqs[0].ID = "CHANGED"
	if Requirements()[0].ID != id {
		t.Error("modifying the result of Requirements changed the index")
	}
	codes := ErrorCodes()
	first := codes[0]
	codes[0] = "changed"
	if ErrorCodes()[0] != first {
		t.Error("modifying the result of ErrorCodes changed the index")
	}
}

func TestReadmeCitesKnownIDs(t *testing.T) {
	t.Parallel()
	readme, err := os.ReadFile("README.md")
	if err != nil {
		t.Fatal(err)
	}
	idRE := regexp.MustCompile(`\b(` + strings.Join(specmd.Areas, "|") + `)-[0-9]{3}\b`)
	ids := idRE.FindAllString(string(readme), -1)
	if len(ids) == 0 {
		t.Fatal("README.md cites no requirement IDs")
	}
	for _, id := range ids {
		if _, ok := Lookup(id); !ok {
			t.Errorf("README.md cites %s, which the spec does not define", id)
		}
	}
}
