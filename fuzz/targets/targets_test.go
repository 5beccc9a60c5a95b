package targets

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"hash/fnv"
	"slices"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/gen"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

// FuzzParse: Parse never panics and fails only with parse_error or
// invalid_path; an accepted patch renders with Format into a document that
// parses back to the same Patch, and rendering that again gives the same
// bytes (Format is canonical).
func FuzzParse(f *testing.F) {
	for _, p := range corpusPatches(f) {
		f.Add(p)
	}
	for _, p := range generatedPatches(40) {
		f.Add(p)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		p, err := reference.Parse(data)
		if err != nil {
			if c := reference.CodeOf(err); c != reference.ParseError && c != reference.InvalidPath {
				t.Fatalf("Parse failed with %s (%v), want parse_error or invalid_path", c, err)
			}
			return
		}
		text := reference.Format(p)
		q, err := reference.Parse(text)
		if err != nil {
			t.Fatalf("the rendered patch does not parse: %v\ninput:\n%s\nrendered:\n%s", err, gen.ShowText(data, "  | "), gen.ShowText(text, "  | "))
		}
		if diff := cmp.Diff(p, q, gen.RoundTrip(p)...); diff != "" {
			t.Fatalf("parse(format(p)) != p (-p +reparsed):\n%s\nrendered:\n%s", diff, gen.ShowText(text, "  | "))
		}
		if again := reference.Format(q); !bytes.Equal(again, text) {
			t.Fatalf("Format is not a fixed point:\n%s\nthen:\n%s", gen.ShowText(text, "  | "), gen.ShowText(again, "  | "))
		}
	})
}

// naiveFind is the quadratic oracle of Find: try every offset, count
// overlapping hits up to the limit, keep the first ranges.
func naiveFind(data, needle []byte) reference.Matches {
	var m reference.Matches
	for i := 0; i+len(needle) <= len(data); i++ {
		if !bytes.Equal(data[i:i+len(needle)], needle) {
			continue
		}
		if m.Count == reference.MatchCountLimit {
			m.Truncated = true
			break
		}
		m.Count++
		if len(m.Ranges) < reference.MaxReportedRanges {
			m.Ranges = append(m.Ranges, reference.Range{Start: i, End: i + len(needle)})
		}
	}
	return m
}

// naiveLine is the 1-based line of byte offset i.
func naiveLine(data []byte, i int) int { return 1 + bytes.Count(data[:i], []byte{'\n'}) }

// FuzzFind: Find agrees with the quadratic oracle on the count, the
// truncation flag and the reported ranges, and LineRanges gives the lines
// of each range's first and last byte.
func FuzzFind(f *testing.F) {
	f.Add([]byte("aaa"), []byte("aa"))
	f.Add([]byte("abababa"), []byte("aba"))
	f.Add([]byte("a\r\na\r\na\r\n"), []byte("\r\na"))
	f.Add(bytes.Repeat([]byte("a\n"), 120), []byte("a\n"))
	f.Add(bytes.Repeat([]byte("a"), 150), []byte(""))
	f.Add([]byte("x\ny\n\nz"), []byte("\n"))
	f.Add([]byte("\xff\xfe\xff\xfe\xff"), []byte("\xff\xfe\xff"))
	f.Fuzz(func(t *testing.T, data, needle []byte) {
		if len(data) > 4096 || len(needle) > 64 {
			return // the oracle is quadratic
		}
		want, got := naiveFind(data, needle), reference.Find(data, needle)
		if diff := cmp.Diff(want, got, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("Find(%q, %q) (-oracle +got):\n%s", data, needle, diff)
		}
		if got.Count > 1 != !got.Unique() && got.Count != 0 {
			t.Fatalf("Unique() = %v with count %d", got.Unique(), got.Count)
		}
		lines := reference.LineRanges(data, got.Ranges)
		if len(lines) != len(got.Ranges) {
			t.Fatalf("LineRanges gave %d ranges for %d", len(lines), len(got.Ranges))
		}
		for i, r := range got.Ranges {
			want := reference.Range{Start: naiveLine(data, r.Start), End: naiveLine(data, max(r.End-1, r.Start))}
			if lines[i] != want {
				t.Fatalf("LineRanges(%q)[%d] for %v = %v, want %v", data, i, r, lines[i], want)
			}
		}
	})
}

// seedOf turns fuzz bytes into a generator seed.
func seedOf(data []byte) uint64 {
	h := fnv.New64a()
	h.Write(data)
	return h.Sum64()
}

// FuzzPlanApply: from the fuzz bytes a generator seed, from the seed a
// tree and a move request. When the reference plans it, the patch parses,
// renders back to itself, checks and applies to the tree the plan
// promised; a retry is already_applied and changes nothing; and -R, when it
// succeeds, restores the original tree. A refused request fails with a spec
// code other than unexpected_error (the planner's self-check).
func FuzzPlanApply(f *testing.F) {
	for i := range 16 {
		f.Add(binary.LittleEndian.AppendUint64(nil, uint64(i)))
	}
	f.Add([]byte("crlf"))
	f.Add([]byte("cross-file"))
	f.Fuzz(func(t *testing.T, data []byte) {
		seed := seedOf(data)
		sc := gen.Build(gen.Random(gen.NewRand(seed, 0), gen.Options{Protocols: []int{gen.ProtoRequest}, MutationRate: -1}))
		tree := sc.Files
		req, err := reference.DecodeRequest(sc.Request)
		if err != nil {
			return // the request layer has its own tests; planning is the point here
		}
		plan, err := reference.PlanRequest(req, tree)
		if err != nil {
			if c := reference.CodeOf(err); c == reference.UnexpectedError || !slices.Contains(reference.Codes(), c) {
				t.Fatalf("seed %d: plan failed with %s: %v\n%s", seed, c, err, sc)
			}
			return
		}
		patch := []byte(*plan.Result.Patch)
		fail := func(format string, args ...any) {
			t.Helper()
			t.Fatalf("seed %d: "+format+"\n%s", append(append([]any{seed}, args...), sc)...)
		}
		p, err := reference.Parse(patch)
		if err != nil {
			fail("the planned patch does not parse: %v", err)
		}
		if !bytes.Equal(reference.Format(p), patch) {
			fail("the planned patch is not in canonical form:\n%s", reference.Format(p))
		}
		fwd, err := reference.Check(patch, tree, reference.Options{Strip: 1})
		if err != nil {
			fail("check of the planned patch: %v", err)
		}
		after := tree.Apply(fwd)
		if d := treeDiff(tree.Apply(plan), after); d != "" || fwd.Result.Status != plan.Result.Status {
			fail("applying the patch (%s) differs from the move (%s): %s", fwd.Result.Status, plan.Result.Status, d)
		}
		if fwd.Result.Status != reference.StatusApplied {
			if len(fwd.Changes) != 0 {
				fail("status %s with changes", fwd.Result.Status)
			}
			return
		}
		// With upstream's minimal context a retry cannot always prove the
		// final state: it may refuse, and 1.1.0 may even apply its own
		// planned patch a second time (observed; fuzz/props checks when
		// behavior.md's idempotence rules decide it). A retry that reports
		// no move must change nothing.
		retry, err := reference.Check(patch, after, reference.Options{Strip: 1})
		if err == nil && retry.Result.Status != reference.StatusApplied && len(retry.Changes) != 0 {
			fail("retry: %v with changes", describe(retry, err))
		}
		rev, err := reference.Check(patch, after, reference.Options{Strip: 1, Reverse: true})
		if err != nil {
			return // -R may refuse when the source context is not unique afterwards
		}
		m, err := p.Resolve(1)
		if err != nil {
			fail("the planned patch does not resolve: %v", err)
		}
		if gen.SplitsSourceAnchors(m, fwd.Result.Moves[0]) {
			return // -R matches the split source anchors elsewhere, as upstream does
		}
		if rev.Result.Status == reference.StatusAlreadyApplied && len(rev.Changes) == 0 {
			// behavior.md's idempotence rule: the reversed insertion's
			// text, the source hunk's context around the payload, already
			// occurs exactly once in the source file after the move, so -R
			// is already applied whatever the tree was before.
			if m.Source == nil || !occursOnce(after[m.Src], slices.Concat(m.Source.Before, m.Source.Payload, m.Source.After)) {
				fail("-R is already_applied, but the source hunk's text does not occur once in %s after the move", m.Src)
			}
			return
		}
		if d := treeDiff(tree, after.Apply(rev)); d != "" || rev.Result.Status != reference.StatusApplied {
			fail("-R succeeded (%s) without restoring the tree: %s", rev.Result.Status, d)
		}
	})
}

// occursOnce reports whether text occurs in data at exactly one offset,
// counting occurrences that overlap.
func occursOnce(data, text []byte) bool {
	i := bytes.Index(data, text)
	return i >= 0 && bytes.LastIndex(data, text) == i
}

func describe(p *reference.Plan, err error) string {
	if err != nil {
		return string(reference.CodeOf(err)) + ": " + err.Error()
	}
	return string(p.Result.Status)
}

func treeDiff(want, got reference.MapFiles) string {
	var out []string
	for p, w := range want {
		if g, ok := got[p]; !ok {
			out = append(out, p+" missing")
		} else if !bytes.Equal(w, g) {
			out = append(out, p+" differs: "+strconvQuote(w)+" != "+strconvQuote(g))
		}
	}
	for p := range got {
		if _, ok := want[p]; !ok {
			out = append(out, p+" extra")
		}
	}
	slices.Sort(out)
	return strings.Join(out, "; ")
}

func strconvQuote(b []byte) string { q, _ := json.Marshal(string(b)); return string(q) }

// cliFixtures are the files each FuzzCLIArgs run starts with, so that
// argument lists naming them reach past the argument parser.
var cliFixtures = reference.MapFiles{
	"a.txt": []byte("one\ntwo\nthree\n"),
	"p.blockpatch": []byte("diff --blockpatch a/a.txt b/a.txt\nblockpatch version 1\n" +
		"blockpatch move id=move-1 payload-sha256=27dd8ed44a83ff94d557f9fd0412ed5a8cbca69ea04922d88c01184a07300a5a\n" +
		"--- a/a.txt\n+++ b/a.txt\n\n@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n one\n-two\n three\n"),
	"req.json": []byte(`{"src":"a.txt","src_start":"two","src_end":"\n","target_before":"one\n"}`),
}

// safeArg keeps a fuzzed argument inside the run's temporary folder: no
// slash or backslash (so no absolute path and no way up), no "..".
func safeArg(a string) string {
	a = strings.NewReplacer("/", "_", "\\", "_").Replace(a)
	return strings.ReplaceAll(a, "..", "_")
}

// FuzzCLIArgs: the reference CLI, run in process in a temporary folder on
// any argument list (NUL-separated in the fuzz input) and any stdin, never
// panics, exits 0 or 1, and on failure prints either `blockpatch: ...` or
// one JSON error line whose code is a spec code other than unexpected_error.
// With --json-output added after the command, every failure is such a JSON
// line.
func FuzzCLIArgs(f *testing.F) {
	for _, s := range []string{
		"check\x00p.blockpatch", "apply\x00p.blockpatch\x00-R", "apply\x00-i\x00p.blockpatch\x00-p\x001",
		"apply\x00--strip=2\x00p.blockpatch", "check\x00-p\x00--reverse", "plan\x00--json\x00req.json",
		"move\x00--json\x00-\x00--dry-run", "move\x00--src\x00a.txt\x00--src-start\x00two\x00--src-end\x00o\x00--target-after\x00one",
		"version\x00--json-output", "help", "--help", "check\x00--\x00-R", "apply\x00--cwd", "frobnicate",
		"apply\x00--explain\x00-\x00-\x00", "plan\x00--mode\x00create_file", "check\x00-p-1\x00p.blockpatch",
	} {
		f.Add([]byte(s), []byte{})
	}
	f.Add([]byte("check\x00-"), cliFixtures["p.blockpatch"])
	f.Add([]byte("plan\x00--json\x00-"), cliFixtures["req.json"])
	f.Fuzz(func(t *testing.T, argv, stdin []byte) {
		if len(argv) > 512 || len(stdin) > 4096 {
			return
		}
		var args []string
		if len(argv) > 0 {
			args = strings.Split(string(argv), "\x00")
		}
		for i := range args {
			args[i] = safeArg(args[i])
		}
		run := func(args []string) {
			dir := t.TempDir()
			writeFixtures(t, dir)
			var stdout, stderr bytes.Buffer
			code := cli.Run(args, cli.Env{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Dir: dir})
			checkOutcome(t, args, code, stdout.Bytes(), stderr.Bytes())
		}
		run(args)
		if len(args) > 0 && args[0] != "--" {
			withJSON := append([]string{args[0], "--json-output"}, args[1:]...)
			dir := t.TempDir()
			writeFixtures(t, dir)
			var stdout, stderr bytes.Buffer
			code := cli.Run(withJSON, cli.Env{Stdin: bytes.NewReader(stdin), Stdout: &stdout, Stderr: &stderr, Dir: dir})
			checkOutcome(t, withJSON, code, stdout.Bytes(), stderr.Bytes())
			if code != 0 && !bytes.HasPrefix(stderr.Bytes(), []byte("{")) {
				t.Fatalf("%q: failed without a JSON error although --json-output was given: %q", withJSON, stderr.Bytes())
			}
		}
	})
}

func writeFixtures(t *testing.T, dir string) {
	for name, data := range cliFixtures {
		if err := osWriteFile(dir, name, data); err != nil {
			t.Fatal(err)
		}
	}
}

func checkOutcome(t *testing.T, args []string, code int, stdout, stderr []byte) {
	t.Helper()
	switch code {
	case 0:
		return
	case 1:
	default:
		t.Fatalf("%q: exit status %d", args, code)
	}
	if !bytes.HasPrefix(stderr, []byte("{")) {
		if !bytes.HasPrefix(stderr, []byte("blockpatch: ")) || !bytes.HasSuffix(stderr, []byte("\n")) {
			t.Fatalf("%q: failure without `blockpatch: <message>`: %q", args, stderr)
		}
		return
	}
	if len(stdout) != 0 {
		t.Fatalf("%q: a JSON failure printed on stdout too: %q", args, stdout)
	}
	if bytes.Count(stderr, []byte("\n")) != 1 || !bytes.HasSuffix(stderr, []byte("\n")) {
		t.Fatalf("%q: the JSON error is not one line: %q", args, stderr)
	}
	var doc struct {
		OK    *bool `json:"ok"`
		Error *struct {
			Code    reference.Code `json:"code"`
			Message string         `json:"message"`
		} `json:"error"`
	}
	if err := json.Unmarshal(stderr, &doc); err != nil || doc.OK == nil || *doc.OK || doc.Error == nil {
		t.Fatalf("%q: not a JSON error object: %q", args, stderr)
	}
	if !slices.Contains(reference.Codes(), doc.Error.Code) || doc.Error.Code == reference.UnexpectedError || doc.Error.Message == "" {
		t.Fatalf("%q: error code %q (message %q)", args, doc.Error.Code, doc.Error.Message)
	}
}
