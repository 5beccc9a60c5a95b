package gen

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// Area is one thing a generated scenario can exercise, with the spec
// requirements (spec/blockpatch-1.1.md) it aims at. Coverage counts how
// often a campaign's draws hit each area; fuzz/COVERAGE.md is the table.
type Area struct {
	// Name is the generator, knob or mutator, as the table shows it.
	Name string
	// IDs are the requirements a scenario of the area exercises.
	IDs []string
	// Hit reports whether a built scenario belongs to the area.
	Hit func(sc *Scenario) bool
}

func noted(name string) func(*Scenario) bool {
	return func(sc *Scenario) bool { return slices.Contains(sc.Notes, name) }
}

func shapeIs(shape int) func(*Scenario) bool {
	return func(sc *Scenario) bool { return abs(sc.Spec.Shape)%numShapes == shape }
}

// oneTargetSide reports a same-file relocation request that gives only
// one of target_before and target_after, whose rendered context on the
// other side may hold payload bytes (PLAN-046).
func oneTargetSide(sc *Scenario) bool {
	if sc.Protocol != ProtoRequest || !shapeIs(ShapeRelocate)(sc) {
		return false
	}
	req, err := reference.DecodeRequest(sc.Request)
	if err != nil {
		return false
	}
	empty := func(s *string) bool { return s == nil || *s == "" }
	return empty(req.TargetBefore) != empty(req.TargetAfter)
}

func anyFile(f func([]byte) bool) func(*Scenario) bool {
	return func(sc *Scenario) bool {
		for _, d := range sc.Files {
			if f(d) {
				return true
			}
		}
		return false
	}
}

// Areas are the generators, knobs and mutators with the requirements each
// exercises. Every scenario is run through a protocol that compares exit
// status, the one JSON document and the whole tree after every step, so
// the output and no-change rules ride along with all of them ("every
// scenario").
var Areas = func() []Area {
	a := []Area{
		{"every scenario (protocol: exit, one JSON line, tree after each step)",
			[]string{"ERR-001", "ERR-002", "OUT-001", "OUT-002", "OUT-003", "OUT-004", "OUT-005", "OUT-006", "OUT-007", "OUT-008", "OUT-009", "OUT-010", "OUT-012", "OUT-013", "OUT-019", "OUT-020", "CLI-026", "WRITE-001", "WRITE-002", "WRITE-008", "WRITE-009", "SHAPE-005", "MATCH-014", "FMT-017", "OUT-023", "OUT-025"},
			func(*Scenario) bool { return true }},
		{"shape: same-file relocation", []string{"SHAPE-001", "MATCH-002", "MATCH-003", "MATCH-019", "MATCH-020", "OUT-015", "SHAPE-009", "IDEM-002"}, shapeIs(ShapeRelocate)},
		{"shape: cross-file relocation", []string{"SHAPE-004", "WRITE-004", "WRITE-005", "IDEM-011", "FMT-029", "FMT-031", "FMT-032", "PLAN-024"}, shapeIs(ShapeCross)},
		{"shape: insertion", []string{"SHAPE-002", "IDEM-003", "OUT-014", "OUT-016", "PLAN-011", "PLAN-018"}, shapeIs(ShapeInsert)},
		{"shape: deletion", []string{"SHAPE-003", "SHAPE-006", "IDEM-004", "IDEM-005", "IDEM-006", "IDEM-007", "IDEM-008", "PLAN-010"}, shapeIs(ShapeDelete)},
		{"shape: creation", []string{"SHAPE-010", "SHAPE-011", "WRITE-010", "FMT-034", "FMT-035", "OUT-018", "PLAN-019", "PLAN-025", "PLAN-029"}, shapeIs(ShapeCreate)},
		{"shape: removal", []string{"SHAPE-013", "PLAN-020", "PLAN-025"}, shapeIs(ShapeRemove)},
		{"protocol: move request (plan, planned patch, move)", []string{"PLAN-001", "PLAN-005", "PLAN-006", "PLAN-007", "PLAN-008", "PLAN-009", "PLAN-013", "PLAN-014", "PLAN-015", "PLAN-023", "PLAN-026", "PLAN-027", "PLAN-028", "PLAN-030", "PLAN-031", "PLAN-033", "PLAN-034", "PLAN-035", "PLAN-037", "CLI-015", "CLI-016", "OUT-011", "OUT-024"},
			func(sc *Scenario) bool { return sc.Protocol == ProtoRequest }},
		{"same-file move request with one target side", []string{"PLAN-046"}, oneTargetSide},
		{"protocol: planned patch", []string{"PLAN-035", "PLAN-023", "PLAN-024"}, noted("planned patch")},
		{"wrong payload hash", []string{"MATCH-017", "MATCH-018", "PLAN-016", "PLAN-040"}, func(sc *Scenario) bool { return sc.Spec.Hash == 1 }},
		{"-p with extra components", []string{"PATH-009", "PATH-010", "CLI-007"}, func(sc *Scenario) bool { return sc.StripFlag }},
		{"-R", []string{"REV-001", "REV-002", "REV-003", "REV-004", "REV-005", "REV-006", "REV-007", "REV-008", "CLI-011"}, noted("-R")},
		{"tree already holds the outcome", []string{"IDEM-001", "IDEM-009", "IDEM-010", "PLAN-022", "PLAN-038", "OUT-017"}, noted("already done")},
		{"dry_run in the request", []string{"PLAN-036", "CLI-012"}, func(sc *Scenario) bool { return sc.Protocol == ProtoRequest && sc.Spec.DryRun == 1 }},
		{"CRLF or bare CR in files", []string{"MATCH-001", "MATCH-021", "FMT-021"}, anyFile(func(d []byte) bool { return bytes.IndexByte(d, '\r') >= 0 })},
		{"file without a final newline", []string{"FMT-008", "FMT-022", "MATCH-021"}, anyFile(func(d []byte) bool { return len(d) > 0 && d[len(d)-1] != '\n' })},
		{"invalid UTF-8 in files", []string{"PLAN-032", "PLAN-042", "MATCH-001"}, anyFile(func(d []byte) bool { return !isUTF8(d) })},
		{"repeated and overlapping lines", []string{"MATCH-004", "MATCH-005", "MATCH-010", "MATCH-011", "MATCH-012", "MATCH-013"}, anyFile(func(d []byte) bool { return bytes.Count(d, []byte("a\n")) > 1 })},
		{"dev/null as an ordinary path", []string{"FMT-006", "PATH-008"}, func(sc *Scenario) bool { _, ok := sc.Files["dev/null"]; return ok }},
		{"patch via - and stdin", []string{"CLI-002"}, noted("patch via " + DeliverNames[DeliverDash])},
		{"patch via stdin, no path", []string{"CLI-002"}, noted("patch via " + DeliverNames[DeliverStdin])},
		{"patch via -i", []string{"CLI-003", "CLI-006"}, noted("patch via " + DeliverNames[DeliverI])},
		{"patch via --input", []string{"CLI-003"}, noted("patch via " + DeliverNames[DeliverInput])},
		{"patch via a path relative to the shell's folder", []string{"CLI-005"}, noted("patch via " + DeliverNames[DeliverRelative])},
		{"path: absolute", []string{"PATH-001", "PATH-012"}, noted(TrickNames[TrickAbsolute])},
		{"path: .. inside", []string{"PATH-002"}, noted(TrickNames[TrickDotDotInside])},
		{"path: .. leaving and coming back", []string{"PATH-002"}, noted(TrickNames[TrickDotDotEscape])},
		{"path: symlinked folder", []string{"PATH-005"}, noted(TrickNames[TrickSymlinkDir])},
		{"path: symlink to the file", []string{"PATH-005"}, noted(TrickNames[TrickSymlinkFile])},
		{"path: symlink leading outside", []string{"PATH-004"}, noted(TrickNames[TrickSymlinkOutside])},
		{"path: backslash separators", []string{"PATH-003"}, noted(TrickNames[TrickBackslash])},
		{"path: src spelled another way", []string{"PATH-014", "PATH-016", "PATH-011"}, noted(TrickNames[TrickSpellSrc])},
		{"path: dst spelled another way", []string{"PATH-014", "PATH-016", "PATH-011"}, noted(TrickNames[TrickSpellDst])},
		{"path: dst a hard link to src", []string{"PATH-016", "WRITE-003"}, func(sc *Scenario) bool {
			_, ok := sc.Extra[linkedDst]
			return ok
		}},
		{"source in a read-only folder (write fails midway)", []string{"WRITE-001", "WRITE-004", "ERR-003"}, noted(EnvNames[EnvReadOnly])},
		{"hard link to the written file", []string{"WRITE-003", "WRITE-011"}, noted(EnvNames[EnvHardLink])},
		{"version other than 1", []string{"FMT-002"}, func(sc *Scenario) bool {
			return slices.ContainsFunc(sc.Notes, func(n string) bool { return strings.HasPrefix(n, "version ") })
		}},
		{"blank line in a hunk, counted", []string{"FMT-018", "FMT-025"}, noted("blank line in a hunk, counted")},
		{"trap: target anchor twice", []string{"MATCH-009", "MATCH-003", "PLAN-041"}, noted("trap: the target anchor occurs twice")},
		{"trap: source twice", []string{"MATCH-005", "MATCH-002"}, noted("trap: the source occurs twice")},
		{"trap: target anchor 13 times", []string{"MATCH-009", "MATCH-010"}, noted("trap: the target anchor occurs 13 times")},
		{"trap: source 13 times", []string{"MATCH-005", "MATCH-010"}, noted("trap: the source occurs 13 times")},
		{"trap: creation onto a file with other bytes", []string{"SHAPE-012"}, noted("trap: the created file exists with other bytes")},
		{"trap: removal of a file with other bytes", []string{"SHAPE-014"}, noted("trap: the removed file holds other bytes")},
		{"trap: payload at the target and still at the source", []string{"IDEM-011", "IDEM-012", "IDEM-013", "IDEM-002"}, noted("trap: the payload is at the target and still at the source")},
		{"trap: removed file already gone", []string{"IDEM-010", "PLAN-039", "PATH-007"}, noted("trap: the removed file is already gone")},
		{"trap: final text twice", []string{"IDEM-002", "IDEM-003", "PLAN-045", "PLAN-041"}, noted("trap: the final text occurs twice")},
		{"large file: a pad of 64 KiB to 4 MiB (--large only)", []string{"MATCH-001", "MATCH-004", "MATCH-010", "PLAN-027"}, func(sc *Scenario) bool { return sc.Spec.Pad != 0 }},
		{"empty payload in an in-file shape", []string{"SHAPE-007"}, func(sc *Scenario) bool {
			m := sc.Move
			return sc.Protocol == ProtoPatch && m != nil && m.Shape != reference.ShapeCreate && m.Shape != reference.ShapeRemove && len(m.Payload()) == 0
		}},
		{"target hunk with no context in an existing file", []string{"SHAPE-008"}, func(sc *Scenario) bool {
			m := sc.Move
			if sc.Protocol != ProtoPatch || m == nil || m.Target == nil {
				return false
			}
			_, exists := sc.Files[m.Dst]
			return exists && len(m.Target.Before)+len(m.Target.After) == 0
		}},
	}
	mutatorIDs := map[string][]string{
		"flip-byte": {"FMT-001", "FMT-003", "FMT-012"}, "drop-line": {"FMT-003", "FMT-016"}, "duplicate-line": {"FMT-003", "FMT-016", "FMT-026"},
		"change-count": {"FMT-015", "FMT-016", "FMT-026"}, "change-hash": {"FMT-011", "MATCH-017"}, "blank-line-in-hunk": {"FMT-018", "FMT-024", "FMT-025"},
		"swap-sections": {"FMT-029", "FMT-031"}, "change-role": {"FMT-029", "FMT-030"}, "crlf-header": {"FMT-007"},
		"flip-payload-byte": {"MATCH-016", "MATCH-017"}, "toggle-no-newline-marker": {"FMT-022", "FMT-023"}, "flip-context-byte": {"MATCH-006", "MATCH-007", "MATCH-008"},
		"change-hunk-id": {"FMT-013"}, "add-metadata": {"FMT-009", "FMT-010"}, "swap-hunks": {"FMT-019", "FMT-027"}, "drop-final-newline": {"FMT-008"},
		"path-mismatch": {"FMT-004"}, "drop-path-prefix": {"FMT-005", "FMT-004"}, "context-between-payload": {"FMT-020"}, "third-section": {"FMT-028"},
		"both-dev-null": {"FMT-033"}, "control-in-path": {"PATH-013", "FMT-004", "FMT-037"}, "invalid-utf8-in-path": {"FMT-036"}, "change-label": {"FMT-014"},
		"folder-as-path": {"PATH-006"}, "structure-then-control": {"FMT-037", "FMT-013", "FMT-033", "FMT-005", "PATH-013"}, "folder-endpoint": {"PATH-006", "PLAN-044"}, "control-in-endpoint": {"PLAN-044"},
		"unknown-member": {"PLAN-002"}, "number-member": {"PLAN-004"}, "drop-member": {"PLAN-005", "PLAN-012"}, "duplicate-member": {"PLAN-003"},
		"truncate-json": {"PLAN-003"}, "not-an-object": {"PLAN-001", "PLAN-003"}, "empty-member": {"PLAN-005", "PLAN-013"}, "bad-mode": {"PLAN-021"},
		"lone-surrogate": {"PLAN-043"}, "trailing-garbage": {"PLAN-003"}, "null-endpoint": {"PLAN-017", "PLAN-005"},
	}
	for _, name := range PatchMutators {
		a = append(a, Area{"patch mutator " + name, mutatorIDs[name], func(sc *Scenario) bool {
			return sc.Protocol == ProtoPatch && slices.Contains(sc.Notes, name)
		}})
	}
	for _, name := range RequestMutators {
		a = append(a, Area{"request mutator " + name, mutatorIDs[name], func(sc *Scenario) bool {
			return sc.Protocol == ProtoRequest && slices.Contains(sc.Notes, name)
		}})
	}
	return a
}()

func isUTF8(d []byte) bool { return utf8.Valid(d) }

// Coverage counts, for each area, how many of the iterations 0..n-1 of a
// campaign at seed with options o hit it.
func Coverage(seed uint64, n int, o Options) []int {
	counts := make([]int, len(Areas))
	for k := range n {
		sc := Build(Random(NewRand(seed, uint64(k)), o))
		for i, a := range Areas {
			if a.Hit(sc) {
				counts[i]++
			}
		}
	}
	return counts
}

// CoverageSeed is the seed the committed table is drawn with.
const CoverageSeed = 20251202

// CoverageTable renders the coverage of the requirements ids (spec order)
// as markdown: per requirement, the areas that exercise it with their
// frequency per 1,000 iterations of a campaign at CoverageSeed (the
// campaign's options), then the requirements no area exercises.
func CoverageTable(ids []string, o Options) string {
	const n = 1000
	counts := Coverage(CoverageSeed, n, o)
	byID := map[string][]int{}
	for i, a := range Areas {
		for _, id := range a.IDs {
			byID[id] = append(byID[id], i)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "| requirement | generators and mutators (per 1,000 iterations, seed %d) |\n| --- | --- |\n", CoverageSeed)
	var none []string
	for _, id := range ids {
		as := byID[id]
		if len(as) == 0 {
			none = append(none, id)
			continue
		}
		parts := make([]string, len(as))
		for j, i := range as {
			parts[j] = fmt.Sprintf("%s (%d)", Areas[i].Name, counts[i]*1000/n)
		}
		fmt.Fprintf(&b, "| %s | %s |\n", id, strings.Join(parts, "; "))
	}
	fmt.Fprintf(&b, "\n%d of %d requirements are exercised by a generator. No generator (%d):\n\n", len(ids)-len(none), len(ids), len(none))
	for i := 0; i < len(none); i += 10 {
		b.WriteString(strings.Join(none[i:min(i+10, len(none))], ", ") + "\n")
	}
	var unknown []string
	for id := range byID {
		if !slices.Contains(ids, id) {
			unknown = append(unknown, id)
		}
	}
	slices.Sort(unknown)
	for _, id := range unknown {
		fmt.Fprintf(&b, "\nunknown requirement %s named by an area\n", id)
	}
	return b.String()
}
