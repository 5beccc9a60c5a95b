package main

import (
	"crypto/sha256"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/cli"
)

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"blockpatch": func() {
			// BLOCKPATCH_SCRIPT_PEER runs the scripts against upstream's
			// CLI (a cli.mjs), to check their expectations against it.
			if peer := os.Getenv("BLOCKPATCH_SCRIPT_PEER"); peer != "" {
				cmd := exec.Command("node", append([]string{peer}, os.Args[1:]...)...)
				cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
				if err := cmd.Run(); err != nil {
					if x, ok := err.(*exec.ExitError); ok {
						os.Exit(x.ExitCode())
					}
					os.Exit(2)
				}
				os.Exit(0)
			}
			main()
		},
		// blockpatch-racy is blockpatch with a concurrent writer: between
		// staging and verification it overwrites the file named by
		// $RACE_FILE (relative to --cwd), as another process might.
		"blockpatch-racy": func() {
			os.Exit(cli.Run(os.Args[1:], cli.Env{BeforeVerify: func(root string) {
				os.WriteFile(filepath.Join(root, os.Getenv("RACE_FILE")), []byte("changed by a concurrent writer\n"), 0o644)
			}}))
		},
	})
}

func TestScripts(t *testing.T) {
	t.Parallel()
	testscript.Run(t, testscript.Params{
		Dir: "testdata/script",
		Setup: func(env *testscript.Env) error {
			env.Setenv("BLOCKPATCH_SCRIPT_PEER", os.Getenv("BLOCKPATCH_SCRIPT_PEER"))
			return nil
		},
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		Cmds:                map[string]func(ts *testscript.TestScript, neg bool, args []string){"tree": treeCmd},
	})
}

// treeCmd implements the script command
//
//	tree save DIR   remember DIR's files, modes and bytes
//	tree same DIR   fail unless DIR is exactly as remembered
//
// so a script can prove that a failed command changed nothing, temp files
// included.
func treeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 || (args[0] != "save" && args[0] != "same") {
		ts.Fatalf("usage: tree save|same DIR")
	}
	listing := snapshot(ts, ts.MkAbs(args[1]))
	saved := ts.MkAbs(".tree-" + strings.ReplaceAll(args[1], "/", "_"))
	if args[0] == "save" {
		ts.Check(os.WriteFile(saved, []byte(listing), 0o644))
		return
	}
	want, err := os.ReadFile(saved)
	ts.Check(err)
	if string(want) != listing {
		ts.Fatalf("tree %s changed:\nbefore:\n%s\nafter:\n%s", args[1], want, listing)
	}
}

func snapshot(ts *testscript.TestScript, dir string) string {
	var b strings.Builder
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		info, err := os.Lstat(path)
		if err != nil {
			return err
		}
		content := ""
		switch {
		case info.Mode()&fs.ModeSymlink != 0:
			content, _ = os.Readlink(path)
		case info.Mode().IsRegular():
			data, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			content = fmt.Sprintf("%x", sha256.Sum256(data))
		}
		fmt.Fprintf(&b, "%s %v %s\n", rel, info.Mode(), content)
		return nil
	})
	ts.Check(err)
	return b.String()
}
