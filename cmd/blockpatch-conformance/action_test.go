//go:build unix

package main

import (
	"encoding/xml"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestActionScript runs the GitHub Action's script here as the action
// runs it: go install from this checkout, a certification of a correct
// implementation (this test binary started as blockpatch, the reference)
// and of a broken one, each leaving JUnit XML with the right counts, the
// HTML page, the Markdown summary and the status the job fails on.
func TestActionScript(t *testing.T) {
	t.Parallel()
	if testing.Short() {
		t.Skip("the action script builds the certifier with go install")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip("go is not on PATH: the script installs with it")
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	good := filepath.Join(tmp, "blockpatch") // TestMain: started as blockpatch, the reference CLI
	if err := os.Symlink(exe, good); err != nil {
		t.Fatal(err)
	}
	gobin := filepath.Join(tmp, "gobin")
	certify := func(impl string, wantStatus int) string {
		t.Helper()
		out := filepath.Join(tmp, "out-"+filepath.Base(impl))
		summary := filepath.Join(tmp, "summary-"+filepath.Base(impl)+".md")
		cmd := exec.Command("bash", filepath.Join(root, "scripts", "certify.sh"))
		cmd.Dir = tmp
		cmd.Env = append(os.Environ(), "CERTIFY_IMPLEMENTATION="+impl, "CERTIFY_ARGS=-run ^(apply|paths)/ --parallel 2",
			"CERTIFY_OUTPUT="+out, "CERTIFY_SOURCE="+root, "GOBIN="+gobin, "GITHUB_STEP_SUMMARY="+summary)
		stdout, err := cmd.CombinedOutput()
		status := cmd.ProcessState.ExitCode()
		if status != wantStatus {
			t.Fatalf("certify.sh on %s: exit %d (%v), want %d:\n%s", impl, status, err, wantStatus, stdout)
		}
		var suites struct {
			Tests    int `xml:"tests,attr"`
			Failures int `xml:"failures,attr"`
		}
		data, err := os.ReadFile(filepath.Join(out, "junit.xml"))
		if err != nil {
			t.Fatal(err)
		}
		if err := xml.Unmarshal(data, &suites); err != nil || suites.Tests == 0 || (suites.Failures > 0) != (wantStatus == 1) {
			t.Errorf("%s: junit.xml: %d tests, %d failures (%v)", impl, suites.Tests, suites.Failures, err)
		}
		for _, f := range []string{"report.html", "report.md"} {
			if _, err := os.Stat(filepath.Join(out, f)); err != nil {
				t.Error(err)
			}
		}
		md, err := os.ReadFile(summary)
		if err != nil || !strings.Contains(string(md), "# blockpatch comparison") {
			t.Errorf("%s: step summary: %v\n%s", impl, err, md)
		}
		if !regexp.MustCompile(`(?m)^blockpatch-conformance github.com/blockpatch-conformance/blockpatch-conformance `).Match(stdout) {
			t.Errorf("%s: the script does not print the certifier's version:\n%s", impl, stdout)
		}
		return string(stdout)
	}
	certify(good, 0)
	if out := certify("impl-tempfile", 1); !strings.Contains(out, "some case failed") {
		t.Errorf("a failing run does not say so:\n%s", out)
	}
}

// TestActionInputs: every setting the script reads is one action.yml
// passes, and every one it passes the script reads.
func TestActionInputs(t *testing.T) {
	t.Parallel()
	script, err := os.ReadFile("../../scripts/certify.sh")
	if err != nil {
		t.Fatal(err)
	}
	action, err := os.ReadFile("../../action.yml")
	if err != nil {
		t.Fatal(err)
	}
	names := func(text []byte) []string {
		var out []string
		for _, m := range regexp.MustCompile(`CERTIFY_[A-Z]+`).FindAll(text, -1) {
			if !slices.Contains(out, string(m)) {
				out = append(out, string(m))
			}
		}
		slices.Sort(out)
		return out
	}
	if s, a := names(script), names(action); !slices.Equal(s, a) {
		t.Errorf("the script reads %v, action.yml sets %v", s, a)
	}
	if !strings.Contains(string(action), `run: bash "$GITHUB_ACTION_PATH/scripts/certify.sh"`) {
		t.Error("action.yml does not run scripts/certify.sh")
	}
}
