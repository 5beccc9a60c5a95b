package reference

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// noRenameat2Env makes the test binary, started again by
// TestCreateWithoutRenameNoReplace, refuse renameat2 (and, after "nolink:",
// linkat too) and create a file in the folder it names.
const noRenameat2Env = "BLOCKPATCH_TEST_NO_RENAMEAT2"

// refuse makes every call of the given system calls by this process fail
// with errno (a seccomp filter, for every thread, that cannot be undone).
func refuse(errno unix.Errno, calls ...uintptr) error {
	filter := []unix.SockFilter{{Code: unix.BPF_LD | unix.BPF_W | unix.BPF_ABS, K: 0}} // the call's number
	for i, nr := range calls {
		// Equal: jump to the refusal, after the other comparisons and the allowance.
		filter = append(filter, unix.SockFilter{Code: unix.BPF_JMP | unix.BPF_JEQ | unix.BPF_K, Jt: uint8(len(calls) - i), K: uint32(nr)})
	}
	filter = append(filter,
		unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ALLOW},
		unix.SockFilter{Code: unix.BPF_RET | unix.BPF_K, K: unix.SECCOMP_RET_ERRNO | uint32(errno)})
	prog := unix.SockFprog{Len: uint16(len(filter)), Filter: &filter[0]}
	if err := unix.Prctl(unix.PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0); err != nil {
		return err
	}
	if _, _, e := unix.Syscall(unix.SYS_SECCOMP, unix.SECCOMP_SET_MODE_FILTER, unix.SECCOMP_FILTER_FLAG_TSYNC,
		uintptr(unsafe.Pointer(&prog))); e != 0 {
		return e
	}
	return nil
}

// TestCreateWithoutRenameNoReplace: where renameat2 with RENAME_NOREPLACE
// is not supported, a created file is put in place by a hard link and the
// removal of the temp file, leaving the new file and nothing else; where
// hard links fail too, the creation fails and leaves nothing. Each runs in
// a process of its own, whose system calls a seccomp filter refuses.
func TestCreateWithoutRenameNoReplace(t *testing.T) {
	if env := os.Getenv(noRenameat2Env); env != "" {
		root, noLink := strings.CutPrefix(env, "nolink:")
		if err := refuse(unix.EINVAL, unix.SYS_RENAMEAT2); err != nil {
			t.Skipf("cannot install a seccomp filter: %v", err)
		}
		if noLink {
			must(t, refuse(unix.EPERM, unix.SYS_LINKAT))
		}
		probe := filepath.Join(root, "probe")
		must(t, os.WriteFile(probe, nil, 0o644))
		if err := unix.Renameat2(unix.AT_FDCWD, probe, unix.AT_FDCWD, probe+"2", unix.RENAME_NOREPLACE); !errors.Is(err, unix.EINVAL) {
			t.Fatalf("renameat2 under the filter: %v, want EINVAL", err)
		}
		must(t, os.Remove(probe))
		create := section("/dev/null", "b/new.txt", sha("x\n"), "") + "@@ -0,0 +1,1 @@ blockpatch-target id=move-1\n+x\n"
		err := applyOnDisk(t, root, create, nil)
		want := map[string]string{"new.txt": "x\n"}
		if noLink {
			if err == nil {
				t.Error("the creation succeeded with hard links refused")
			}
			want = map[string]string{}
		} else {
			must(t, err)
		}
		wantTree(t, root, want)
		return
	}
	t.Parallel()
	for _, prefix := range []string{"", "nolink:"} {
		root := t.TempDir()
		cmd := exec.Command(os.Args[0], "-test.run=^TestCreateWithoutRenameNoReplace$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), noRenameat2Env+"="+prefix+root)
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("the child without renameat2 (%q): %v\n%s", prefix, err, out)
		}
		if bytes.Contains(out, []byte("--- SKIP")) {
			t.Skipf("the child skipped:\n%s", out)
		}
		if !bytes.Contains(out, []byte("--- PASS")) {
			t.Fatalf("the child (%q) did not pass:\n%s", prefix, out)
		}
	}
}

// delayedBytes returns how many bytes of f the file system holds in memory
// with no place on disk yet (FIEMAP's delalloc extents); ok is false where
// FIEMAP is not supported.
func delayedBytes(t *testing.T, f *os.File) (n uint64, ok bool) {
	t.Helper()
	const (
		fsIocFiemap    = 0xC020660B // FS_IOC_FIEMAP
		extentDelalloc = 0x4        // FIEMAP_EXTENT_DELALLOC
		extentLast     = 0x1        // FIEMAP_EXTENT_LAST
	)
	type extent struct {
		logical, physical, length uint64
		_                         [2]uint64
		flags                     uint32
		_                         [3]uint32
	}
	type request struct {
		start, length           uint64
		flags, mapped, count, _ uint32
		extents                 [64]extent
	}
	for start := uint64(0); ; {
		req := request{start: start, length: ^uint64(0) - start, count: 64}
		if _, _, e := unix.Syscall(unix.SYS_IOCTL, f.Fd(), fsIocFiemap, uintptr(unsafe.Pointer(&req))); e != 0 {
			return 0, false
		}
		if req.mapped == 0 {
			return n, true
		}
		for _, x := range req.extents[:req.mapped] {
			if x.flags&extentDelalloc != 0 {
				n += x.length
			}
			if x.flags&extentLast != 0 {
				return n, true
			}
			start = x.logical + x.length
		}
	}
}

// TestWritebackPushesStagedChunks: content staged in several chunks has
// its pages sent to disk as it is written, so none is left waiting for a
// place on disk when staging ends; the same bytes written plainly are.
// Skipped where the file system places data at once or cannot tell.
func TestWritebackPushesStagedChunks(t *testing.T) {
	t.Parallel()
	content := bytes.Repeat([]byte("staged line\r\n\xff\n"), 3*stageChunk/15)
	change := Change{Data: [][]byte{content[:stageChunk/2], content[stageChunk/2:]}}
	dir := t.TempDir()
	plain, err := os.Create(filepath.Join(dir, "plain"))
	must(t, err)
	defer plain.Close()
	_, err = plain.Write(content)
	must(t, err)
	if n, ok := delayedBytes(t, plain); !ok || n == 0 {
		t.Skipf("this file system shows no delayed allocation (FIEMAP supported: %v)", ok)
	}
	staged, err := os.Create(filepath.Join(dir, "staged"))
	must(t, err)
	defer staged.Close()
	write := func(f *os.File, d []byte) error { _, err := f.Write(d); return err }
	must(t, writeChunks(context.Background(), staged, change, write))
	if n, _ := delayedBytes(t, staged); n != 0 {
		t.Errorf("%d of %d staged bytes still wait for a place on disk", n, len(content))
	}
	got, err := os.ReadFile(staged.Name())
	must(t, err)
	if !bytes.Equal(got, content) {
		t.Errorf("staged %d bytes, not the %d written", len(got), len(content))
	}
}
