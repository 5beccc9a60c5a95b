package patchdiff

import (
	"strconv"
	"strings"
	"testing"
)

// BenchmarkApply measures whole transactions (decode, canonicalize, hash,
// match, simulate, facts, warnings) on targets of 1 KiB, 64 KiB and 1 MiB,
// ASCII and non-ASCII, with a two-edit transaction whose second edit sits
// at the end of the target. It reports transactions per second.
func BenchmarkApply(b *testing.B) {
	for _, size := range []int{1 << 10, 64 << 10, 1 << 20} {
		for _, kind := range []string{"ascii", "utf8"} {
			line := "the quick brown fox jumps over the lazy dog 0123456789\n"
			if kind == "utf8" {
				line = "ç'est là où l'été dure, 東京 \U0001F600 naïve façade\n"
			}
			target := strings.Repeat(line, size/len(line)) + "TAIL marker\r\n"
			transaction := tx1(
				obj{"match": "TAIL marker\n", "replace": "tail\n"},
				obj{"match": "quick", "replace": "slow", "occurrence_index": 3},
			)
			if kind == "utf8" {
				transaction = tx1(obj{"match": "TAIL marker\n", "replace": "tail\n"}, obj{"match": "東京", "replace": "京都", "occurrence_index": 3})
			}
			b.Run(kind+"-"+strconv.Itoa(size>>10)+"KiB", func(b *testing.B) {
				req := Request{RuntimeVersion: v022, Target: target, TargetVersion: one(1), Transaction: transaction, CollectWarnings: true}
				if r := Apply(req); !r.Accepted() {
					b.Fatalf("rejected: %s %+v", r.Reason(), r.Diagnostic)
				}
				b.SetBytes(int64(len(target)))
				b.ResetTimer()
				for b.Loop() {
					Apply(req)
				}
				b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
			})
		}
	}
}

// BenchmarkAdversarial: a long self-overlapping match over a run of the
// same letter, where strings.Index alone is quadratic (forEachOccurrence
// switches to KMP).
func BenchmarkAdversarial(b *testing.B) {
	target := strings.Repeat("a", 1<<20)
	req := Request{RuntimeVersion: v022, Target: target, TargetVersion: one(1), Transaction: tx1(obj{"match": strings.Repeat("a", 4096), "replace": "b"}), CollectWarnings: true}
	for b.Loop() {
		Apply(req)
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "tx/s")
}
