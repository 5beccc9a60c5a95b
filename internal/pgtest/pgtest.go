// Package pgtest starts a throwaway PostgreSQL server for tests: initdb
// and pg_ctl on a fresh folder, listening only on a Unix socket in that
// folder, as an unprivileged user when the tests run as root (PostgreSQL
// refuses to run as root). Nothing is mocked: the tests talk to the real
// server. Where the server binaries are not installed (Debian package
// postgresql, which .ci/run installs), Start returns ErrNoServer and the
// tests skip.
package pgtest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
)

// ErrNoServer means no PostgreSQL server binaries were found.
var ErrNoServer = errors.New("no PostgreSQL server binaries (initdb, pg_ctl) under /usr/lib/postgresql/*/bin or on PATH")

// nobody is the user the server runs as when the tests run as root.
const nobody = 65534

// Server is a running server; URL connects to its database postgres as
// the superuser postgres.
type Server struct {
	URL string
	dir string
	bin string
}

// binDir finds the newest installed server's binaries.
func binDir() (string, error) {
	matches, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	sort.Strings(matches)
	if len(matches) > 0 {
		return filepath.Dir(matches[len(matches)-1]), nil
	}
	if p, err := exec.LookPath("initdb"); err == nil {
		return filepath.Dir(p), nil
	}
	return "", ErrNoServer
}

// Start initializes a cluster in a new temp folder and starts it.
func Start() (*Server, error) {
	bin, err := binDir()
	if err != nil {
		return nil, err
	}
	dir, err := os.MkdirTemp("", "pgtest-")
	if err != nil {
		return nil, err
	}
	s := &Server{dir: dir, bin: bin}
	if err := os.Chmod(dir, 0o755); err != nil {
		s.Stop()
		return nil, err
	}
	if os.Geteuid() == 0 {
		if err := os.Chown(dir, nobody, nobody); err != nil {
			s.Stop()
			return nil, err
		}
	}
	data := filepath.Join(dir, "data")
	if out, err := s.run("initdb", "-D", data, "-U", "postgres", "--auth=trust", "-E", "UTF8", "--locale=C", "--no-sync"); err != nil {
		s.Stop()
		return nil, fmt.Errorf("initdb: %v: %s", err, out)
	}
	opts := fmt.Sprintf("-k %s -c listen_addresses='' -c fsync=off -c full_page_writes=off -p 5432", dir)
	if out, err := s.run("pg_ctl", "-D", data, "-o", opts, "-l", filepath.Join(dir, "log"), "-w", "-t", "60", "start"); err != nil {
		log, _ := os.ReadFile(filepath.Join(dir, "log"))
		s.Stop()
		return nil, fmt.Errorf("pg_ctl start: %v: %s %s", err, out, log)
	}
	s.URL = fmt.Sprintf("postgres://postgres@/postgres?host=%s&port=5432&sslmode=disable", dir)
	return s, nil
}

// CreateDB creates a database and returns its URL, so tests in parallel
// each have their own.
func (s *Server) CreateDB(name string) (string, error) {
	if out, err := s.run("createdb", "-h", s.dir, "-p", "5432", "-U", "postgres", name); err != nil {
		return "", fmt.Errorf("createdb: %v: %s", err, out)
	}
	return strings.Replace(s.URL, "/postgres?", "/"+name+"?", 1), nil
}

// Stop stops the server at once and removes its folder.
func (s *Server) Stop() {
	data := filepath.Join(s.dir, "data")
	if _, err := os.Stat(filepath.Join(data, "postmaster.pid")); err == nil {
		s.run("pg_ctl", "-D", data, "-m", "immediate", "-w", "stop")
	}
	os.RemoveAll(s.dir)
}

// run runs a server binary, as nobody when running as root.
func (s *Server) run(name string, args ...string) ([]byte, error) {
	argv := append([]string{filepath.Join(s.bin, name)}, args...)
	if os.Geteuid() == 0 {
		argv = append([]string{"setpriv", fmt.Sprintf("--reuid=%d", nobody), fmt.Sprintf("--regid=%d", nobody), "--clear-groups", "--"}, argv...)
	}
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Dir = s.dir
	cmd.Env = append(os.Environ(), "HOME="+s.dir, "LC_ALL=C")
	return cmd.CombinedOutput()
}
