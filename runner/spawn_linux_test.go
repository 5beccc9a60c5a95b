package runner

import (
	"context"
	"testing"
	"time"
)

// TestSandboxOutlivesItsStartingThread: bwrap's --die-with-parent has the
// kernel kill a sandbox when the thread that forked it ends, and the
// runtime ends a thread whenever a goroutine locked to it returns, as
// onOwnThread's do for every observed command. A PatchDIFF adapter whose
// sandbox was forked from such a thread was killed between two cases.
func TestSandboxOutlivesItsStartingThread(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	iso := chooseBwrap(context.Background(), false, dir, t.TempDir())
	if !iso.Isolated() {
		t.Skip(iso.Why)
	}
	var s *Stream
	var err error
	done := make(chan struct{})
	go onOwnThread(func() {
		defer close(done)
		s, err = StartStream(sh(t, "cat"), nil, dir, iso, []string{dir}, 1<<10)
		time.Sleep(200 * time.Millisecond) // bwrap is set up, its parent-death signal set
	})
	<-done
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	time.Sleep(100 * time.Millisecond) // the thread has ended
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if got, err := s.Exchange(ctx, []byte("ping")); err != nil || string(got) != "ping" {
		o := s.Close()
		t.Fatalf("%q, %v: the sandbox ended with its starting thread (exit %d, signal %q)", got, err, o.Exit, o.Signal)
	}
}
