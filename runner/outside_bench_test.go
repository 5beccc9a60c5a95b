//go:build linux

package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// BenchmarkIsolatedInvocation measures what isolation costs a command that
// does nothing (true): run as is, under bwrap with a read-only
// filesystem, and under bwrap over the overlays that observe writes
// outside. It reports invocations per second; "overlays-only" is the
// runner's own part of the last: a thread entering a mount namespace and
// mounting the tmpfs and the overlays, without a command.
//
//	go test ./runner -run '^$' -bench IsolatedInvocation -benchtime 200x
func BenchmarkIsolatedInvocation(b *testing.B) {
	root := b.TempDir()
	probeDir := filepath.Join(root, "probe")
	if err := os.Mkdir(probeDir, 0o755); err != nil {
		b.Fatal(err)
	}
	c, err := NewCommand([]string{"true"})
	if err != nil {
		b.Fatal(err)
	}
	observed := chooseIsolation(context.Background(), c, false, probeDir, filepath.Join(root, OverlaysDir))
	blocked := *observed
	blocked.watch = nil
	for _, bm := range []struct {
		name string
		iso  *Isolation
	}{{"none", nil}, {"bwrap", &blocked}, {"bwrap+overlays", observed}} {
		b.Run(bm.name, func(b *testing.B) {
			if bm.iso != nil && !bm.iso.Isolated() || bm.name == "bwrap+overlays" && !bm.iso.Observed() {
				b.Skipf("not here: %s; %s", bm.iso, bm.iso.Outside)
			}
			for b.Loop() {
				o := c.Exec(context.Background(), Invocation{Dir: probeDir, Isolation: bm.iso, Writable: []string{probeDir}})
				if o.Exit != 0 || o.Err != nil || len(o.Outside) > 0 {
					b.Fatalf("%+v", o)
				}
			}
			b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inv/s")
		})
	}
	b.Run("overlays-only", func(b *testing.B) {
		if !observed.Observed() {
			b.Skipf("not here: %s", observed.Outside)
		}
		for b.Loop() {
			if _, err := observed.watch.begin().tryMounts(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "inv/s")
	})
}
