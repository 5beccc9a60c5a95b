package main

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// upstream is the published blockpatch 1.1.0 material; it exists on
// developer machines and in CI, not in a user's fresh clone.
const upstream = "../../../shared/upstream-1.1.0"

func needUpstream(t *testing.T) {
	t.Helper()
	if _, err := os.Stat(upstream); err != nil {
		t.Skipf("upstream material not present (%v)", err)
	}
}

// blockpatch runs the built CLI and returns its exit status and output.
func blockpatch(t *testing.T, args ...string) (int, string, string) {
	t.Helper()
	cmd := exec.Command("blockpatch", args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	code := 0
	if ee, ok := err.(*exec.ExitError); ok {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, stdout.String(), stderr.String()
}

// files returns every regular file under dir, skipping .gitkeep.
func files(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || d.Name() == ".gitkeep" {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(dir, path)
		out[filepath.ToSlash(rel)] = string(b)
		return nil
	})
	return out
}

func write(t *testing.T, dir string, tree map[string]string) {
	t.Helper()
	for name, content := range tree {
		full := filepath.Join(dir, name)
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// jsonField decodes a one-line JSON document and returns a top-level or
// error field.
func jsonField(t *testing.T, doc, field string) any {
	t.Helper()
	var v map[string]any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatalf("not JSON: %q", doc)
	}
	if e, ok := v["error"].(map[string]any); ok {
		return e[field]
	}
	return v[field]
}

// TestUpstreamCases runs upstream's ten conformance cases through the CLI:
// check, apply, retry and reverse for pass cases; check and apply with the
// expected code and an untouched tree for fail cases.
func TestUpstreamCases(t *testing.T) {
	t.Parallel()
	needUpstream(t)
	dirs, _ := filepath.Glob(filepath.Join(upstream, "conformance/cases/*/case.json"))
	if len(dirs) != 10 {
		t.Fatalf("found %d upstream cases, want 10", len(dirs))
	}
	for _, path := range dirs {
		name := filepath.Base(filepath.Dir(path))
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			raw, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			var c struct {
				Expect, ErrorCode, Patch string
				Files, ExpectedFiles     map[string]string
				ExpectedAbsent           []string
			}
			dec := json.NewDecoder(bytes.NewReader(raw))
			if err := dec.Decode(&struct {
				Expect         *string            `json:"expect"`
				ErrorCode      *string            `json:"error_code"`
				Patch          *string            `json:"patch"`
				Files          *map[string]string `json:"files"`
				ExpectedFiles  *map[string]string `json:"expected_files"`
				ExpectedAbsent *[]string          `json:"expected_absent"`
			}{&c.Expect, &c.ErrorCode, &c.Patch, &c.Files, &c.ExpectedFiles, &c.ExpectedAbsent}); err != nil {
				t.Fatal(err)
			}
			tmp := t.TempDir()
			work, patch := filepath.Join(tmp, "work"), filepath.Join(tmp, "patch.blockpatch")
			os.Mkdir(work, 0o755)
			write(t, work, c.Files)
			os.WriteFile(patch, []byte(c.Patch), 0o644)
			run := func(args ...string) (int, string, string) {
				return blockpatch(t, append(args, patch, "--cwd", work, "--json-output")...)
			}
			if c.Expect == "fail" {
				for _, cmd := range []string{"check", "apply"} {
					code, _, stderr := run(cmd)
					if code == 0 || jsonField(t, stderr, "code") != c.ErrorCode {
						t.Errorf("%s: exit %d, stderr %s; want code %s", cmd, code, stderr, c.ErrorCode)
					}
				}
				if diff := cmp.Diff(c.Files, files(t, work)); diff != "" {
					t.Errorf("tree changed (-want +got):\n%s", diff)
				}
				return
			}
			steps := []struct {
				args   []string
				status string
				tree   map[string]string
			}{
				{[]string{"check"}, "applied", c.Files},
				{[]string{"apply"}, "applied", c.ExpectedFiles},
				{[]string{"apply"}, "already_applied", c.ExpectedFiles},
				{[]string{"apply", "-R"}, "applied", c.Files},
			}
			for _, s := range steps {
				code, stdout, stderr := run(s.args...)
				if code != 0 || jsonField(t, stdout, "status") != s.status {
					t.Fatalf("%v: exit %d, stdout %s, stderr %s; want status %s", s.args, code, stdout, stderr, s.status)
				}
				if diff := cmp.Diff(s.tree, files(t, work)); diff != "" {
					t.Fatalf("%v: tree (-want +got):\n%s", s.args, diff)
				}
			}
		})
	}
}

// TestUpstreamExamples runs each upstream example as its README says:
// check, then apply on a copy of work/, which must then equal expected/.
func TestUpstreamExamples(t *testing.T) {
	t.Parallel()
	needUpstream(t)
	patches, _ := filepath.Glob(filepath.Join(upstream, "examples/*/patch.blockpatch"))
	if len(patches) != 8 {
		t.Fatalf("found %d upstream examples, want 8", len(patches))
	}
	for _, patch := range patches {
		dir := filepath.Dir(patch)
		name := filepath.Base(dir)
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			work := t.TempDir()
			before := files(t, filepath.Join(dir, "work"))
			write(t, work, before)
			var flags []string
			if name == "reverse" {
				flags = []string{"-R"}
			}
			args := func(cmd string) []string { return append(append([]string{cmd}, flags...), patch, "-d", work) }
			if strings.HasPrefix(name, "failure-") {
				code, _, stderr := blockpatch(t, args("check")...)
				if code != 1 || !strings.Contains(stderr, "target anchor is ambiguous") {
					t.Errorf("check: exit %d, stderr %q", code, stderr)
				}
				if diff := cmp.Diff(before, files(t, work)); diff != "" {
					t.Errorf("tree changed (-want +got):\n%s", diff)
				}
				return
			}
			for _, cmd := range []string{"check", "apply"} {
				if code, _, stderr := blockpatch(t, args(cmd)...); code != 0 {
					t.Fatalf("%s: exit %d: %s", cmd, code, stderr)
				}
			}
			if diff := cmp.Diff(files(t, filepath.Join(dir, "expected")), files(t, work)); diff != "" {
				t.Errorf("tree after apply (-want +got):\n%s", diff)
			}
		})
	}
}

// TestPermissionDenied reads a file the CLI may not open. As root, which
// reads anything, the CLI runs as the unprivileged user nobody.
func TestPermissionDenied(t *testing.T) {
	// Not parallel: it writes an executable and runs it, and a process
	// forked meanwhile by a parallel test would inherit the open file and
	// make the exec fail with "text file busy".
	dir, err := os.MkdirTemp("", "blockpatch-perm-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	os.Chmod(dir, 0o755)
	self, err := exec.LookPath("blockpatch")
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "blockpatch")
	if data, err := os.ReadFile(self); err != nil || os.WriteFile(bin, data, 0o755) != nil {
		t.Fatalf("copying the CLI: %v", err)
	}
	work := filepath.Join(dir, "work")
	os.Mkdir(work, 0o755)
	write(t, work, map[string]string{"file.txt": "alpha\nmove me\nomega\ntarget\n"})
	os.Chmod(filepath.Join(work, "file.txt"), 0)
	patch := filepath.Join(dir, "p.blockpatch")
	os.WriteFile(patch, []byte(strings.ReplaceAll(`diff --blockpatch a/file.txt b/file.txt
blockpatch version 1
blockpatch move id=move-1 payload-sha256=f721166071c491fd38ac82a8432ecc349f39f537a969054ab2c8d3175c731e7e
--- a/file.txt
+++ b/file.txt

@@ -1,3 +1,2 @@ blockpatch-source id=move-1
 alpha
-move me
 omega
`, "\r", "")), 0o644)

	cmd := exec.Command(bin, "apply", patch, "-d", work, "--json-output")
	if os.Geteuid() == 0 {
		cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	}
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	err = cmd.Run()
	if ee, ok := err.(*exec.ExitError); !ok || ee.ExitCode() != 1 {
		t.Fatalf("exit: %v, stderr %s", err, stderr.String())
	}
	if got := jsonField(t, stderr.String(), "code"); got != "permission_denied" {
		t.Fatalf("code %v, want permission_denied: %s", got, stderr.String())
	}
	os.Chmod(filepath.Join(work, "file.txt"), 0o644)
	if got := files(t, work); got["file.txt"] != "alpha\nmove me\nomega\ntarget\n" || len(got) != 1 {
		t.Errorf("tree changed: %q", got)
	}
}
