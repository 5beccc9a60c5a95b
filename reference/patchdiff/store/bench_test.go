package store

import (
	"context"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
)

// BenchmarkReplay measures replaying a 10,000-row history read from each
// store: loading every row and verifying it, reported as log rows per
// second (rows/s), and the verification alone from memory.
func BenchmarkReplay(b *testing.B) {
	ctx := context.Background()
	const rows = 10000
	h := replay.SampleHistory(rows)
	b.Run("memory", func(b *testing.B) {
		for b.Loop() {
			if rep := replay.Verify(h); rep.Status != replay.Verified {
				b.Fatal(rep.Failure)
			}
		}
		b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
	})
	for kind, loc := range locations(b) {
		if err := Save(ctx, loc, h); err != nil {
			b.Fatal(err)
		}
		b.Run(string(kind), func(b *testing.B) {
			for b.Loop() {
				back, err := Load(ctx, loc)
				if err != nil {
					b.Fatal(err)
				}
				if rep := replay.Verify(back); rep.Status != replay.Verified {
					b.Fatal(rep.Failure)
				}
			}
			b.ReportMetric(float64(rows*b.N)/b.Elapsed().Seconds(), "rows/s")
		})
	}
}
