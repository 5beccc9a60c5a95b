package reference

import (
	"bytes"
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
