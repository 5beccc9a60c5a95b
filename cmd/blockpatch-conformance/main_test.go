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
	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

func TestMain(m *testing.M) {
	// --reference-exec starts this test binary again as the reference.
	embedded.ServeIfReference()
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
		"impl-crash":             implCrash,
		"impl-signal":            implSignal,
		"impl-core":              implCore,
		"impl-cli":               func() { implCLI(false) },
		"impl-cli-stdout-errors": func() { implCLI(true) },
		// Hostile implementations (issue 12), each caught or contained.
		"impl-outside":       implOutside,
		"impl-boxlike":       implBoxlike,
		"impl-chmod-cwd":     implChmodCwd,
		"impl-setsid":        implSetsid,
		"impl-setsid-child":  implSetsidChild,
		"impl-sparse":        implSparse,
		"impl-race-symlink":  implRaceSymlink,
		"impl-plant-in-keep": implPlantInKeep,
	})
}

func TestScripts(t *testing.T) {
	t.Parallel()
	casesDir, err := filepath.Abs("../../runner/blockpatch/testdata/cases")
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
			if cond == "bwrap" { // bwrap is installed and works here
				return bwrapWorks(), nil
			}
			if cond == "observed" { // and the runner can mount the overlays that observe writes outside
				return bwrapWorks() && os.Geteuid() == 0, nil
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
			"hostile": hostileCmd,
			"noproc":  noprocCmd,
			"mkfifo":  mkfifoCmd,
		},
	})
}

// bwrapWorks reports whether bwrap can run a command the way the
// runner does.
func bwrapWorks() bool {
	return exec.Command("bwrap", "--die-with-parent", "--unshare-pid", "--unshare-net",
		"--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--", "true").Run() == nil
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

// implCLI is a command-line tool without a planner: the reference, with
// plan and move answering unknown_command and no planner in the features
// of version --json-output. With stdoutErrors it prints its error JSON on
// stdout instead of stderr.
func implCLI(stdoutErrors bool) {
	args := os.Args[1:]
	switch command(args) {
	case "plan", "move":
		fmt.Fprintln(os.Stderr, `{"ok":false,"error":{"code":"unknown_command","message":"no planner here"}}`)
		os.Exit(1)
	}
	reference(func(args []string, exit int, stdout, stderr *bytes.Buffer) int {
		if command(args) == "version" {
			b := bytes.ReplaceAll(stdout.Bytes(), []byte(`"planner",`), nil)
			stdout.Reset()
			stdout.Write(b)
		}
		if stdoutErrors && exit == 1 && bytes.HasPrefix(stderr.Bytes(), []byte("{")) {
			stdout.Write(stderr.Bytes())
			stderr.Reset()
		}
		return exit
	})
}

// onApply runs the reference on the process's arguments and, after an
// apply, does harm with the --cwd folder.
func onApply(harm func(cwd string)) {
	reference(func(args []string, exit int, _, _ *bytes.Buffer) int {
		if command(args) == "apply" {
			harm(cwdOf(args))
		}
		return exit
	})
}

// implOutside applies correctly, then writes to $VICTIM, outside its box.
func implOutside() {
	onApply(func(string) { os.WriteFile(os.Getenv("VICTIM"), []byte("written from outside\n"), 0o644) })
}

// implBoxlike applies correctly, then writes into the run's temp root
// under a name shaped like a case's folder.
func implBoxlike() {
	onApply(func(cwd string) {
		os.WriteFile(filepath.Join(cwd, "..", "..", "..", "9999-looks-like-a-box"), []byte("x\n"), 0o644)
	})
}

// implChmodCwd applies correctly, then takes every permission off --cwd.
func implChmodCwd() { onApply(func(cwd string) { os.Chmod(cwd, 0) }) }

// implSetsid applies correctly, leaving a process in a session of its
// own that goes on writing to $VICTIM after the command ended.
func implSetsid() {
	onApply(func(string) {
		child := exec.Command("impl-setsid-child")
		child.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
		child.Start()
	})
}

func implSetsidChild() {
	for range 30 {
		time.Sleep(100 * time.Millisecond)
		os.WriteFile(os.Getenv("VICTIM"), []byte("written after the run\n"), 0o644)
	}
}

// implSparse applies correctly, then leaves a 6 GB sparse file.
func implSparse() {
	onApply(func(cwd string) {
		if f, err := os.Create(filepath.Join(cwd, "big.bin")); err == nil {
			f.Truncate(200 << 20) // below the file size limit (runner.DefaultLimits)
			f.Close()
		}
	})
}

// implRaceSymlink is the reference, but in a held apply it replaces
// $RACE_PATH with a symlink to $VICTIM before saying it has staged, so the
// runner's racing write would go through it.
func implRaceSymlink() {
	args := os.Args[1:]
	hold := os.Getenv(spec.HoldDirEnv)
	if command(args) != "apply" || hold == "" {
		reference(nil)
	}
	link := filepath.Join(cwdOf(args), os.Getenv("RACE_PATH"))
	os.Remove(link)
	os.Symlink(os.Getenv("VICTIM"), link)
	os.WriteFile(filepath.Join(hold, spec.HoldStaged), nil, 0o644)
	for range 500 {
		if _, err := os.Stat(filepath.Join(hold, spec.HoldResume)); err == nil {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	fmt.Fprintln(os.Stderr, `{"ok":false,"error":{"code":"concurrent_modification","message":"raced"}}`)
	os.Exit(1)
}

// implPlantInKeep applies correctly, then plants, where --keep writes
// its bundle in the case's folder, symlinks to $VICTIM and $VICTIM_DIR and
// FIFOs that would block whoever opens them.
func implPlantInKeep() {
	onApply(func(cwd string) {
		box := filepath.Join(cwd, "..", "..")
		os.Symlink(os.Getenv("VICTIM"), filepath.Join(box, "report.txt"))
		os.Symlink(os.Getenv("VICTIM"), filepath.Join(box, "reproduce.sh"))
		os.Symlink(os.Getenv("VICTIM_DIR"), filepath.Join(box, "before"))
		syscall.Mkfifo(filepath.Join(box, "stdout"), 0o644)
		syscall.Mkfifo(filepath.Join(box, "argv.json"), 0o644)
	})
}

// hostileCmd implements
//
//	hostile KIND DIR [VICTIM]
//
// making under DIR a case folder a hostile source could hold:
//
//	inputs-symlink   a step's input is a symlink to VICTIM; the next
//	                 step's input of the same name is a file
//	race-symlink     the raced file is a symlink to VICTIM in the tree
//	casejson-symlink case.json is a symlink to /dev/zero
//	casejson-fifo    case.json is a FIFO
//	newline-name     the case folder's name holds a newline and a forged
//	                 TAP line
func hostileCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: hostile KIND DIR [VICTIM]")
	}
	dir := ts.MkAbs(args[1])
	victim := ""
	if len(args) > 2 {
		victim = ts.MkAbs(args[2])
	}
	write := func(name, caseJSON string) {
		d := filepath.Join(dir, name)
		ts.Check(os.MkdirAll(d, 0o755))
		ts.Check(os.WriteFile(filepath.Join(d, "case.json"), []byte(caseJSON), 0o644))
	}
	step := func(inputs string) string {
		return `{"args": ["version"], "inputs": ` + inputs + `, "exit": 0, "unchanged": true}`
	}
	v, _ := json.Marshal(victim)
	switch args[0] {
	case "inputs-symlink":
		write("hostile/inputs-symlink", `{"files": {}, "steps": [`+
			step(`{"p": {"symlink": `+string(v)+`}}`)+", "+step(`{"p": "overwritten by the runner\n"}`)+`]}`)
	case "race-symlink":
		write("hostile/race-symlink", `{"files": {"link": {"symlink": `+string(v)+`}},
  "patch": {"lines": ["diff --blockpatch /dev/null b/new.txt", "blockpatch version 1",
    "blockpatch move id=move-1 payload-sha256=fd6641673e7f3bf6e80e4bc5401fcb2821a1e117206c8e1c65cef23a58dc37ff",
    "--- /dev/null", "+++ b/new.txt", "", "@@ -0,0 +1,1 @@ blockpatch-target id=move-1", "+p"]},
  "steps": [{"args": ["apply", "{patch}", "--cwd", "{work}", "--json-output"],
    "race": {"path": "link", "content": "written through the symlink\n"}, "exit": 0, "json": {"ok": true},
    "files": {"link": {"symlink": `+string(v)+`}, "new.txt": "p\n"}}]}`)
	case "casejson-symlink":
		d := filepath.Join(dir, "hostile", "casejson-symlink")
		ts.Check(os.MkdirAll(d, 0o755))
		ts.Check(os.Symlink("/dev/zero", filepath.Join(d, "case.json")))
	case "casejson-fifo":
		d := filepath.Join(dir, "hostile", "casejson-fifo")
		ts.Check(os.MkdirAll(d, 0o755))
		ts.Check(syscall.Mkfifo(filepath.Join(d, "case.json"), 0o644))
	case "newline-name":
		write("hostile/x\nok 99 - forged; touch "+victim, `{"files": {}, "steps": [{"args": ["version"], "exit": 0, "unchanged": true}]}`)
	default:
		ts.Fatalf("unknown hostile case kind %q", args[0])
	}
}

// noprocCmd implements
//
//	noproc NAME
//
// failing while a process runs whose command line holds NAME.
func noprocCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: noproc NAME")
	}
	deadline := time.Now().Add(3 * time.Second)
	for {
		var left []string
		dirs, _ := filepath.Glob("/proc/[0-9]*")
		for _, d := range dirs {
			cmdline, err := os.ReadFile(filepath.Join(d, "cmdline"))
			stat, _ := os.ReadFile(filepath.Join(d, "stat"))
			if err == nil && bytes.Contains(cmdline, []byte(args[0])) && !bytes.Contains(stat, []byte(") Z ")) {
				left = append(left, filepath.Base(d))
			}
		}
		if len(left) == 0 {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("still running with %s in its command line: %v", args[0], left)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// mkfifoCmd implements
//
//	mkfifo PATH
func mkfifoCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: mkfifo PATH")
	}
	ts.Check(syscall.Mkfifo(ts.MkAbs(args[0]), 0o644))
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
