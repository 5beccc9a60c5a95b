package blockpatch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"unicode"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/nofollow"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// keep writes next to a failed case's folders what a person needs to look
// at the failure and run the failing command again:
//
//	<box>/before/          the work tree before the failing command
//	<box>/expected/        the expected tree, when the step has one
//	<box>/run/work/        the tree the command left
//	<box>/argv.json        the full command line, and the folder it ran in
//	<box>/stdin            its standard input
//	<box>/stdout, stderr   what it printed (as captured)
//	<box>/expected.json    the expected JSON (subset or error), if any
//	<box>/report.txt       the failure report
//	<box>/reproduce.sh     restores run/work from before/ and reruns the command
func (cr *caseRun) keep(res *runner.Result) error {
	rec := cr.last
	if rec == nil || res.Failure == nil || res.Failure.Step == "setup" {
		return nil
	}
	// Every write goes through the box's root and replaces what the
	// implementation may have planted there (a symlink, a FIFO) without
	// opening it.
	write := func(name string, data []byte, mode os.FileMode) error {
		return nofollow.WriteFile(cr.root, name, data, mode)
	}
	if err := runner.RemoveAllIn(cr.root, "before"); err != nil {
		return err
	}
	if err := rec.before.WriteIn(cr.root, "before"); err != nil {
		return err
	}
	if rec.want != nil {
		if err := runner.RemoveAllIn(cr.root, "expected"); err != nil {
			return err
		}
		if err := rec.want.WriteIn(cr.root, "expected"); err != nil {
			return err
		}
	}
	d := cr.desc
	inv := map[string]any{"argv": res.Failure.Argv, "dir": rec.inv.Dir}
	if len(d.Env) > 0 {
		inv["env"] = d.Env
	}
	argv, _ := json.MarshalIndent(inv, "", "  ")
	files := map[string][]byte{
		"argv.json": append(argv, '\n'),
		"stdin":     rec.inv.Stdin,
		"stdout":    rec.out.Stdout,
		"stderr":    rec.out.Stderr,
	}
	if rec.wantJSON != nil {
		b, _ := json.MarshalIndent(rec.wantJSON, "", "  ")
		files["expected.json"] = append(b, '\n')
	}
	var line string
	if len(d.Argv) > 0 {
		line = "cd " + runner.ShellQuote(rec.inv.Dir) + " && "
		if len(d.Env) > 0 {
			line += "env " + runner.ShellJoin(d.Env) + " "
		}
		line += runner.ShellJoin(res.Failure.Argv) + " < " + runner.ShellQuote(filepath.Join(cr.box, "stdin"))
		script := fmt.Sprintf(`#!/bin/sh
# Reruns %s of case %s on the tree it started from.
set -e
box=%s
rm -rf "$box/run/work"
cp -Rp "$box/before" "$box/run/work"
%s
`, commentSafe(rec.step), commentSafe(cr.c.Name), runner.ShellQuote(cr.box), line)
		files["reproduce.sh"] = []byte(script)
		res.Failure.Reproduce = "sh " + runner.ShellQuote(filepath.Join(cr.box, "reproduce.sh")) + "   # restores the tree, then: " + line
	}
	for name, data := range files {
		mode := os.FileMode(0o644)
		if name == "reproduce.sh" {
			mode = 0o755
		}
		if err := write(name, data, mode); err != nil {
			return err
		}
	}
	return write("report.txt", []byte(res.Text()), 0o644)
}

// commentSafe makes s fit on one shell comment line: a name or step with
// a newline or other control character is printed quoted, escapes visible.
func commentSafe(s string) string {
	if strings.IndexFunc(s, func(r rune) bool { return r < 0x20 || r == 0x7f || !unicode.IsPrint(r) && r != ' ' }) < 0 {
		return s
	}
	return strconv.Quote(s)
}
