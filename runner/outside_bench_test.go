//go:build linux

package runner

import (
	"context"
	"os/exec"
	"path/filepath"
	"testing"
)

// BenchmarkIsolatedInvocation measures what isolation costs a command that
// does nothing (true): run as is, under bwrap with a read-only
// filesystem, and under bwrap over the overlays that observe writes
// outside. It reports invocations per second.
//
//	go test ./runner -run '^$' -bench IsolatedInvocation -benchtime 200x
func BenchmarkIsolatedInvocation(b *testing.B) {
	root := b.TempDir()
	probeDir := filepath.Join(root, "probe")
	if err := mkdirs(probeDir); err != nil {
		b.Fatal(err)
	}
	c, err := NewCommand([]string{"true"})
	if err != nil {
		b.Fatal(err)
	}
	r := New(c)
	observed := r.chooseIsolation(context.Background(), probeDir, filepath.Join(root, overlaysDir))
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
	_ = exec.ErrNotFound
}

func mkdirs(dir string) error { return exec.Command("mkdir", "-p", dir).Run() }
