package campaign

import (
	"bytes"
	"context"
	"flag"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

func TestParseShard(t *testing.T) {
	for _, tc := range []struct {
		spec string
		i, n int
		ok   bool
	}{
		{"0/1", 0, 1, true},
		{"2/8", 2, 8, true},
		{"7/8", 7, 8, true},
		{"0/0", 0, 0, false},   // no shards
		{"3/2", 0, 0, false},   // index past the count
		{"2/2", 0, 0, false},   // indices count from 0
		{"-1/2", 0, 0, false},  // negative
		{"+1/2", 0, 0, false},  // a sign is not a digit
		{" 1/2", 0, 0, false},  // nor a blank
		{"1/2/3", 0, 0, false}, // one slash
		{"1/", 0, 0, false},
		{"/2", 0, 0, false},
		{"x", 0, 0, false},
		{"", 0, 0, false},
		{"1/99999999999999999999", 0, 0, false}, // overflows
	} {
		i, n, err := ParseShard(tc.spec)
		if tc.ok != (err == nil) || i != tc.i || n != tc.n {
			t.Errorf("ParseShard(%q) = %d, %d, %v; want %d, %d, ok %v", tc.spec, i, n, err, tc.i, tc.n, tc.ok)
		}
		if err != nil && !strings.Contains(err.Error(), "--shard") {
			t.Errorf("ParseShard(%q): the error does not name the flag: %v", tc.spec, err)
		}
	}
}

// agree is a Trial in which the implementation never differs: a campaign
// over it only records which iterations it ran.
type agree struct{}

func (agree) Run(context.Context, int64) (Outcome, error) { return agreed{}, nil }
func (agree) Close() error                                { return nil }

type agreed struct{}

func (agreed) Differences() []Difference { return nil }
func (agreed) Scenario() string          { return "" }
func (agreed) CaseFile(string, uint64, int64) (string, []byte, error) {
	return "", nil, fmt.Errorf("no case")
}

var agreeing = Suite[int64]{
	Random:   func(_ uint64, k int64) int64 { return k },
	NewTrial: func() (Trial[int64], error) { return agree{}, nil },
}

// TestShardsPartitionTheSpace: for several shard counts and sizes of the
// iteration space (smaller than the count too), the iterations run by the
// n shards are pairwise disjoint, each shard's are its residue class, and
// together they are exactly the iterations of the unsharded run.
func TestShardsPartitionTheSpace(t *testing.T) {
	t.Parallel()
	run := func(i, n int, iterations int64) []int64 {
		cfg := Defaults()
		cfg.Seed, cfg.Iterations, cfg.Shard, cfg.Shards, cfg.Workers = 1, iterations, i, n, 3
		r, err := Run(context.Background(), cfg, agreeing)
		if err != nil {
			t.Fatalf("shard %d/%d of %d: %v", i, n, iterations, err)
		}
		if r.Iterations != int64(len(r.Ran)) {
			t.Fatalf("shard %d/%d: %d iterations counted, %d listed", i, n, r.Iterations, len(r.Ran))
		}
		return r.Ran
	}
	for _, iterations := range []int64{1, 5, 40, 101} {
		whole := run(0, 1, iterations)
		if want := upTo(iterations); !slices.Equal(whole, want) {
			t.Fatalf("unsharded run of %d: ran %v", iterations, whole)
		}
		for _, n := range []int{1, 2, 3, 4, 7, 8, 64} {
			owner := map[int64]int{}
			for i := range n {
				for _, k := range run(i, n, iterations) {
					if k%int64(n) != int64(i) {
						t.Errorf("%d iterations, shard %d/%d ran iteration %d", iterations, i, n, k)
					}
					if j, dup := owner[k]; dup {
						t.Errorf("%d iterations, %d shards: iteration %d ran in shards %d and %d", iterations, n, k, j, i)
					}
					owner[k] = i
				}
			}
			union := slices.Sorted(func(yield func(int64) bool) {
				for k := range owner {
					if !yield(k) {
						return
					}
				}
			})
			if !slices.Equal(union, whole) {
				t.Errorf("%d iterations, %d shards: the union is %v, the unsharded run %v", iterations, n, union, whole)
			}
		}
	}
}

func upTo(n int64) []int64 {
	out := make([]int64, n)
	for k := range out {
		out[k] = int64(k)
	}
	return out
}

// TestCommandRefusesBadShards: a bad shard spec, or shards without a
// common seed, is a usage error (exit 2) that names the flag, before
// anything runs.
func TestCommandRefusesBadShards(t *testing.T) {
	t.Parallel()
	c := Command{Name: "x-fuzz", Usage: "usage: NAME\n",
		Flags: func(*flag.FlagSet) {},
		Start: func([]string, Config, time.Duration) (func(context.Context) (*Report, error), error) {
			t.Error("a campaign started")
			return nil, fmt.Errorf("not here")
		},
	}
	for _, args := range [][]string{
		{"--seed", "1", "--shard", "0/0", "--iterations", "5", "--", "impl"},
		{"--seed", "1", "--shard", "3/2", "--iterations", "5", "--", "impl"},
		{"--seed", "1", "--shard", "-1/2", "--iterations", "5", "--", "impl"},
		{"--seed", "1", "--shard", "x", "--iterations", "5", "--", "impl"},
		{"--shard", "1/2", "--iterations", "5", "--", "impl"},                // no seed
		{"--seed", "0", "--shard", "1/2", "--iterations", "5", "--", "impl"}, // the clock's seed
	} {
		var stdout, stderr bytes.Buffer
		code := c.Main(context.Background(), args, &stdout, &stderr)
		if code != 2 || !strings.HasPrefix(stderr.String(), "x-fuzz: --shard") {
			t.Errorf("%q: exit %d, stderr %q; want 2 and an x-fuzz: --shard message", args, code, stderr.String())
		}
	}
}
