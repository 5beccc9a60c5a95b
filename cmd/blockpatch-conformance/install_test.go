//go:build unix

package main

import (
	"archive/zip"
	"bytes"
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

var install = flag.Bool("install", false, "TestGoInstall: install every command with go install MODULE/cmd/...@VERSION from this checkout served as a module proxy (30 s of building; .ci/run sets it)")

// TestGoInstall does what a user's go install of a release does, with
// this checkout as the release: the module's files (git ls-files) zipped as
// a module proxy serves them, then go install MODULE/cmd/...@v0.0.0-test
// through that proxy. Every command must build from the module alone, and
// the certifiers' version must print the version installed and the
// corpus hash.
func TestGoInstall(t *testing.T) {
	t.Parallel()
	if !*install {
		t.Skip("builds every command anew; run with -install")
	}
	const version = "v0.0.0-test"
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	ls, err := exec.Command("git", "-C", root, "ls-files", "-z").Output()
	if err != nil {
		t.Skipf("git ls-files: %v (the test zips the checkout's tracked files)", err)
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "proxy", runner.ModulePath, "@v")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var zb bytes.Buffer
	zw := zip.NewWriter(&zb)
	for _, f := range strings.Split(strings.TrimSuffix(string(ls), "\x00"), "\x00") {
		data, err := os.ReadFile(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		w, err := zw.Create(runner.ModulePath + "@" + version + "/" + f)
		if err != nil {
			t.Fatal(err)
		}
		w.Write(data)
	}
	zw.Close()
	mod, err := os.ReadFile(filepath.Join(root, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	for name, data := range map[string][]byte{
		"list": []byte(version + "\n"), version + ".info": []byte(`{"Version":"` + version + `","Time":"2026-12-04T00:00:00Z"}`),
		version + ".mod": mod, version + ".zip": zb.Bytes(),
	} {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	proxy, _ := exec.Command("go", "env", "GOPROXY").Output()
	gobin := filepath.Join(tmp, "bin")
	cmd := exec.Command("go", "install", runner.ModulePath+"/cmd/...@"+version)
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOBIN="+gobin, "GOFLAGS=", "GOSUMDB=off",
		"GOPROXY=file://"+filepath.Join(tmp, "proxy")+","+strings.TrimSpace(string(proxy)))
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go install: %v\n%s", err, out)
	}
	for _, c := range []string{"blockpatch-conformance", "patchdiff-conformance"} {
		out, err := exec.Command(filepath.Join(gobin, c), "version").CombinedOutput()
		want := regexp.MustCompile(`^` + c + ` ` + regexp.QuoteMeta(runner.ModulePath) + ` ` + version + `\ncorpus sha256:[0-9a-f]{64} \(\d+ cases from embedded corpus\)\n$`)
		if err != nil || !want.Match(out) {
			t.Errorf("%s version: %v\n%s", c, err, out)
		}
	}
	if out, err := exec.Command(filepath.Join(gobin, "blockpatch"), "version").CombinedOutput(); err != nil {
		t.Errorf("blockpatch version: %v\n%s", err, out)
	}
}
