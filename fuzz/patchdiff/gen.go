package pdfuzz

import (
	"encoding/json"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Vocab is the generator's alphabet: few tokens, so matches repeat and
// overlap ("a", "aa"), with line ends, tabs, a stray CR, a precomposed and a
// decomposed é, a supplementary character, a zero-width joiner and a flag
// (two regional indicators), so offsets in code points, canonicalization
// and grapheme clusters are all exercised. Token 0 is the simplest.
var Vocab = []string{"a", "b", "aa", "ab", "\n", " ", "\t", "é", "e\u0301", "😀", "\u200d", "\r", "\U0001F1EB\U0001F1F7", "<&>"}

// Spec is a generated runtime call as a few small numbers, which Random
// draws and Shrink makes smaller; Build turns it into a Request.
type Spec struct {
	// Profile indexes pdspec.ProfileNames; Format is 1, 2 or 3.
	Profile, Format int
	// Target lists Vocab tokens; Newline writes its "\n" as LF (0), CRLF
	// (1) or CR (2).
	Target  []int
	Newline int
	Ops     []Op
	// Guard: 0 expected_target_version, 1 expected_current_hash, 2 both,
	// 3 none, 4 a wrong version, 5 a wrong hash.
	Guard int
	// Scope, when set, are scope bounds drawn inside the target.
	Scope *[2]int
	// Quiet sends collect_warnings false.
	Quiet bool
	// Mutation damages the transaction text (0: none) at MutAt.
	Mutation, MutAt int
}

// Op is one operation, drawn against the buffer the generator expects
// the earlier operations to leave.
type Op struct {
	// Kind: 0 match, 1 span (tx/2), 2 replace_all (tx/3).
	Kind int
	// Start and Len place the match or span in that buffer.
	Start, Len int
	Replace    []int
	// Select: 0 none, 1 the occurrence's index, 2 anchor_before,
	// 3 anchor_after, 4 an index past the last, 5 region_hint.
	Select int
	// Wrong spoils a span: its expected_text (Len even) or its end, past
	// the buffer (Len odd). Before and After are one more than the
	// lengths of its span context (0: none).
	Wrong         bool
	Before, After int
	// CRLF writes the operation's line ends as CRLF.
	CRLF bool
	// ChangeID gives change_id "c<ChangeID>" (0: the default).
	ChangeID int
}

// mutations are the ways Mutation damages a transaction text.
const mutations = 9

// Random draws a Spec from r, biased toward profiles and formats that go
// together and toward accepted transactions.
func Random(r *rand.Rand) Spec {
	profiles := pdspec.ProfileNames()
	s := Spec{Profile: r.IntN(len(profiles)), Newline: pick(r, 0, 0, 1, 2)}
	p, _ := pdspec.LookupProfile(profiles[s.Profile])
	s.Format = 1
	if r.IntN(10) < 9 {
		f := p.Formats[r.IntN(len(p.Formats))]
		s.Format = int(f[len(f)-1] - '0')
	} else {
		s.Format = 1 + r.IntN(3)
	}
	for range r.IntN(14) {
		s.Target = append(s.Target, token(r))
	}
	nops := 1 + r.IntN(3)
	if s.Format == 3 && r.IntN(10) < 9 {
		nops = 1
	}
	for range nops {
		op := Op{Kind: s.Format - 1, Start: r.IntN(32), Len: r.IntN(6), Select: pick(r, 0, 0, 0, 1, 1, 2, 3, 4, 5)}
		if s.Format == 2 && r.IntN(2) == 0 {
			op.Kind = 0
		}
		for range r.IntN(4) {
			op.Replace = append(op.Replace, token(r))
		}
		op.Wrong = r.IntN(8) == 0
		if r.IntN(3) == 0 {
			op.Before, op.After = r.IntN(4), r.IntN(4)
		}
		op.CRLF = r.IntN(5) == 0
		if r.IntN(6) == 0 {
			op.ChangeID = 1 + r.IntN(2)
		}
		s.Ops = append(s.Ops, op)
	}
	s.Guard = pick(r, 0, 0, 0, 1, 1, 2, 3, 4, 5)
	if r.IntN(5) == 0 {
		s.Scope = &[2]int{r.IntN(16), r.IntN(16)}
	}
	s.Quiet = r.IntN(5) == 0
	if r.IntN(6) == 0 {
		s.Mutation, s.MutAt = 1+r.IntN(mutations), r.IntN(1<<10)
	}
	return s
}

// NewRand returns the generator's source for stream k of seed.
func NewRand(seed uint64, k int64) *rand.Rand { return rand.New(rand.NewPCG(seed, uint64(k))) }

func pick(r *rand.Rand, from ...int) int { return from[r.IntN(len(from))] }

// token favours the first tokens, so texts repeat.
func token(r *rand.Rand) int {
	if r.IntN(2) == 0 {
		return r.IntN(4)
	}
	return r.IntN(len(Vocab))
}

// Call is a built Spec: the request and what the generator knows of it.
type Call struct {
	Request pd.Request
	// Start is the canonical target.
	Start string
	// Transaction is the transaction as members (before any mutation), for
	// properties that rewrite it.
	Transaction map[string]any
}

// version is the target version every call sends.
const version = 7

func text(toks []int, newline string) string {
	var b strings.Builder
	for _, t := range toks {
		v := Vocab[abs(t)%len(Vocab)]
		if v == "\n" {
			v = newline
		}
		b.WriteString(v)
	}
	return b.String()
}

func abs(v int) int {
	if v < 0 {
		return -v
	}
	return v
}

// occurrences lists the starts of every occurrence of m in buf, the
// overlapping ones included.
func occurrences(buf, m []rune) []int {
	var out []int
	for i := 0; len(m) > 0 && i+len(m) <= len(buf); i++ {
		if slices.Equal(buf[i:i+len(m)], m) {
			out = append(out, i)
		}
	}
	return out
}

// Build turns s into a request. It keeps a model of the buffer, applying
// each operation where the generator meant it to land, so that later
// operations and spans are drawn against the text they will most likely
// meet.
func Build(s Spec) Call {
	profiles := pdspec.ProfileNames()
	newline := []string{"\n", "\r\n", "\r"}[abs(s.Newline)%3]
	target := text(s.Target, newline)
	start := pdcases.Canonicalize(target)
	buf := []rune(start)
	format := "patchdiff-tx/" + strconv.Itoa(1+abs(s.Format-1)%3)
	var ops []any
	for i, op := range s.Ops {
		nl := "\n"
		if op.CRLF {
			nl = "\r\n"
		}
		repl := text(op.Replace, nl)
		canonRepl := []rune(pdcases.Canonicalize(repl))
		m := map[string]any{}
		if op.ChangeID > 0 {
			m["change_id"] = "c" + strconv.Itoa(op.ChangeID)
		}
		kind := abs(op.Kind) % 3
		if format == "patchdiff-tx/1" {
			kind = 0
		}
		if format == "patchdiff-tx/3" {
			kind = 2
		}
		n := len(buf)
		switch kind {
		case 0:
			from, l := 0, 1
			if n > 0 {
				from = abs(op.Start) % n
				l = 1 + abs(op.Len)%min(8, n-from)
			}
			match := []rune("a")
			if n > 0 {
				match = slices.Clone(buf[from : from+l])
			}
			m["match"] = strings.ReplaceAll(string(match), "\n", nl)
			m["replace"] = repl
			occ := occurrences(buf, match)
			idx := slices.Index(occ, from) + 1
			switch abs(op.Select) % 6 {
			case 1:
				m["occurrence_index"] = max(idx, 1)
			case 2:
				if a := string(buf[max(0, from-2):from]); a != "" {
					m["anchor_before"] = a
				}
			case 3:
				if a := string(buf[min(n, from+l):min(n, from+l+2)]); a != "" {
					m["anchor_after"] = a
				}
			case 4:
				m["occurrence_index"] = len(occ) + 1
			case 5:
				m["region_hint"] = "near the start"
			}
			if format != "patchdiff-tx/1" {
				m["op"] = "match"
			}
			if n > 0 {
				buf = slices.Concat(buf[:from], canonRepl, buf[from+l:])
			}
		case 1:
			from := abs(op.Start) % (n + 1)
			to := from + abs(op.Len)%(n-from+1)
			expected := string(buf[from:to])
			m["op"], m["start"], m["end"], m["expected_text"], m["replace"] = "span", from, to, expected, repl
			switch {
			case op.Wrong && abs(op.Len)%2 == 0:
				m["expected_text"] = expected + "a"
			case op.Wrong:
				m["end"] = n + 1 // past the buffer
			}
			if op.Before > 0 {
				m["expected_before"] = string(buf[max(0, from-op.Before+1):from])
			}
			if op.After > 0 {
				m["expected_after"] = string(buf[to:min(n, to+op.After-1)])
			}
			buf = slices.Concat(buf[:from], canonRepl, buf[to:])
		default:
			m["op"], m["replace"] = "replace_all", repl
			buf = canonRepl
		}
		_ = i
		ops = append(ops, m)
	}
	tx := map[string]any{"format": format, "target_file_id": "target-1", "intent": "fuzz"}
	if format == "patchdiff-tx/1" {
		tx["edits"] = ops
	} else {
		tx["operations"] = ops
	}
	switch abs(s.Guard) % 6 {
	case 0:
		tx["expected_target_version"] = version
	case 1:
		tx["expected_current_hash"] = pdcases.SHA256(start)
	case 2:
		tx["expected_target_version"] = version
		tx["expected_current_hash"] = pdcases.SHA256(start)
	case 4:
		tx["expected_target_version"] = version - 1
	case 5:
		tx["expected_current_hash"] = pdcases.SHA256(start + "x")
	}
	v := int64(version)
	req := pd.Request{RuntimeVersion: profiles[abs(s.Profile)%len(profiles)], Target: target, TargetVersion: &v,
		Transaction: Encode(tx), CollectWarnings: !s.Quiet}
	if s.Scope != nil {
		n := len([]rune(start))
		a := abs(s.Scope[0]) % (n + 1)
		req.Scope = &pd.Scope{Start: int64(a), End: int64(a + abs(s.Scope[1])%(n-a+1))}
	}
	if s.Mutation != 0 {
		req.Transaction = mutate(req.Transaction, abs(s.Mutation)%mutations, abs(s.MutAt))
	}
	return Call{Request: req, Start: start, Transaction: tx}
}

// Encode writes a transaction as JSON text, members sorted.
func Encode(tx map[string]any) string {
	b, err := json.Marshal(tx)
	if err != nil {
		panic(err) // only strings, numbers, maps and lists
	}
	return string(b)
}

// mutate damages a transaction text in way op at position at, keeping it
// valid UTF-8 so a case file can hold it.
func mutate(tx string, op, at int) string {
	ascii := func() int { // an ASCII position at or after at, or -1
		for i := range len(tx) {
			if j := (at + i) % len(tx); tx[j] < 0x80 {
				return j
			}
		}
		return -1
	}
	switch op {
	case 0: // change an ASCII byte
		if j := ascii(); j >= 0 {
			const bytes = "{}[]\",:0a\\ "
			return tx[:j] + string(bytes[at%len(bytes)]) + tx[j+1:]
		}
	case 1: // drop an ASCII byte
		if j := ascii(); j >= 0 {
			return tx[:j] + tx[j+1:]
		}
	case 2: // truncate
		return tx[:ascii()+1]
	case 3:
		return strings.Replace(tx, "{", `{"bogus":1,`, 1)
	case 4:
		return strings.Replace(tx, "{", `{"format":"patchdiff-tx/1",`, 1)
	case 5:
		return strings.Replace(tx, `"fuzz"`, `"fu\u0000zz"`, 1)
	case 6:
		return strings.Replace(tx, `"fuzz"`, `"fu\ud800zz"`, 1)
	case 7:
		return strings.Replace(tx, `"intent":"fuzz"`, `"intent":""`, 1)
	case 8:
		return tx + " x"
	}
	return tx
}

// Shrink lists Specs smaller than s, the most promising first: no
// mutation, fewer operations, a shorter target, simpler tokens, smaller
// numbers, fewer options. Profile and Format are kept.
func Shrink(s Spec) []Spec {
	var out []Spec
	try := func(c Spec) {
		if size(c) < size(s) {
			out = append(out, c)
		}
	}
	clone := func() Spec {
		c := s
		c.Target = slices.Clone(s.Target)
		c.Ops = slices.Clone(s.Ops)
		for i := range c.Ops {
			c.Ops[i].Replace = slices.Clone(s.Ops[i].Replace)
		}
		if s.Scope != nil {
			sc := *s.Scope
			c.Scope = &sc
		}
		return c
	}
	if s.Mutation != 0 {
		c := clone()
		c.Mutation, c.MutAt = 0, 0
		try(c)
	}
	for i := range s.Ops {
		if len(s.Ops) > 1 {
			c := clone()
			c.Ops = slices.Delete(c.Ops, i, i+1)
			try(c)
		}
	}
	if n := len(s.Target); n >= 4 {
		c := clone()
		c.Target = c.Target[:n/2]
		try(c)
		c = clone()
		c.Target = c.Target[n/2:]
		try(c)
	}
	for i := range s.Target {
		c := clone()
		c.Target = slices.Delete(c.Target, i, i+1)
		try(c)
	}
	for i, t := range s.Target {
		if t != 0 {
			c := clone()
			c.Target[i] = 0
			try(c)
		}
	}
	for i, op := range s.Ops {
		for j := range op.Replace {
			c := clone()
			c.Ops[i].Replace = slices.Delete(c.Ops[i].Replace, j, j+1)
			try(c)
		}
		for _, f := range []func(*Op) *int{
			func(o *Op) *int { return &o.Start }, func(o *Op) *int { return &o.Len },
			func(o *Op) *int { return &o.Select }, func(o *Op) *int { return &o.Before },
			func(o *Op) *int { return &o.After }, func(o *Op) *int { return &o.ChangeID },
		} {
			if v := *f(&s.Ops[i]); v != 0 {
				for _, w := range []int{0, v / 2, v - 1} {
					c := clone()
					*f(&c.Ops[i]) = w
					try(c)
				}
			}
		}
		if op.Wrong || op.CRLF {
			c := clone()
			c.Ops[i].Wrong, c.Ops[i].CRLF = false, false
			try(c)
		}
	}
	if s.Scope != nil {
		c := clone()
		c.Scope = nil
		try(c)
	}
	for _, f := range []func(*Spec) *int{
		func(c *Spec) *int { return &c.Guard }, func(c *Spec) *int { return &c.Newline }, func(c *Spec) *int { return &c.MutAt },
	} {
		if v := *f(&s); v != 0 {
			for _, w := range []int{0, v / 2} {
				c := clone()
				*f(&c) = w
				try(c)
			}
		}
	}
	if s.Quiet {
		c := clone()
		c.Quiet = false
		try(c)
	}
	return out
}

// size measures a Spec for Shrink.
func size(s Spec) int {
	n := 1000 * len(s.Ops)
	for _, t := range s.Target {
		n += 100 + abs(t)
	}
	for _, op := range s.Ops {
		n += 100 * len(op.Replace)
		for _, t := range op.Replace {
			n += abs(t)
		}
		n += abs(op.Start) + abs(op.Len) + abs(op.Select) + abs(op.Before) + abs(op.After) + abs(op.ChangeID)
		if op.Wrong {
			n++
		}
		if op.CRLF {
			n++
		}
	}
	if s.Mutation != 0 {
		n += 5000
	}
	if s.Scope != nil {
		n += 50
	}
	if s.Quiet {
		n++
	}
	return n + abs(s.Guard) + abs(s.Newline) + min(abs(s.MutAt), 1<<20)/64
}
