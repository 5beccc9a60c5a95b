package runner

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"

	"golang.org/x/sys/unix"
)

// Under bwrap a command sees the filesystem read-only but its case's box,
// so a write anywhere else fails with EROFS: blocked, but unseen, and a
// command that ignores the failure certifies. To see such writes, each
// command gets instead a writable overlay of every filesystem it could
// write (all mounts but /proc, /sys and /dev, which bwrap makes anew or
// binds read-only): the host's files are the overlay's lower layer, never
// written, and every write, removal, rename or mode change lands in the
// overlay's upper folder. After the command the runner reads the upper
// folders: a file there was written, a whiteout removed. The case's box
// and a race's hold folder stay real writable binds on top, so the runner
// judges their trees as before; /dev/shm is a runner-made folder bound in
// the same way and read after the command; the rest of /dev is read-only.
//
// bubblewrap 0.8 cannot mount an overlay itself, so the runner mounts the
// overlays: on a thread of its own (locked, never returned to the Go
// runtime, which ends it) it enters a new mount namespace and makes every
// mount in it private, so that nothing propagates to the host. There it
// mounts a small tmpfs on the run's folder "overlays" in its temp root,
// makes the upper and work folders in it, mounts the overlays below it and
// starts bwrap with them as its root. The thread waits for the command,
// reads the upper folders and ends; the namespace goes with it and with
// the command's last process, and the tmpfs with the namespace. So the
// upper folders never touch the disk, are seen neither from the host nor
// by another command (each namespace has its own tmpfs on that folder),
// and vanish without being removed. Mounting takes root (CAP_SYS_ADMIN);
// without it the runner says so and bwrap only blocks. Every path the
// runner mounts on or from is opened without following any symlink
// (openat2 RESOLVE_NO_SYMLINKS) and named to mount(2) by its descriptor;
// the upper folders are read without following symlinks.

// overlays is how a run observes its commands' writes outside their
// folders.
type overlays struct {
	// dir is the run's folder in its temp root on which each command's
	// namespace mounts its tmpfs.
	dir    string
	mounts []mountSpec
}

// mountSpec is one mount of the host as a command sees it: an overlay of
// a folder, or a read-only bind where no overlay can be had.
type mountSpec struct {
	path    string
	overlay bool
	// mode, uid and gid are those of the mount's root, which the overlay
	// takes from its upper folder.
	mode     uint32
	uid, gid uint32
}

// describe says for the certificate how writes outside are observed.
func (o *overlays) describe() string {
	var ro []string
	for _, m := range o.mounts {
		if !m.overlay {
			ro = append(ro, m.path)
		}
	}
	s := "observed: each command writes to an overlay of the host's filesystems, read after it, and a write there fails its case (escape) without reaching the host; /proc, /sys and /dev (but /dev/shm, observed too) are read-only"
	if len(ro) > 0 {
		s += fmt.Sprintf(", and so, with writes blocked but not observed, %s", strings.Join(ro, ", "))
	}
	return s
}

// newOverlays plans the overlays of a run, mounted on dir, and tries them
// once, running probe (which must write nothing) in writable the way every
// command runs. A mount that cannot be overlaid (a lower layer stacked too
// deep, a filesystem overlayfs refuses) is bound read-only instead; the
// host's root that cannot is an error.
func newOverlays(iso *Isolation, dir, writable, probe string) (*overlays, error) {
	if os.Geteuid() != 0 {
		return nil, errors.New("mounting the overlays takes root")
	}
	mounts, err := mountPlan()
	if err != nil {
		return nil, err
	}
	if err := os.Mkdir(dir, 0o700); err != nil {
		return nil, err
	}
	// Mount points are opened following no symlink: a temp folder
	// reached through one (TMPDIR) is named by its real path.
	if dir, err = filepath.EvalSymlinks(dir); err != nil {
		return nil, err
	}
	o := &overlays{dir: dir, mounts: mounts}
	for {
		at, err := o.begin().tryMounts()
		if err == nil {
			break
		}
		if at <= 0 || !o.mounts[at].overlay {
			return nil, err
		}
		o.mounts[at].overlay = false
	}
	ob := o.begin()
	argv := iso.wrap([]string{probe}, []string{writable}, ob)
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = writable
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := ob.start(cmd); err != nil {
		return nil, err
	}
	err = cmd.Wait()
	written, ferr := ob.finish()
	switch {
	case err != nil:
		return nil, fmt.Errorf("bwrap over the overlays: %v: %s", err, bounded(out.Bytes(), 200))
	case ferr != nil:
		return nil, ferr
	case len(written) > 0:
		return nil, fmt.Errorf("a command that writes nothing showed writes: %s", strings.Join(written, ", "))
	}
	return o, nil
}

// mountPlan lists the mounts a command must see, parents first: every
// mount of this process's namespace that is not hidden under another,
// but /proc, /sys and /dev and what is below them.
func mountPlan() ([]mountSpec, error) {
	// The calling thread's: /proc/self is the main thread's, which need
	// not be in the runner's namespace (see onOwnThread).
	data, err := os.ReadFile("/proc/thread-self/mountinfo")
	if err != nil {
		return nil, err
	}
	return planMounts(data, func(p string) (mountSpec, bool) {
		info, err := os.Lstat(p)
		if err != nil {
			return mountSpec{}, false // gone, or out of reach
		}
		st, ok := info.Sys().(*syscall.Stat_t)
		if !ok {
			return mountSpec{}, false
		}
		return mountSpec{path: p, overlay: info.IsDir(), mode: st.Mode, uid: st.Uid, gid: st.Gid}, true
	})
}

// planMounts is mountPlan over the text of a mountinfo file, with stat
// telling what is at a mount point.
func planMounts(data []byte, stat func(string) (mountSpec, bool)) ([]mountSpec, error) {
	type entry struct {
		id, parent, path, fstype string
		index                    int
	}
	var all []entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		f := strings.Fields(sc.Text())
		sep := slices.Index(f, "-")
		if len(f) < 5 || sep < 0 || sep+1 >= len(f) {
			return nil, fmt.Errorf("mountinfo: cannot read %q", sc.Text())
		}
		all = append(all, entry{f[0], f[1], unescapeMount(f[4]), f[sep+1], len(all)})
	}
	if err := sc.Err(); err != nil {
		return nil, err
	}
	below := func(p, dir string) bool { return dir == "/" && p != "/" || strings.HasPrefix(p, dir+"/") }
	byID := map[string]entry{}
	for _, e := range all {
		byID[e.id] = e
	}
	// A mount is hidden when another is mounted on its root, on a
	// folder above it in the same parent or later on the same folder, or
	// when its parent is hidden; a mount stacked on its parent's root is
	// hidden only by what hides the parent but itself.
	var hidden func(e entry, except string, depth int) bool
	hidden = func(e entry, except string, depth int) bool {
		for i, n := range all {
			if n.id == e.id || n.id == except {
				continue
			}
			if n.parent == e.id && n.path == e.path || n.parent == e.parent && (below(e.path, n.path) || n.path == e.path && i > e.index) {
				return true
			}
		}
		p, ok := byID[e.parent]
		if !ok || p.id == e.id || depth > 64 {
			return false
		}
		if p.path == e.path {
			return hidden(p, e.id, depth+1)
		}
		return hidden(p, "", depth+1)
	}
	var out []mountSpec
	seen := map[string]bool{}
	for _, e := range slices.Backward(all) {
		system := slices.ContainsFunc([]string{"/proc", "/sys", "/dev"}, func(d string) bool { return e.path == d || below(e.path, d) })
		if system || e.fstype == "autofs" || seen[e.path] || hidden(e, "", 0) {
			continue
		}
		seen[e.path] = true
		if m, ok := stat(e.path); ok {
			out = append(out, m)
		}
	}
	if !seen["/"] {
		return nil, errors.New("mountinfo lists no visible mount on /")
	}
	slices.SortStableFunc(out, func(a, b mountSpec) int { return depth(a.path) - depth(b.path) })
	return out, nil
}

func depth(p string) int {
	if p == "/" {
		return 0
	}
	return strings.Count(p, "/")
}

// unescapeMount decodes the octal escapes (\040) of a mountinfo path.
func unescapeMount(s string) string {
	if !strings.Contains(s, `\`) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		if s[i] == '\\' && i+4 <= len(s) {
			if n, err := strconv.ParseUint(s[i+1:i+4], 8, 8); err == nil {
				b.WriteByte(byte(n))
				i += 3
				continue
			}
		}
		b.WriteByte(s[i])
	}
	return b.String()
}

// observation is one command's overlays.
type observation struct {
	o *overlays
	// done tells the thread holding the namespace that the command
	// ended; it answers on read.
	done chan struct{}
	read chan readResult
}

type readResult struct {
	written []string
	err     error
}

// The folders in a command's tmpfs: root, the mount point of the
// overlays (bwrap's root); shm, bound on /dev/shm; u<i> and w<i>, the
// upper and work folders of the i-th mount.
const (
	obRoot = "root"
	obShm  = "shm"
	// scratchOptions bound the tmpfs: a command writing outside is seen
	// by its first file, and may not fill the runner's memory.
	scratchOptions = "size=64m,nr_inodes=16384,mode=0700"
)

func (ob *observation) path(name string) string { return filepath.Join(ob.o.dir, name) }
func (ob *observation) upper(i int) string      { return ob.path("u" + strconv.Itoa(i)) }
func (ob *observation) work(i int) string       { return ob.path("w" + strconv.Itoa(i)) }

func (o *overlays) begin() *observation {
	return &observation{o: o, done: make(chan struct{}), read: make(chan readResult, 1)}
}

// bwrapMounts are bwrap's filesystem options for this command: the
// overlays as its root, /sys read-only, fresh /dev and /proc, shm on
// /dev/shm and the rest of /dev read-only.
func (ob *observation) bwrapMounts() []string {
	return []string{
		"--bind", ob.path(obRoot), "/",
		"--ro-bind-try", "/sys", "/sys", "--dev", "/dev", "--proc", "/proc",
		"--bind", ob.path(obShm), "/dev/shm", "--remount-ro", "/dev",
	}
}

// start starts cmd (bwrap) in a mount namespace of its own holding the
// overlays, on a thread that lives until finish: bwrap's
// --die-with-parent kills the command when the thread that started it
// ends (PR_SET_PDEATHSIG follows the thread, not the process), and only
// that thread sees the upper folders.
func (ob *observation) start(cmd *exec.Cmd) error {
	errc := make(chan error, 1)
	go onOwnThread(func() {
		if _, err := ob.mountAll(); err != nil {
			errc <- err
			return
		}
		if err := cmd.Start(); err != nil {
			errc <- err
			return
		}
		errc <- nil
		<-ob.done
		written, err := ob.readUppers()
		ob.read <- readResult{written, err}
	})
	return <-errc
}

// finish, once the command has ended, returns what it wrote outside its
// folders as host paths with what happened ("/tmp/x (written)",
// "/etc/motd (removed)"), and lets the thread holding its namespace end.
// A command killed (timeout, interrupted run) kills bwrap, whose
// processes die a moment later: what they write then may be missed.
func (ob *observation) finish() ([]string, error) {
	close(ob.done)
	r := <-ob.read
	return r.written, r.err
}

// tryMounts mounts the overlays on a thread of its own that then ends,
// and returns the index of the mount that failed, if one did.
func (ob *observation) tryMounts() (int, error) {
	var at int
	var err error
	done := make(chan struct{})
	go onOwnThread(func() {
		defer close(done)
		at, err = ob.mountAll()
	})
	<-done
	return at, err
}

// onOwnThread runs f on a thread locked to it and ended with it, so that
// f may change the thread's mount namespace. The runtime ends a locked
// thread whose goroutine returns, but for the main thread, which it
// parks for ever instead (its namespace, overlays and all, would live as
// long as the runner): on the main thread, f runs on another goroutine,
// which cannot be scheduled on this one's locked thread.
func onOwnThread(f func()) {
	runtime.LockOSThread()
	if unix.Gettid() != unix.Getpid() {
		f() // never unlocked: the runtime ends the thread
		return
	}
	done := make(chan struct{})
	go func() {
		defer close(done)
		runtime.LockOSThread()
		if unix.Gettid() == unix.Getpid() {
			panic("runner: a goroutine ran on a thread locked to another")
		}
		f()
	}()
	<-done
	runtime.UnlockOSThread()
}

// mountAll enters a new mount namespace on the calling thread, which must
// be locked and be ended after, mounts the command's tmpfs, makes its
// folders and mounts the overlays. It returns the index of the mount
// that failed, or -1.
func (ob *observation) mountAll() (int, error) {
	if err := unix.Unshare(unix.CLONE_NEWNS); err != nil {
		return -1, fmt.Errorf("entering a mount namespace of its own: %w", err)
	}
	if err := unix.Mount("", "/", "", unix.MS_REC|unix.MS_PRIVATE, ""); err != nil {
		return -1, fmt.Errorf("making the mounts private: %w", err)
	}
	fd, err := openPath(unix.AT_FDCWD, ob.o.dir, true)
	if err != nil {
		return -1, err
	}
	err = unix.Mount("tmpfs", fdPath(fd), "tmpfs", unix.MS_NOSUID|unix.MS_NODEV, scratchOptions)
	unix.Close(fd)
	if err != nil {
		return -1, fmt.Errorf("mounting a tmpfs on %s: %w", ob.o.dir, err)
	}
	// The tmpfs is new and the runner's alone: plain paths are safe.
	if err := os.Mkdir(ob.path(obRoot), 0o755); err != nil {
		return -1, err
	}
	if err := mkdirMode(ob.path(obShm), 0o1777, 0, 0); err != nil {
		return -1, err
	}
	for i, m := range ob.o.mounts {
		if !m.overlay {
			continue
		}
		if err := mkdirMode(ob.upper(i), m.mode, m.uid, m.gid); err != nil {
			return -1, err
		}
		if err := os.Mkdir(ob.work(i), 0o700); err != nil {
			return -1, err
		}
	}
	for i := range ob.o.mounts {
		if err := ob.mount(i); err != nil {
			return i, err
		}
	}
	return -1, nil
}

// openPath opens name (below dirfd, when it is not AT_FDCWD) as a path
// only, following no symlink.
func openPath(dirfd int, name string, dir bool) (int, error) {
	how := &unix.OpenHow{Flags: unix.O_PATH | unix.O_CLOEXEC, Resolve: unix.RESOLVE_NO_SYMLINKS | unix.RESOLVE_NO_MAGICLINKS}
	if dir {
		how.Flags |= unix.O_DIRECTORY
	}
	if dirfd != unix.AT_FDCWD {
		how.Resolve |= unix.RESOLVE_BENEATH
	}
	fd, err := unix.Openat2(dirfd, name, how)
	if err != nil {
		return -1, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return fd, nil
}

// fdPath names an open descriptor to mount(2).
func fdPath(fd int) string { return "/proc/self/fd/" + strconv.Itoa(fd) }

// mkdirMode makes a folder with exactly the mode (permission, setuid,
// setgid and sticky bits) and owner given.
func mkdirMode(dir string, mode, uid, gid uint32) error {
	if err := os.Mkdir(dir, 0o700); err != nil {
		return err
	}
	if err := os.Lchown(dir, int(uid), int(gid)); err != nil {
		return err
	}
	return unix.Fchmodat(unix.AT_FDCWD, dir, mode&0o7777, 0)
}

// mount mounts the i-th mount of the plan below the command's root.
func (ob *observation) mount(i int) error {
	m := ob.o.mounts[i]
	var fds []int
	defer func() {
		for _, fd := range fds {
			unix.Close(fd)
		}
	}()
	open := func(dirfd int, name string, dir bool) (string, error) {
		fd, err := openPath(dirfd, name, dir)
		if err != nil {
			return "", err
		}
		fds = append(fds, fd)
		return fdPath(fd), nil
	}
	// The root as mounted so far: opened anew, since the mounts on it
	// hide what an older descriptor sees.
	target, err := open(unix.AT_FDCWD, ob.path(obRoot), true)
	if err != nil {
		return err
	}
	if m.path != "/" {
		if target, err = open(fds[0], strings.TrimPrefix(m.path, "/"), m.overlay); err != nil {
			return fmt.Errorf("mounting %s: %w", m.path, err)
		}
	}
	lower, err := open(unix.AT_FDCWD, m.path, m.overlay)
	if err != nil {
		return fmt.Errorf("mounting %s: %w", m.path, err)
	}
	if !m.overlay {
		if err := unix.Mount(lower, target, "", unix.MS_BIND, ""); err != nil {
			return fmt.Errorf("binding %s: %w", m.path, err)
		}
		if err := unix.Mount("", target, "", unix.MS_BIND|unix.MS_REMOUNT|unix.MS_RDONLY, ""); err != nil {
			return fmt.Errorf("binding %s read-only: %w", m.path, err)
		}
		return nil
	}
	upper, err := open(unix.AT_FDCWD, ob.upper(i), true)
	if err != nil {
		return err
	}
	work, err := open(unix.AT_FDCWD, ob.work(i), true)
	if err != nil {
		return err
	}
	// redirect_dir=on lets a folder of the lower layer be renamed (else
	// EXDEV, an attempt nobody would see); index=off, since the lower
	// layers are shared by every command's overlays.
	opts := "lowerdir=" + lower + ",upperdir=" + upper + ",workdir=" + work + ",redirect_dir=on,index=off"
	if err := unix.Mount("overlay", target, "overlay", 0, opts); err != nil {
		return fmt.Errorf("mounting an overlay of %s: %w", m.path, err)
	}
	return nil
}

// maxOutside bounds how many written paths a command's report names.
const maxOutside = 20

// readUppers lists what the command wrote outside its folders; it runs
// on the thread that holds the command's namespace.
func (ob *observation) readUppers() ([]string, error) {
	var out []string
	more := 0
	add := func(s string) {
		if len(out) < maxOutside {
			out = append(out, s)
		} else {
			more++
		}
	}
	read := func(dir, at string, mode, uid, gid uint32) error {
		info, err := os.Lstat(dir)
		if err != nil {
			return err
		}
		if st, ok := info.Sys().(*syscall.Stat_t); !ok || st.Mode != mode || st.Uid != uid || st.Gid != gid {
			add(at + " (mode or owner changed)")
		}
		r, err := os.OpenRoot(dir)
		if err != nil {
			return err
		}
		defer r.Close()
		return fs.WalkDir(r.FS(), ".", func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if p == "." {
				return nil
			}
			host := path.Join(at, p)
			switch {
			case d.Type()&fs.ModeCharDevice != 0 && isWhiteout(d):
				add(host + " (removed)")
			case d.IsDir():
				// A folder is in the upper layer because something in
				// it was written, or as itself: made, renamed or given
				// another mode. Only the latter are named on their own.
				entries, err := fs.ReadDir(r.FS(), p)
				if err == nil && len(entries) == 0 {
					add(host + " (written)")
				}
			default:
				add(host + " (written)")
			}
			if more > 0 {
				return fs.SkipAll
			}
			return nil
		})
	}
	for i, m := range ob.o.mounts {
		if !m.overlay {
			continue
		}
		if err := read(ob.upper(i), m.path, syscall.S_IFDIR|m.mode&0o7777, m.uid, m.gid); err != nil {
			return nil, fmt.Errorf("reading the overlay of %s: %w", m.path, err)
		}
	}
	if err := read(ob.path(obShm), "/dev/shm", syscall.S_IFDIR|0o1777, 0, 0); err != nil {
		return nil, fmt.Errorf("reading /dev/shm: %w", err)
	}
	if more > 0 {
		out = append(out, "and more")
	}
	return out, nil
}

// isWhiteout reports whether d is an overlay whiteout: a character device
// numbered 0/0, left where a lower file was removed.
func isWhiteout(d fs.DirEntry) bool {
	info, err := d.Info()
	if err != nil {
		return false
	}
	st, ok := info.Sys().(*syscall.Stat_t)
	return ok && st.Rdev == 0
}
