package reference

import (
	"bytes"
	"flag"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"

	"github.com/leanovate/gopter"
	"github.com/leanovate/gopter/gen"
	"github.com/leanovate/gopter/prop"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/benchshape"
)

var (
	searchSeed  = flag.Int64("search.seed", 20261203, "seed of the search property test")
	searchCases = flag.Int("search.cases", 1500, "cases the search property test checks")
)

// naiveIndex is the quadratic oracle: the first offset at or after from
// where needle occurs, or -1.
func naiveIndex(data, needle []byte, from int) int {
	for i := from; i+len(needle) <= len(data); i++ {
		if bytes.Equal(data[i:i+len(needle)], needle) {
			return i
		}
	}
	return -1
}

// finderVariants returns the finder for needle in data as newFinder makes
// it, and the same with each prefilter forced (none, IndexByte, pairs in
// vectors, pairs in words), each retrying its prefilter after a few bytes,
// so that every path runs on small inputs.
func finderVariants(data, needle []byte) map[string]*finder {
	chosen, words := newFinder(data, needle), newFinder(data, needle)
	out := map[string]*finder{"chosen": &chosen}
	words.direct = false
	if len(needle) >= 2 {
		words.pre, words.vector, words.retryAfter = prePairs, false, 7
		if words.i1 == words.i2 {
			words.i1, words.i2, words.c1, words.c2 = 0, len(needle)-1, needle[0], needle[len(needle)-1]
		}
		words.i3 = min(len(needle)/2, words.i1+pairAhead) // a third byte that is not the default
		words.c3 = needle[words.i3]
	}
	out["pairs in words"] = &words
	for _, pre := range []int{preNone, preByte, prePairs} {
		f := newFinder(data, needle)
		f.direct = false
		if len(needle) >= 2 {
			if f.pre == preNone { // no pair chosen for a short haystack
				f.i1, f.i2, f.c1, f.c2 = 0, len(needle)-1, needle[0], needle[len(needle)-1]
			}
			f.pre = pre
		}
		f.retryAfter = 7
		out[fmt.Sprint("pre", pre)] = &f
	}
	return out
}

// agree checks every finder variant against the oracle from every start
// up to the first few occurrences; it returns a description of the first
// disagreement, or "".
func agree(data, needle []byte) string {
	for name, f := range finderVariants(data, needle) {
		for from, hits := 0, 0; from <= len(data) && hits < 4; from++ {
			want, got := naiveIndex(data, needle, from), f.index(data, from)
			if got != want {
				return fmt.Sprintf("%s finder (pair %d:%q %d:%q): index(%q, %q, from %d) = %d, want %d",
					name, f.i1, f.c1, f.i2, f.c2, data, needle, from, got, want)
			}
			if want < 0 {
				break
			}
			// Jump to the next occurrence; sometimes also try the
			// offsets just past it.
			if hits++; from < want {
				from = want - 1
			}
		}
	}
	return ""
}

// searchCase is what gopter generates: a haystack made of a repeated unit
// over a small alphabet with a few bytes changed, and a needle that is a
// stretch of it (with a byte changed, or not) or made independently.
type searchCase struct {
	Alphabet int   // 1-4 letters, from "ab\nx"
	Unit     []int // the repeated unit, letters by index
	Reps     int
	Changes  []int // haystack positions changed to the next letter
	Cut      bool  // the needle is cut from the haystack
	At, Len  int
	Flip     int // when not -1, the needle position changed
	Own      []int
}

func searchCaseGen() gopter.Gen {
	letter := gen.IntRange(0, 3)
	return gen.Struct(reflect.TypeOf(searchCase{}), map[string]gopter.Gen{
		"Alphabet": gen.IntRange(1, 4),
		"Unit":     gen.SliceOfN(8, letter).SuchThat(func(u []int) bool { return len(u) > 0 }),
		"Reps":     gen.IntRange(1, 600),
		"Changes":  gen.SliceOfN(3, gen.IntRange(0, 1<<16)),
		"Cut":      gen.Bool(),
		"At":       gen.IntRange(0, 1<<16),
		"Len":      gen.IntRange(1, 300),
		"Flip":     gen.IntRange(-1, 300),
		"Own":      gen.SliceOfN(12, letter),
	})
}

// build turns a case into its haystack and needle.
func (c searchCase) build() (data, needle []byte) {
	const letters = "ab\nx"
	letter := func(i int) byte { return letters[i%c.Alphabet] }
	unit := make([]byte, len(c.Unit))
	for i, l := range c.Unit {
		unit[i] = letter(l)
	}
	data = bytes.Repeat(unit, c.Reps)
	for _, at := range c.Changes {
		data[at%len(data)] = letter(bytes.IndexByte([]byte(letters), data[at%len(data)]) + 1)
	}
	if c.Cut {
		at := c.At % len(data)
		needle = bytes.Clone(data[at:min(len(data), at+c.Len)])
	} else {
		for _, l := range c.Own {
			needle = append(needle, letter(l))
		}
	}
	if c.Flip >= 0 && len(needle) > 0 {
		i := c.Flip % len(needle)
		needle[i] = letter(bytes.IndexByte([]byte(letters), needle[i]) + 1)
	}
	return data, needle
}

// TestSearchProperty: on haystacks made to be periodic with near misses,
// where Two-Way's memory and shifts and the prefilters' jumps all matter,
// every finder agrees with the oracle, and so does Find.
func TestSearchProperty(t *testing.T) {
	t.Parallel()
	seed := *searchSeed
	params := gopter.DefaultTestParametersWithSeed(seed)
	params.MinSuccessfulTests = *searchCases
	props := gopter.NewProperties(params)
	props.Property("the fast search finds what the naive one finds", prop.ForAll(
		func(c searchCase) string {
			data, needle := c.build()
			if msg := agree(data, needle); msg != "" {
				return msg
			}
			if got, want := Find(data, needle), naiveFind(data, needle); !reflect.DeepEqual(got, want) {
				return fmt.Sprintf("Find(%q, %q) = %+v, want %+v", data, needle, got, want)
			}
			return ""
		},
		searchCaseGen(),
	))
	if !props.Run(gopter.NewFormatedReporter(false, 100, testWriter{t})) {
		t.Errorf("search property failed; rerun with: go test ./reference -run TestSearchProperty -search.seed=%d", seed)
	}
}

// TestSearchRandom: random haystacks of 256 bytes to 4 KiB (long enough for
// the prefilter to be chosen from a sample) over alphabets of 2 to 256
// bytes, with needles cut from them, changed or made independently.
func TestSearchRandom(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 5))
	for i := range 800 {
		k := []int{2, 3, 4, 16, 256}[i%5]
		data := make([]byte, 256+rng.IntN(4<<10))
		for j := range data {
			data[j] = byte(rng.IntN(k))
		}
		var needle []byte
		switch i % 3 {
		case 0:
			at := rng.IntN(len(data))
			needle = bytes.Clone(data[at:min(len(data), at+1+rng.IntN(400))])
		case 1:
			at := rng.IntN(len(data))
			needle = bytes.Clone(data[at:min(len(data), at+1+rng.IntN(400))])
			needle[rng.IntN(len(needle))]++
		default:
			needle = make([]byte, 1+rng.IntN(8))
			for j := range needle {
				needle[j] = byte(rng.IntN(k))
			}
		}
		if msg := agree(data, needle); msg != "" {
			t.Fatal(msg)
		}
	}
}

// recordCase is a haystack of fixed-width records counting up, as a log
// or a table is, where every byte is common and the bytes of one column
// always come together, and a needle cut from it across records, perhaps
// with a digit changed: the case that makes a prefilter's pair (and its
// third byte) pick correlated columns. The haystack is large enough to be
// sampled, so the bytes are chosen as in real use.
type recordCase struct {
	Width, Start, Records int // digits per record, the first count, records
	At, Len               int // the needle: where it is cut and how long
	Flip                  int // when not -1, the needle position changed
}

func (c recordCase) build() (data, needle []byte) {
	format := fmt.Sprintf("id%%0%dd ", c.Width)
	for i := range c.Records {
		data = fmt.Appendf(data, format, c.Start+i)
	}
	at := c.At % len(data)
	needle = bytes.Clone(data[at:min(len(data), at+c.Len)])
	if c.Flip >= 0 {
		i := c.Flip % len(needle)
		needle[i] = "0123456789 "[(bytes.IndexByte([]byte("0123456789 "), needle[i])+1)%11]
	}
	return data, needle
}

// TestSearchRecordsProperty: on record-shaped haystacks, every finder
// agrees with the runtime's search (the naive oracle is too slow for
// haystacks this large) from the start and from the needle's place.
func TestSearchRecordsProperty(t *testing.T) {
	t.Parallel()
	params := gopter.DefaultTestParametersWithSeed(*searchSeed)
	params.MinSuccessfulTests = 60
	props := gopter.NewProperties(params)
	props.Property("the fast search finds what bytes.Index finds in records", prop.ForAll(
		func(c recordCase) string {
			data, needle := c.build()
			for name, f := range finderVariants(data, needle) {
				for _, from := range []int{0, c.At % len(data)} {
					want := bytes.Index(data[from:], needle)
					if want >= 0 {
						want += from
					}
					if got := f.index(data, from); got != want {
						return fmt.Sprintf("%s finder (bytes %d:%q %d:%q %d:%q): index from %d = %d, want %d",
							name, f.i1, f.c1, f.i2, f.c2, f.i3, f.c3, from, got, want)
					}
				}
			}
			return ""
		},
		gen.Struct(reflect.TypeOf(recordCase{}), map[string]gopter.Gen{
			"Width":   gen.IntRange(3, 9),
			"Start":   gen.IntRange(0, 5000),
			"Records": gen.IntRange(sampleMin/8, 3*sampleMin/8),
			"At":      gen.IntRange(0, 1<<20),
			"Len":     gen.IntRange(2, 400),
			"Flip":    gen.IntRange(-1, 400),
		}),
	))
	if !props.Run(gopter.NewFormatedReporter(false, 100, testWriter{t})) {
		t.Errorf("records property failed; rerun with: go test ./reference -run TestSearchRecordsProperty -search.seed=%d", *searchSeed)
	}
}

// TestFactorize: the critical position lies within the needle and, for a
// needle said to be periodic, the period is one.
func TestFactorize(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(7, 8))
	for range 5000 {
		needle := make([]byte, 2+rng.IntN(40))
		for j := range needle {
			needle[j] = "ab"[rng.IntN(2)]
		}
		crit, period, short := factorize(needle)
		if crit < 0 || crit >= len(needle) || period < 1 {
			t.Fatalf("factorize(%q) = %d, %d", needle, crit, period)
		}
		if short && !bytes.Equal(needle[period:], needle[:len(needle)-period]) {
			t.Fatalf("factorize(%q): %d is not a period", needle, period)
		}
	}
}

// FuzzIndex: every finder agrees with the oracle.
func FuzzIndex(f *testing.F) {
	f.Add(bytes.Repeat([]byte("a"), 300), bytes.Repeat([]byte("a"), 40))
	f.Add(bytes.Repeat([]byte("ab\n"), 200), []byte("ab\nab\nab\na"))
	f.Add(append(bytes.Repeat([]byte("a"), 400), 'b'), append(bytes.Repeat([]byte("a"), 70), 'b'))
	f.Add(bytes.Repeat([]byte("abaabaaab"), 40), []byte("aabaaabaabaa"))
	f.Add([]byte("line 1 x\nline 2 x\nline 3 x\n"), []byte("line 2 x\n"))
	f.Add([]byte("id0097 id0098 id0099 id0100 id0101 id0102 "), []byte("id0099 id0101"))
	f.Fuzz(func(t *testing.T, data, needle []byte) {
		if len(data) > 8<<10 || len(needle) > 512 {
			return // the oracle is quadratic
		}
		if msg := agree(data, needle); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestSearchLinearOnPathologicalInput holds the search's own count of its
// work (search: positions passed plus bytes compared) to a linear bound on
// haystacks built to make a naive or badly guarded search quadratic: runs
// of one byte with needles that fail on their last or first byte, periodic
// text with near misses of 64 KiB, a needle whose every byte the
// prefilter finds on every line, its ends being common lines and its
// middle not (so the prefilter's pair, taken near the ends, finds a
// candidate on every line, and only a full comparison fails). Each
// runs at 1 MiB and at 8 MiB, with every prefilter: the work must stay
// under a few times the haystack, and grow at most about eightfold. A
// count, not a clock, so a loaded machine cannot fail it, and a quadratic
// search (64 times the work at 8 times the size) cannot pass it.
func TestSearchLinearOnPathologicalInput(t *testing.T) {
	t.Parallel()
	period := []byte("abbbbbbbbbbbbbbb\n")
	line := []byte("2026-12-03 INFO request served id=\n")
	cases := []struct {
		name   string
		data   func(size int) []byte
		needle []byte
	}{
		{"run near miss 1k", func(size int) []byte { return bytes.Repeat([]byte("a"), size) },
			append(bytes.Repeat([]byte("a"), 1000), 'b')},
		{"run near miss first byte", func(size int) []byte { return bytes.Repeat([]byte("a"), size) },
			append([]byte("b"), bytes.Repeat([]byte("a"), 5000)...)},
		{"periodic near miss 64k", func(size int) []byte { return bytes.Repeat(period, size/len(period)) },
			append(bytes.Repeat(period, 64<<10/len(period)), 'b')},
		{"periodic needle middle miss", func(size int) []byte { return bytes.Repeat([]byte("ab"), size/2) },
			append(append(bytes.Repeat([]byte("ab"), 20000), 'b'), bytes.Repeat([]byte("ab"), 20000)...)},
		{"common lines, middle differs", func(size int) []byte { return bytes.Repeat(line, size/len(line)) },
			slices.Concat(bytes.Repeat(line, 1500), []byte("2026-12-03 INFO request served di=\n"), bytes.Repeat(line, 1500))},
	}
	const small = 1 << 20
	for _, c := range cases {
		for _, pre := range []int{-1, preNone, preByte, prePairs} {
			work := func(size int) int {
				data := c.data(size)
				f := newFinder(data, c.needle)
				if pre >= 0 {
					f.pre, f.direct = pre, false
					if f.i1 == f.i2 {
						f.i1, f.i2, f.c1, f.c2 = 0, len(c.needle)-1, c.needle[0], c.needle[len(c.needle)-1]
					}
				}
				at, w := f.search(data, 0)
				if at != -1 { // each needle has a byte or a line the haystack lacks
					t.Errorf("%s, prefilter %d: index = %d, want -1", c.name, pre, at)
				}
				if limit := 8 * (len(data) + len(c.needle)); w > limit {
					t.Errorf("%s, prefilter %d, %d bytes: work %d, over the linear bound %d", c.name, pre, len(data), w, limit)
				}
				return w
			}
			if w1, w8 := work(small), work(8*small); w8 > 10*w1 {
				t.Errorf("%s, prefilter %d: work %d at 1 MiB, %d at 8 MiB: grows faster than the haystack", c.name, pre, w1, w8)
			}
		}
	}
}

// TestSearchLarge: haystacks large enough to be sampled (64 KiB and more),
// so the pair is chosen as in real use, periodic with a few bytes changed,
// against the runtime's search (slow on some of these, never wrong).
func TestSearchLarge(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(23, 6))
	for i := range 40 {
		unit := make([]byte, 1+rng.IntN(40))
		for j := range unit {
			unit[j] = "ab\nx"[rng.IntN(2+i%3)]
		}
		data := bytes.Repeat(unit, (sampleMin+rng.IntN(3*sampleMin))/len(unit)+1)
		for range rng.IntN(20) {
			data[rng.IntN(len(data))] = "abxy"[rng.IntN(4)]
		}
		at := rng.IntN(len(data))
		needle := bytes.Clone(data[at:min(len(data), at+2+rng.IntN(3000))])
		if rng.IntN(2) == 0 {
			needle[rng.IntN(len(needle))] = "abxy"[rng.IntN(4)]
		}
		for name, f := range finderVariants(data, needle) {
			for _, from := range []int{0, 1, at, len(data) / 2} {
				want := bytes.Index(data[from:], needle)
				if want >= 0 {
					want += from
				}
				if got := f.index(data, from); got != want {
					t.Fatalf("case %d, %s finder (pair %d:%q %d:%q): index from %d = %d, want %d (needle %d bytes)",
						i, name, f.i1, f.c1, f.i2, f.c2, from, got, want, len(needle))
				}
			}
		}
	}
}

// TestThirdByteNotTheNextRecord: in log lines of one length, the byte one
// record after the first byte's is the first byte again in nearly every
// place it is; as the third byte it would filter nothing. The filter of
// a two-line needle must let through few places: fewer than one per
// 16 KiB (one per 3.7 KiB when the third byte was the next line's copy of
// the first, one per 29 KiB since).
func TestThirdByteNotTheNextRecord(t *testing.T) {
	t.Parallel()
	var shape benchshape.Shape
	for _, s := range benchshape.Shapes {
		if s.Name == "log" {
			shape = s
		}
	}
	tree := shape.Build(8 << 20)
	data := tree.Files[tree.Src]
	at := bytes.Index(data, []byte(tree.TargetBefore))
	end := at + len(tree.TargetBefore)
	needle := data[at : end+bytes.IndexByte(data[end:], '\n')+1] // two lines
	f := newFinder(data, needle)
	last, places := len(data)-len(needle), 0
	for j := 0; j <= last; j++ {
		if j = f.jump(data, j, last, f.pre); j < 0 {
			break
		}
		places++
	}
	if places > len(data)>>14 {
		t.Errorf("the filter (bytes %d:%q %d:%q %d:%q) lets through %d places in %d bytes, want at most %d",
			f.i1, f.c1, f.i2, f.c2, f.i3, f.c3, places, len(data), len(data)>>14)
	}
}
