//go:build unix

package main

import (
	"bufio"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/blockpatch-conformance/blockpatch-conformance/embedded"
	pdrunner "github.com/blockpatch-conformance/blockpatch-conformance/runner/patchdiff"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"patchdiff-conformance": main,
		// The reference runtime as an adapter program, as cmd/patchdiff.
		"patchdiff-serve": func() {
			if err := pdrunner.Serve(os.Stdin, os.Stdout, embedded.PatchDIFFHello(), embedded.ApplyPatchDIFF); err != nil {
				os.Exit(1)
			}
		},
		"patchdiff-apply": func() {
			line, _ := bufio.NewReader(os.Stdin).ReadBytes('\n')
			out, err := embedded.ApplyPatchDIFF(line)
			if err != nil {
				os.Exit(1)
			}
			fmt.Printf("%s\n", out)
		},
		// Deliberately broken adapters, each caught by a script.
		"adapter-null":  func() { adapter(func(id string) string { return `{"id":"` + id + `","result":{}}` }) },
		"adapter-liar":  func() { adapter(func(string) string { return `{"id":"c-0","result":{}}` }) },
		"adapter-crash": func() { adapter(func(string) string { os.Exit(3); return "" }) },
		"adapter-hang":  func() { adapter(func(string) string { time.Sleep(time.Hour); return "" }) },
		// adapter-echo answers each request with the reference's result
		// for the first request it saw: right once, wrong after.
		"adapter-replay": func() {
			var first []byte
			adapter(func(id string) string {
				return `{"id":"` + id + `","result":` + string(first) + `}`
			}, func(request []byte) {
				if first == nil {
					first, _ = embedded.ApplyPatchDIFF(request)
				}
			})
		},
	})
}

// adapter answers the handshake, then each request with answer(id); seen,
// if given, sees each request document first.
func adapter(answer func(id string) string, seen ...func([]byte)) {
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(nil, pdrunner.MaxLine)
	for in.Scan() {
		m, err := pdrunner.ParseMessage(in.Bytes())
		switch {
		case err != nil:
			os.Exit(4)
		case m.Hello != nil:
			fmt.Println(`{"id":"hello","hello":{"protocol":"patchdiff-adapter/1","name":"broken"}}`)
		default:
			for _, f := range seen {
				f(m.Request)
			}
			fmt.Println(answer(m.ID))
		}
	}
}

// TestScripts runs testdata/script: one file per behaviour of the command.
func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/script",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Setup: func(env *testscript.Env) error {
			example, err := filepath.Abs("../../examples/patchdiff-adapter/adapter.py")
			env.Setenv("EXAMPLE_ADAPTER", example)
			return err
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"summary": summaryCmd,
		},
	})
}

// summaryCmd checks the certificate's last line: summary PASSED FAILED
// (a number, or * for any).
func summaryCmd(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) != 2 {
		ts.Fatalf("usage: summary PASSED FAILED")
	}
	lines := strings.Split(strings.TrimSpace(ts.ReadFile("stdout")), "\n")
	last := lines[len(lines)-1]
	var passed, failed, skipped int
	if _, err := fmt.Sscanf(last, "%d passed, %d failed, %d skipped", &passed, &failed, &skipped); err != nil {
		ts.Fatalf("last line %q is not a summary", last)
	}
	for i, want := range args {
		got := []int{passed, failed}[i]
		if want != "*" && want != fmt.Sprint(got) {
			ts.Fatalf("summary %q: want %s %s", last, want, []string{"passed", "failed"}[i])
		}
		if want == "*" && got == 0 {
			ts.Fatalf("summary %q: want some %s", last, []string{"passed", "failed"}[i])
		}
	}
}
