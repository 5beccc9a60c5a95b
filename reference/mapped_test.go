//go:build linux

package reference

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
	"time"
)

// bigRelocation returns a file above mapThreshold with a block near its
// start and an anchor near its end, the patch moving the block, and the
// file after the move. Its filler mixes CRLF, bare CR and invalid UTF-8,
// which the stretches copied from the file keep byte for byte.
func bigRelocation() (before, patch, after string) {
	var filler bytes.Buffer
	for i := 0; filler.Len() < 4*stageChunk/3; i++ {
		fmt.Fprintf(&filler, "filler line %d\r\n\xff\xfe bare\rCR\n", i)
	}
	payload := "moved one\nmoved two\n"
	before = "head\n" + payload + "tail\n" + filler.String() + "anchor\n" + "end\n"
	after = "head\ntail\n" + filler.String() + "anchor\n" + payload + "end\n"
	patch = section("a/big", "b/big", sha(payload), "") +
		"@@ -1,4 +1,2 @@ blockpatch-source id=move-1\n head\n-moved one\n-moved two\n tail\n\n" +
		"@@ -9,2 +7,4 @@ blockpatch-target id=move-1\n anchor\n+moved one\n+moved two\n end\n"
	return before, patch, after
}

// mappedWorkspace writes the big file in a fresh root, reads it and plans the
// move through a Workspace, which maps it.
func mappedWorkspace(t *testing.T, readOnly bool) (*Workspace, *Plan, string) {
	t.Helper()
	before, patch, after := bigRelocation()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big": before})
	ws, err := NewWorkspace(root)
	if err != nil {
		t.Fatal(err)
	}
	ws.ReadOnly = readOnly
	t.Cleanup(func() { ws.Close() })
	plan, err := Check([]byte(patch), ws, Options{Strip: 1})
	if err != nil {
		t.Fatal(err)
	}
	if ws.seen["big"].mapped == nil {
		t.Fatal("the big file was not mapped")
	}
	return ws, plan, after
}

func TestMappedFileApplied(t *testing.T) {
	t.Parallel()
	ws, plan, after := mappedWorkspace(t, false)
	if err := ws.Commit(plan.Changes); err != nil {
		t.Fatal(err)
	}
	got := readTree(t, ws.Root())
	if len(got) != 1 || got["big"] != after {
		t.Errorf("after commit: %d files, big is the moved file: %v", len(got), got["big"] == after)
	}
	if err := ws.Close(); err != nil || len(ws.maps) != 0 {
		t.Errorf("Close: %v, %d mappings left", err, len(ws.maps))
	}
	if err := ws.Close(); err != nil {
		t.Errorf("a second Close: %v", err)
	}
}

// TestMappedFileInterrupted: a Commit stopped when it stages a mapped file
// (the copy looks at its context before each chunk) is io_error, and
// leaves the tree as it was, without temp files.
func TestMappedFileInterrupted(t *testing.T) {
	t.Parallel()
	ws, plan, _ := mappedWorkspace(t, false)
	before := readTree(t, ws.Root())
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("signal terminated"))
	wantCode(t, ws.CommitContext(ctx, plan.Changes), IOError)
	if got := readTree(t, ws.Root()); len(got) != 1 || got["big"] != before["big"] {
		t.Errorf("after the interrupted commit: %d files, big unchanged: %v", len(got), got["big"] == before["big"])
	}
}

// TestMappedFileChanged: a mapped file changed between staging and the
// re-check is concurrent_modification and nothing is written, however the
// writer hides it: same size and modification time, or a shorter file.
func TestMappedFileChanged(t *testing.T) {
	t.Parallel()
	changes := map[string]func(t *testing.T, full string){
		"same size and mtime": func(t *testing.T, full string) {
			info, _ := os.Stat(full)
			f, err := os.OpenFile(full, os.O_WRONLY, 0)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteAt([]byte("HEAD"), 0)
			f.Close()
			os.Chtimes(full, time.Time{}, info.ModTime())
		},
		"truncated": func(t *testing.T, full string) {
			if err := os.Truncate(full, 100); err != nil {
				t.Fatal(err)
			}
		},
	}
	for name, change := range changes {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			ws, plan, _ := mappedWorkspace(t, false)
			full := filepath.Join(ws.Root(), "big")
			ws.BeforeVerify = func() { change(t, full) }
			want, _ := os.ReadFile(full)
			err := ws.Commit(plan.Changes)
			wantCode(t, err, ConcurrentModification)
			got := readTree(t, ws.Root())
			if len(got) != 1 || got["big"] == string(want) {
				t.Errorf("after the refused commit: %d files; the change must stay, not be overwritten", len(got))
			}
		})
	}
}

// TestMappedFileShrankBeforeStaging: staging copies from the mapping; a
// file cut short before then is concurrent_modification, not a crash or a
// short file.
func TestMappedFileShrankBeforeStaging(t *testing.T) {
	t.Parallel()
	ws, plan, _ := mappedWorkspace(t, false)
	full := filepath.Join(ws.Root(), "big")
	if err := os.Truncate(full, 100); err != nil {
		t.Fatal(err)
	}
	wantCode(t, ws.Commit(plan.Changes), ConcurrentModification)
	if info, _ := os.Stat(full); info.Size() != 100 {
		t.Errorf("size %d after the refused commit, want 100", info.Size())
	}
}

// TestReadOnlyWorkspaceCannotCommitMapped: a ReadOnly Workspace keeps no
// checksum, so a commit finds its mapped files changed.
func TestReadOnlyWorkspaceCannotCommitMapped(t *testing.T) {
	t.Parallel()
	ws, plan, _ := mappedWorkspace(t, true)
	before := readTree(t, ws.Root())
	wantCode(t, ws.Commit(plan.Changes), ConcurrentModification)
	if len(readTree(t, ws.Root())) != len(before) || readTree(t, ws.Root())["big"] != before["big"] {
		t.Error("a refused commit changed the tree")
	}
}

// TestMappedFault: reading a mapped file past the end it shrank to faults;
// with SetPanicOnFault the panic becomes concurrent_modification, and any
// other panic is not taken for one.
func TestMappedFault(t *testing.T) {
	t.Parallel()
	before, _, _ := bigRelocation()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big": before})
	ws, _ := NewWorkspace(root)
	defer ws.Close()
	data, err := ws.ReadFile("big")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(root, "big"), 0); err != nil {
		t.Fatal(err)
	}
	got := func() (e *Error) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { e = MappedFault(recover()) }()
		_ = bytes.Count(data, []byte("x"))
		return nil
	}()
	if got == nil || got.Code != ConcurrentModification {
		t.Errorf("reading the truncated mapping: %v, want concurrent_modification", got)
	}
	if e := MappedFault(errors.New("not a fault")); e != nil {
		t.Errorf("MappedFault of another panic = %v, want nil", e)
	}
}

// TestMappedFaultInSecondHalf: a search of splitMin bytes or more reads
// the file's second half on another goroutine; reading it after the file
// shrank faults there, and the fault reaches the caller as a panic it can
// recover, concurrent_modification, not a crash of the program.
func TestMappedFaultInSecondHalf(t *testing.T) {
	t.Parallel()
	root := t.TempDir()
	writeTree(t, root, map[string]string{"big": strings.Repeat("a line of the file\n", 2*splitMin/19)})
	ws, _ := NewWorkspace(root)
	defer ws.Close()
	data, err := ws.ReadFile("big")
	if err != nil {
		t.Fatal(err)
	}
	// Shrunk to its first half: the first half's search reads what is
	// still there, the second's faults.
	if err := os.Truncate(filepath.Join(root, "big"), int64(len(data)/2)); err != nil {
		t.Fatal(err)
	}
	got := func() (e *Error) {
		defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
		defer func() { e = MappedFault(recover()) }()
		Find(data, []byte("absent"))
		return nil
	}()
	if got == nil || got.Code != ConcurrentModification {
		t.Errorf("searching the truncated mapping: %v, want concurrent_modification", got)
	}
}

// TestMappedCrossFileMove: a block of more than copyThreshold bytes moved
// from one mapped file into another is written from the first file's
// bytes; staging the second file must not take it for a stretch of its
// own mapping.
func TestMappedCrossFileMove(t *testing.T) {
	t.Parallel()
	var block, filler bytes.Buffer
	for i := 0; block.Len() < 3*copyThreshold/2; i++ {
		fmt.Fprintf(&block, "block line %d\n", i)
	}
	for i := 0; filler.Len() < 2*mapThreshold; i++ {
		fmt.Fprintf(&filler, "filler line %d\n", i)
	}
	src := "start\n" + block.String() + "stop\n" + filler.String()
	dst := filler.String() + "anchor\n"
	root := t.TempDir()
	writeTree(t, root, map[string]string{"src.txt": src, "dst.txt": dst})
	ws, err := NewWorkspace(root)
	must(t, err)
	defer ws.Close()
	req, err := DecodeRequest([]byte(`{"src":"src.txt","src_start":"block line 0\n","src_end":"stop\n","dst":"dst.txt","target_before":"anchor\n"}`))
	must(t, err)
	plan, err := PlanRequest(req, ws)
	must(t, err)
	if len(ws.maps) != 2 {
		t.Fatalf("%d files mapped, want both", len(ws.maps))
	}
	must(t, ws.Commit(plan.Changes))
	got := readTree(t, root)
	if want := "start\n" + filler.String(); got["src.txt"] != want {
		t.Errorf("src.txt: %d bytes, want %d", len(got["src.txt"]), len(want))
	}
	if want := dst + block.String() + "stop\n"; got["dst.txt"] != want {
		t.Errorf("dst.txt: %d bytes, want %d", len(got["dst.txt"]), len(want))
	}
}

// mapTemp writes data to a file of its own and maps it, as mapFile maps
// a file of the tree; it returns the mapping and the file's path.
func mapTemp(t *testing.T, data []byte) ([]byte, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "big")
	must(t, os.WriteFile(path, data, 0o644))
	f, err := os.Open(path)
	must(t, err)
	t.Cleanup(func() { f.Close() })
	mapped, err := mapFile(f, int64(len(data)))
	must(t, err)
	t.Cleanup(func() { unmap(mapped) })
	return mapped, path
}

// TestMappedChecksumOfShrunkFile: checksumming a mapping whose file was
// cut short faults; checksumOf reports it (ok false) instead of letting
// the fault end the process.
func TestMappedChecksumOfShrunkFile(t *testing.T) {
	t.Parallel()
	before, _, _ := bigRelocation()
	data, path := mapTemp(t, []byte(before))
	must(t, os.Truncate(path, 0))
	if _, ok := checksumOf(data); ok {
		t.Error("checksum of a mapping whose file was cut short: ok, want a fault reported")
	}
}

// TestChecksumHalves: a file of splitMin bytes or more is checksummed as
// two halves at once; a change to either half changes the checksum, and
// a fault reading the second half, on the other goroutine, is reported
// as one reading the first would be.
func TestChecksumHalves(t *testing.T) {
	t.Parallel()
	data := bytes.Repeat([]byte("a line of the file\n"), 2*splitMin/19)
	same, ok := checksumOf(bytes.Clone(data))
	if !ok {
		t.Fatal("checksum of bytes in memory: a fault reported")
	}
	for _, at := range []int{0, len(data)/2 - 1, len(data) / 2, len(data) - 1} {
		changed := bytes.Clone(data)
		changed[at] ^= 1
		if sum, _ := checksumOf(changed); sum == same {
			t.Errorf("a byte changed at %d of %d: the checksum is the same", at, len(data))
		}
	}
	mapped, path := mapTemp(t, data)
	if sum, ok := checksumOf(mapped); !ok || sum != same {
		t.Fatalf("checksum of the mapped file: ok %v, equal %v", ok, sum == same)
	}
	must(t, os.Truncate(path, int64(len(data)*3/4)))
	if _, ok := checksumOf(mapped); ok {
		t.Error("checksum of a mapping whose second half was cut short: ok, want a fault reported")
	}
}

// TestMappedFileGrewBeforeMapping: a file that grew between its stat and
// its mapping is concurrent_modification, not read short, and the mapping
// refused is not looked up afterwards.
func TestMappedFileGrewBeforeMapping(t *testing.T) {
	t.Parallel()
	before, _, _ := bigRelocation()
	path := filepath.Join(t.TempDir(), "big")
	must(t, os.WriteFile(path, []byte(before), 0o644))
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	must(t, err)
	defer f.Close()
	info, err := f.Stat()
	must(t, err)
	_, err = f.WriteAt([]byte("grown\n"), info.Size())
	must(t, err)
	for _, sum := range []bool{false, true} {
		m, err := mapRegular(f, info, sum)
		if m != nil {
			unmap(m.data)
		}
		wantCode(t, err, ConcurrentModification)
	}
	// The refused mapping is not looked up: its address, reused by the
	// next mapping made, would lead a search there to this file.
	mappings.Lock()
	defer mappings.Unlock()
	for _, m := range mappings.live {
		if m.file == f {
			t.Error("a refused mapping is still looked up")
		}
	}
}

// TestMappedFileMetadataChanged: a mapped file whose bytes, size, mode and
// modification time stay but whose inode changed (times set back, which
// moves the change time) is concurrent_modification: the change time is
// part of the re-check.
func TestMappedFileMetadataChanged(t *testing.T) {
	t.Parallel()
	ws, plan, _ := mappedWorkspace(t, false)
	full := filepath.Join(ws.Root(), "big")
	before, err := os.Stat(full)
	must(t, err)
	ws.BeforeVerify = func() {
		time.Sleep(10 * time.Millisecond) // a change time of its own, on coarse clocks too
		must(t, os.Chtimes(full, time.Time{}, before.ModTime()))
	}
	wantCode(t, ws.Commit(plan.Changes), ConcurrentModification)
}

// TestFirstSum: the checksum of a file read through buffers, taken as
// passes over it read its stretches in turn and finished when the write
// starts, is the checksum of the file, however much of it the passes read
// (all, part, a slice, nothing); a byte changed after a pass read it shows
// as a checksum that differs, one changed back as the same; a file cut
// short before the finish is not summed. A Commit finishes it: a file
// changed before the re-check is concurrent_modification, one unchanged is
// written.
func TestFirstSum(t *testing.T) {
	t.Parallel()
	before, patch, after := bigRelocation()
	for _, pass := range []string{"whole", "first third", "slice", "none", "changed", "shrunk", "commit", "commit changed"} {
		t.Run(pass, func(t *testing.T) {
			t.Parallel()
			root := t.TempDir()
			writeTree(t, root, map[string]string{"big": before})
			ws, err := NewWorkspace(root)
			must(t, err)
			defer ws.Close()
			mapped, err := ws.ReadFile("big")
			must(t, err)
			m := ws.maps[0]
			if !m.buffered {
				m.readThrough()
			}
			m.summed = false
			if !m.startSum() || m.first == nil {
				t.Fatal("no first-pass checksum started")
			}
			full := filepath.Join(root, "big")
			switch pass {
			case "whole", "changed":
				Find(mapped, []byte("absent"))
				for h := range m.first.halves {
					if _, to := m.half(h); m.first.halves[h].next != to {
						t.Errorf("half %d: the pass left its checksum at %d of %d", h, m.first.halves[h].next, to)
					}
				}
			case "first third":
				Find(mapped[:len(mapped)/3], []byte("absent"))
			case "slice":
				Find(mapped[bufferStretch:], []byte("absent"))
			case "shrunk":
				must(t, os.Truncate(full, int64(len(before)-1)))
			case "commit", "commit changed":
				plan, err := Check([]byte(patch), ws, Options{Strip: 1})
				must(t, err)
				if pass == "commit changed" {
					ws.BeforeVerify = func() { overwrite(t, full, len(before)/2, "X") }
					wantCode(t, ws.Commit(plan.Changes), ConcurrentModification)
					return
				}
				must(t, ws.Commit(plan.Changes))
				if got := readTree(t, root)["big"]; got != after {
					t.Error("the move was not written as planned")
				}
				return
			}
			if pass == "changed" {
				for _, at := range []int{0, len(before)/2 - 1, len(before) / 2, len(before) - 1} {
					overwrite(t, full, at, "X")
					ws.takeSums()
					if now, _ := m.checksum(); now == m.sum {
						t.Errorf("a byte at %d changed after the pass: the same checksum", at)
					}
					overwrite(t, full, at, before[at:at+1])
					if now, _ := m.checksum(); now != m.sum {
						t.Errorf("the byte at %d written back: the checksum differs", at)
					}
				}
				return
			}
			ws.takeSums()
			now, ok := m.checksum()
			if pass == "shrunk" {
				if m.summed || ok {
					t.Error("a file cut short: summed")
				}
				return
			}
			if !m.summed || !ok || now != m.sum {
				t.Errorf("after the %s pass: checksum %x (summed %v), want %x", pass, m.sum, m.summed, now)
			}
		})
	}
}

// overwrite writes s into the file at full from offset at.
func overwrite(t *testing.T, full string, at int, s string) {
	t.Helper()
	f, err := os.OpenFile(full, os.O_WRONLY, 0)
	must(t, err)
	defer f.Close()
	_, err = f.WriteAt([]byte(s), int64(at))
	must(t, err)
}

// TestOffsetOf: a slice of a mapping, its capacity capped to its length
// or not (ReadPatch caps the lines it keeps as slices of a file), is found
// at its offset, up to the mapping's last byte; an empty slice, a copy
// and a slice of other memory are not the mapping's.
func TestOffsetOf(t *testing.T) {
	t.Parallel()
	data, _ := mapTemp(t, bytes.Repeat([]byte("a line\n"), mapThreshold/7+1))
	m := &mapping{data: data}
	n := len(data)
	for _, tc := range []struct {
		name string
		d    []byte
		off  int
		ok   bool
	}{
		{"whole", data, 0, true},
		{"from the middle", data[n/2:], n / 2, true},
		{"capped", data[3:10:10], 3, true},
		{"the last byte, capped", data[n-1 : n : n], n - 1, true},
		{"empty", data[5:5], 0, false},
		{"a copy", bytes.Clone(data[3:10]), 0, false},
		{"other memory", make([]byte, 8), 0, false},
	} {
		off, ok := m.offsetOf(tc.d)
		if ok != tc.ok || ok && off != tc.off {
			t.Errorf("%s: offsetOf = %d, %v; want %d, %v", tc.name, off, ok, tc.off, tc.ok)
		}
	}
}
