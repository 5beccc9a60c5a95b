//go:build unix

package main

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

func TestMain(m *testing.M) {
	// --reference-exec starts this test binary again as the reference.
	if embedded.AsReference(os.Args[0]) {
		os.Exit(embedded.Main(os.Args[1:]))
	}
	testscript.Main(m, map[string]func(){
		"blockpatch-conformance": main,
		// Deliberately broken implementations, each caught by a script.
		"impl-nothing":  implNothing,
		"impl-hang":     implHang,
		"impl-sleep":    func() { time.Sleep(time.Hour) },
		"impl-escape":   implEscape,
		"impl-tempfile": implTempfile,
		"impl-wrongcode": func() {
			reference(func(args []string, exit int, stdout, stderr *bytes.Buffer) int {
				if exit == 1 {
					stderr.Reset()
					stderr.WriteString(`{"ok":false,"error":{"code":"io_error","message":"always io_error"}}` + "\n")
				}
				return exit
			})
		},
		"impl-crash":  implCrash,
		"impl-signal": implSignal,
		"impl-core":   implCore,
	})
}

func TestScripts(t *testing.T) {
	t.Parallel()
	casesDir, err := filepath.Abs("../../runner/testdata/cases")
	if err != nil {
		t.Fatal(err)
	}
	upstream, err := filepath.Abs("../../../shared/upstream-1.1.0/conformance/cases")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Condition: func(cond string) (bool, error) {
			if cond == "upstream" {
				_, err := os.Stat(upstream)
				return err == nil, nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			env.Setenv("CASES", casesDir)
			env.Setenv("UPSTREAM", upstream)
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"report":  reportCmd,
			"verdict": verdictCmd,
			"kept":    keptCmd,
			"gone":    goneCmd,
		},
	})
}

// reference runs the reference CLI on the process's arguments, lets after
// change what it did, and prints the result.
func reference(after func(args []string, exit int, stdout, stderr *bytes.Buffer) int) {
	var stdout, stderr bytes.Buffer
	args := os.Args[1:]
	exit := cli.Run(args, cli.Env{Stdout: &stdout, Stderr: &stderr})
	if after != nil {
		exit = after(args, exit, &stdout, &stderr)
	}
	os.Stdout.Write(stdout.Bytes())
	os.Stderr.Write(stderr.Bytes())
	os.Exit(exit)
}

func command(args []string) string {
	if len(args) == 0 {
		return ""
	}
	return args[0]
}

func cwdOf(args []string) string {
	for i, a := range args {
		if (a == "--cwd" || a == "-d") && i+1 < len(args) {
			return args[i+1]
		}
	}
	return "."
}

// implNothing answers every command with {"ok":true} and does nothing.
func implNothing() {
	fmt.Println(`{"ok":true}`)
}

// implHang hangs in apply, with a helper process that holds stdout; its
// pid goes to $HANG_PIDFILE so a script can check it was killed too.
func implHang() {
	if command(os.Args[1:]) != "apply" {
		reference(nil)
	}
	helper := exec.Command("impl-sleep")
	helper.Stdout = os.Stdout
	if err := helper.Start(); err != nil {
		os.Exit(3)
	}
	if f := os.Getenv("HANG_PIDFILE"); f != "" {
		os.WriteFile(f, []byte(strconv.Itoa(helper.Process.Pid)), 0o644)
	}
	time.Sleep(time.Hour)
}

// implEscape applies correctly, then writes next to the work tree.
func implEscape() {
	reference(func(args []string, exit int, _, _ *bytes.Buffer) int {
		if command(args) == "apply" {
			os.WriteFile(filepath.Join(cwdOf(args), "..", "escaped.txt"), []byte("outside\n"), 0o644)
		}
		return exit
	})
}

// implTempfile applies correctly but leaves a temp file behind.
func implTempfile() {
	reference(func(args []string, exit int, _, _ *bytes.Buffer) int {
		if command(args) == "apply" && exit == 0 {
			os.WriteFile(filepath.Join(cwdOf(args), ".blockpatch-tmp-1234"), nil, 0o600)
		}
		return exit
	})
}

// implCrash panics in apply: a Go panic exits 2.
func implCrash() {
	if command(os.Args[1:]) == "apply" {
		panic("deliberate crash")
	}
	reference(nil)
}

// implSignal kills itself in apply.
func implSignal() {
	if command(os.Args[1:]) == "apply" {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
		time.Sleep(time.Hour)
	}
	reference(nil)
}

// implCore implements core only: no version, plan or move, and none of
// the other command-line forms such as -d and -i.
func implCore() {
	args := os.Args[1:]
	reject := func(code string) {
		fmt.Fprintf(os.Stderr, `{"ok":false,"error":{"code":%q,"message":"not implemented"}}`+"\n", code)
		os.Exit(1)
	}
	switch command(args) {
	case "version", "plan", "move":
		reject("unknown_command")
	}
	for _, a := range args {
		if a == "-d" || a == "-i" || a == "--directory" || a == "--input" {
			reject("unknown_option")
		}
	}
	reference(nil)
}

// jsonReport is the part of the JSON report the scripts look at.
type jsonReport struct {
	Certificate struct {
		Passed, Failed, Skipped, Selected int
		Partial                           []string
		Seed                              uint64
		Profile                           string
		Corpus                            struct {
			Cases  int
			SHA256 string
		}
		Implementation struct {
			Name  string
			Files []struct{ Path, SHA256 string }
		}
		Levels []struct{ Level, Verdict string }
	}
	Results []struct {
		Name, Verdict, Expect, Kept, Reason string
		Failure                             *struct {
			Step     string
			Argv     []string
			Problems []string
		}
	}
}

func readReport(ts *testscript.TestScript, file string) jsonReport {
	var rep jsonReport
	data := ts.ReadFile(file)
	if err := json.Unmarshal([]byte(data), &rep); err != nil {
		ts.Fatalf("%s is not a JSON report: %v", file, err)
	}
	return rep
}

// reportCmd implements
//
//	report json FILE    FILE is a well-formed JSON report
//	report junit FILE   FILE is well-formed JUnit XML that agrees with itself
//
// checking the structure of the reports, not their text.
func reportCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: report json|junit FILE")
	}
	switch args[0] {
	case "json":
		rep := readReport(ts, args[1])
		c := rep.Certificate
		if len(rep.Results) == 0 || c.Selected != len(rep.Results) || c.Passed+c.Failed+c.Skipped != len(rep.Results) {
			ts.Fatalf("counts %+v do not add up to %d results", c, len(rep.Results))
		}
		if len(c.Corpus.SHA256) != 64 || c.Seed == 0 || c.Profile == "" || c.Implementation.Name == "" || len(c.Levels) != 3 {
			ts.Fatalf("certificate incomplete: %+v", c)
		}
		for _, r := range rep.Results {
			if r.Name == "" || r.Verdict == "" {
				ts.Fatalf("result without name or verdict: %+v", r)
			}
			failed := !slices.Contains([]string{"pass", "skip", "unsupported", "out-of-profile"}, r.Verdict)
			if failed && r.Verdict != "unexpected-pass" && (r.Failure == nil || len(r.Failure.Problems) == 0 || r.Failure.Step == "") {
				ts.Fatalf("%s: verdict %s without a failure report", r.Name, r.Verdict)
			}
		}
	case "junit":
		var doc struct {
			XMLName  xml.Name `xml:"testsuites"`
			Tests    int      `xml:"tests,attr"`
			Failures int      `xml:"failures,attr"`
			Skipped  int      `xml:"skipped,attr"`
			Suites   []struct {
				Tests int `xml:"tests,attr"`
				Cases []struct {
					Name    string    `xml:"name,attr"`
					Failure *struct{} `xml:"failure"`
					Skipped *struct{} `xml:"skipped"`
				} `xml:"testcase"`
			} `xml:"testsuite"`
		}
		if err := xml.Unmarshal([]byte(ts.ReadFile(args[1])), &doc); err != nil {
			ts.Fatalf("%s is not XML: %v", args[1], err)
		}
		if len(doc.Suites) != 1 || len(doc.Suites[0].Cases) != doc.Tests || doc.Suites[0].Tests != doc.Tests || doc.Tests == 0 {
			ts.Fatalf("junit: %d tests in %d suites", doc.Tests, len(doc.Suites))
		}
		var failures, skipped int
		for _, c := range doc.Suites[0].Cases {
			if c.Failure != nil {
				failures++
			}
			if c.Skipped != nil {
				skipped++
			}
		}
		if failures != doc.Failures || skipped != doc.Skipped {
			ts.Fatalf("junit: %d failure and %d skipped elements, attributes say %d and %d", failures, skipped, doc.Failures, doc.Skipped)
		}
	default:
		ts.Fatalf("usage: report json|junit FILE")
	}
}

// verdictCmd implements
//
//	verdict FILE SELECTOR VERDICT...
//
// asserting that every result of the JSON report FILE that SELECTOR picks
// has one of the verdicts, and that it picks at least one. SELECTOR is a
// case name, expect=pass, expect=fail, or all.
func verdictCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 3 {
		ts.Fatalf("usage: verdict FILE SELECTOR VERDICT...")
	}
	rep := readReport(ts, args[0])
	picked := 0
	for _, r := range rep.Results {
		switch sel := args[1]; {
		case sel == "all", sel == "expect="+r.Expect, sel == r.Name:
		default:
			continue
		}
		picked++
		if !slices.Contains(args[2:], r.Verdict) {
			ts.Fatalf("%s: verdict %s (%s), want %s", r.Name, r.Verdict, r.Reason, strings.Join(args[2:], " or "))
		}
	}
	if picked == 0 {
		ts.Fatalf("%s picks no result", args[1])
	}
}

// keptCmd implements
//
//	kept FILE NAME
//
// setting $KEPT to the folder kept for case NAME in the JSON report FILE.
func keptCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: kept FILE NAME")
	}
	for _, r := range readReport(ts, args[0]).Results {
		if r.Name == args[1] {
			if r.Kept == "" {
				ts.Fatalf("%s was not kept", r.Name)
			}
			ts.Setenv("KEPT", r.Kept)
			return
		}
	}
	ts.Fatalf("no result for %s", args[1])
}

// goneCmd implements
//
//	gone PIDFILE
//
// failing while the process whose pid PIDFILE holds is still running.
func goneCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: gone PIDFILE")
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[0])))
	ts.Check(err)
	deadline := time.Now().Add(3 * time.Second)
	for syscall.Kill(pid, 0) == nil {
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(stat)); len(f) > 2 && f[2] == "Z" {
				return // killed, waiting to be reaped by whoever adopted it
			}
		}
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			ts.Fatalf("process %d is still running", pid)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
