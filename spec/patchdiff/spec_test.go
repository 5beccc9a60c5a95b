package pdspec

import (
	"bytes"
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/index"
	"github.com/blockpatch-conformance/blockpatch-conformance/spec/internal/specmd"
)

const markdownFile = "patchdiff-core.md"

func parseMarkdown(t *testing.T) *specmd.Document {
	t.Helper()
	doc, err := specmd.ParseFile(markdownFile, specmd.PatchDIFF(ProfileNames(), Areas))
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func TestIndexIsFresh(t *testing.T) {
	t.Parallel()
	for _, p := range specmd.Stale(markdownFile, specmd.PatchDIFF(ProfileNames(), Areas), requirementsJSON) {
		t.Error(p)
	}
}

func TestMarkdownMatchesAPI(t *testing.T) {
	t.Parallel()
	doc := parseMarkdown(t)
	var want []Requirement
	for _, m := range doc.Requirements {
		want = append(want, Requirement{ID: m.ID, Area: m.Area, Since: m.Since, Statement: m.Statement, Clarification: m.Clarification})
	}
	if diff := cmp.Diff(want, Requirements()); diff != "" {
		t.Errorf("Requirements() differs from the markdown (-want +got):\n%s", diff)
	}
	if r, ok := Lookup("FIND-003"); !ok || r.Area != "FIND" {
		t.Errorf("Lookup(FIND-003) = %+v, %v", r, ok)
	}
}

// Each requirement names exactly one rule so a case can cite it precisely.
func TestOneMustPerRequirement(t *testing.T) {
	t.Parallel()
	for _, r := range Requirements() {
		if n := strings.Count(r.Statement, "MUST"); n != 1 {
			t.Errorf("%s holds %d MUSTs", r.ID, n)
		}
	}
}

func TestEveryAreaHasRequirements(t *testing.T) {
	t.Parallel()
	count := map[string]int{}
	for _, r := range Requirements() {
		count[r.Area]++
	}
	for _, a := range Areas {
		if count[a] == 0 {
			t.Errorf("area %s has no requirements", a)
		}
	}
}

// A statement that says inline "not stated by the seed" carries the marker,
// so the index's clarification flag lists every choice of ours.
func TestInlineChoicesCarryTheMarker(t *testing.T) {
	t.Parallel()
	for _, r := range Requirements() {
		if strings.Contains(r.Statement, "not stated by the seed") && !r.Clarification {
			t.Errorf("%s states a choice but is not marked", r.ID)
		}
	}
}

// Every label of labels.json has its Go constant, in the same order.
func TestConstantsMirrorLabels(t *testing.T) {
	t.Parallel()
	l := LabelSet()
	wantReasons := []Reason{ContextMissing, ContextInvalid, TargetNotFound, TargetEncodingInvalid, ManifestMissing, ManifestInvalid,
		BlockMalformed, MatchAbsent, MatchAmbiguous, DisambiguationInvalid, TargetHashMismatch, TargetVersionMismatch, TargetDiverged,
		SequentialMatchInvalid, TransactionInternalError}
	checks := []struct {
		name      string
		want, got any
	}{
		{"failure_reasons", wantReasons, l.FailureReasons},
		{"replay_failure_reasons", []Reason{ReplayHashMismatch, ReplayProtocolInvalid, ReplayTransactionInvalid}, l.ReplayFailureReasons},
		{"warning_codes", []WarningCode{NoOpChange, NoOpTransaction, OccurrenceIndexBasisShift, GraphemeBoundarySplit}, l.WarningCodes},
		{"diagnostic_codes", []string{ObservedInsertionGuardsRequired, OperationOutsideObservedScope}, l.DiagnosticCodes},
		{"formats", []string{FormatTx1, FormatTx2, FormatTx3}, l.Formats},
		{"operations", []string{OpMatch, OpSpan, OpReplaceAll}, l.Operations},
		{"statuses", []string{StatusAccepted, StatusRejected}, l.Statuses},
		{"span_checks", []string{SpanCheckBounds, SpanCheckExpectedText, SpanCheckExpectedBefore, SpanCheckExpectedAfter}, l.SpanChecks},
		{"buffers", []string{BufferTransactionStart, BufferIntermediate}, l.Buffers},
		{"excerpt_kinds", []string{ExcerptPrefix, ExcerptWindow}, l.ExcerptKinds},
		{"near_miss_statuses", []string{NearMissCaptured, NearMissMatchTooLarge}, l.NearMissStatuses},
		{"invalid_inputs", []string{InvalidInputTarget, InvalidInputTransaction}, l.InvalidInputs},
		{"failure_details", []string{DetailSequentialBuffer}, l.FailureDetails},
		{"not_evaluated", NotEvaluated, l.NotEvaluated},
	}
	for _, c := range checks {
		if diff := cmp.Diff(c.want, c.got); diff != "" {
			t.Errorf("%s (-constants +labels.json):\n%s", c.name, diff)
		}
	}
	var stages []Stage
	for _, s := range l.ValidationStages {
		stages = append(stages, s.Name)
	}
	if diff := cmp.Diff([]Stage{PreconditionGuard, ProtocolValidation, TransactionApplicability, CommitGuard, Accepted}, stages); diff != "" {
		t.Errorf("stages (-want +got):\n%s", diff)
	}
	// The runtime's labels are the seed's core labels without the service's
	// and the unused ones, plus the two span labels (STAGE-003, STAGE-008).
	for _, r := range l.RuntimeFailureReasons {
		if !slices.Contains(l.FailureReasons, r) && r != SpanOutOfBounds && r != SpanExpectedTextMismatch {
			t.Errorf("runtime reason %s is no seed label", r)
		}
	}
	for _, r := range []Reason{TargetDiverged, TargetNotFound, BlockMalformed, ReplayHashMismatch} {
		if slices.Contains(l.RuntimeFailureReasons, r) {
			t.Errorf("runtime reason %s belongs to the service", r)
		}
	}
}

// The budgets are the seed's figures.
func TestBudgetsAreTheSeeds(t *testing.T) {
	t.Parallel()
	want := Budgets{FailureContext: 256, Candidates: 5, CandidateContext: 20, CandidatePreview: 64, NearMissQuery: 64, ActualText: 64,
		MatchAbsentPrefix: 65536, OriginalOccurrences: 5, JSONNestingDepth: 64, MaxInteger: 1<<53 - 1, GraphemeWindow: 64}
	if diff := cmp.Diff(want, Budget()); diff != "" {
		t.Errorf("budgets (-want +got):\n%s", diff)
	}
}

func TestStageValidity(t *testing.T) {
	t.Parallel()
	show := func(b *bool) string {
		if b == nil {
			return "null"
		}
		if *b {
			return "true"
		}
		return "false"
	}
	for stage, want := range map[Stage]string{PreconditionGuard: "null/null", ProtocolValidation: "false/null",
		TransactionApplicability: "true/false", CommitGuard: "true/true", Accepted: "true/true"} {
		p, tv, ok := StageValidity(stage)
		if got := show(p) + "/" + show(tv); !ok || got != want {
			t.Errorf("%s: %s, want %s", stage, got, want)
		}
	}
}

// The profile table is the seed's: gates default false, 0.3.0 spans only,
// 0.4.0 both, 0.5.0 spans and span context, 0.2.2 constrains singletons.
func TestProfilesAreTheSeeds(t *testing.T) {
	t.Parallel()
	type row struct {
		sel            string
		span, all, ctx bool
		formats        string
	}
	want := map[string]row{
		"patchdiff-mvp-0.1.0": {SingletonIgnored, false, false, false, "patchdiff-tx/1"},
		"patchdiff-mvp-0.2.0": {SingletonIgnored, false, false, false, "patchdiff-tx/1"},
		"patchdiff-mvp-0.2.1": {SingletonIgnored, false, false, false, "patchdiff-tx/1"},
		"patchdiff-mvp-0.2.2": {SingletonConstrain, false, false, false, "patchdiff-tx/1"},
		"patchdiff-mvp-0.3.0": {SingletonConstrain, true, false, false, "patchdiff-tx/1 patchdiff-tx/2"},
		"patchdiff-mvp-0.4.0": {SingletonConstrain, true, true, false, "patchdiff-tx/1 patchdiff-tx/2 patchdiff-tx/3"},
		"patchdiff-mvp-0.5.0": {SingletonConstrain, true, false, true, "patchdiff-tx/1 patchdiff-tx/2"},
	}
	got := map[string]row{}
	for _, p := range Profiles() {
		got[p.RuntimeVersion] = row{p.SingletonSelectors, p.SpanOperations, p.ReplaceAllOperations, p.SpanContext, strings.Join(p.Formats, " ")}
	}
	if diff := cmp.Diff(want, got, cmp.AllowUnexported(row{})); diff != "" {
		t.Errorf("profiles (-want +got):\n%s", diff)
	}
	for _, p := range Profiles() {
		if want := map[bool]Stage{true: "", false: TransactionApplicability}[p.SpanContext]; p.RuntimeVersion == "patchdiff-mvp-0.3.0" {
			if p.SpanContextRefusedAt != ProtocolValidation {
				t.Errorf("0.3.0 refuses span context at %q, want decoding (DECODE-027)", p.SpanContextRefusedAt)
			}
		} else if p.SpanContextRefusedAt != want {
			t.Errorf("%s refuses span context at %q, want %q", p.RuntimeVersion, p.SpanContextRefusedAt, want)
		}
	}
	if _, ok := LookupProfile(""); ok {
		t.Error("the empty runtime version is a profile")
	}
	if _, ok := LookupProfile("patchdiff-mvp-0.6.0"); ok {
		t.Error("an unknown runtime version is a profile")
	}
	// BATCH-001: the seed's pair, its groups as tx/2 under a span-context profile.
	b := ObservedBatch()
	if b.Format != "patchdiff-observed-batch/1" || b.RuntimeVersion != "patchdiff-observed-batch-r1" || b.GroupFormat != FormatTx2 {
		t.Errorf("observed_batch %+v is not the seed's pair", b)
	}
	if p, ok := LookupProfile(b.GroupRuntimeVersion); !ok || !p.SpanContext || !p.Accepts(b.GroupFormat) {
		t.Errorf("observed_batch groups run under %q, which lacks span context or tx/2", b.GroupRuntimeVersion)
	}
	if _, ok := LookupProfile(b.RuntimeVersion); ok {
		t.Error("the batch runtime_version is a transaction profile")
	}
}

// The embedded data files decode strictly: no member is silently dropped.
func TestDataDecodesStrictly(t *testing.T) {
	t.Parallel()
	for name, c := range map[string]struct {
		data []byte
		into any
	}{
		"labels.json":       {labelsJSON, new(Labels)},
		"profiles.json":     {profilesJSON, new(profilesDoc)},
		"requirements.json": {requirementsJSON, new(index.Index)},
	} {
		dec := json.NewDecoder(bytes.NewReader(c.data))
		dec.DisallowUnknownFields()
		if err := dec.Decode(c.into); err != nil {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// Every label the markdown spells in backticks as a failure reason exists
// in labels.json, so a typo in the spec cannot invent a label.
func TestMarkdownLabelsExist(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile(markdownFile)
	if err != nil {
		t.Fatal(err)
	}
	l := LabelSet()
	known := map[string]bool{}
	for _, r := range append(append(l.FailureReasons, l.ReplayFailureReasons...), l.RuntimeFailureReasons...) {
		known[string(r)] = true
	}
	for _, s := range l.ValidationStages {
		known[string(s.Name)] = true
	}
	for _, c := range l.DiagnosticCodes {
		known[c] = true
	}
	re := regexp.MustCompile("`((?:[a-z]+_)+(?:missing|invalid|found|malformed|absent|ambiguous|mismatch|diverged|error|of_bounds))`|`([A-Z]+(?:_[A-Z]+)+)`")
	for _, m := range re.FindAllStringSubmatch(string(src), -1) {
		label := m[1] + m[2]
		if !known[label] {
			t.Errorf("markdown names %q, which labels.json lacks", label)
		}
	}
}
