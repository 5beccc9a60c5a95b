package runner

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
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
func (cr *caseRun) keep(res *Result) error {
	rec := cr.last
	if rec == nil || res.Failure == nil || res.Failure.Step == "setup" {
		return nil
	}
	write := func(name string, data []byte) error {
		return os.WriteFile(filepath.Join(cr.box, name), data, 0o644)
	}
	before := filepath.Join(cr.box, "before")
	if err := os.MkdirAll(before, 0o755); err != nil {
		return err
	}
	if err := rec.before.Write(before); err != nil {
		return err
	}
	if rec.want != nil {
		expected := filepath.Join(cr.box, "expected")
		if err := os.MkdirAll(expected, 0o755); err != nil {
			return err
		}
		if err := rec.want.Write(expected); err != nil {
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
		line = "cd " + shellQuote(rec.inv.Dir) + " && "
		if len(d.Env) > 0 {
			line += "env " + shellJoin(d.Env) + " "
		}
		line += shellJoin(res.Failure.Argv) + " < " + shellQuote(filepath.Join(cr.box, "stdin"))
		script := fmt.Sprintf(`#!/bin/sh
# Reruns %s of case %s on the tree it started from.
set -e
box=%s
rm -rf "$box/run/work"
cp -Rp "$box/before" "$box/run/work"
%s
`, rec.step, cr.c.Name, shellQuote(cr.box), line)
		files["reproduce.sh"] = []byte(script)
		res.Failure.Reproduce = "sh " + shellQuote(filepath.Join(cr.box, "reproduce.sh")) + "   # restores the tree, then: " + line
	}
	for name, data := range files {
		if err := write(name, data); err != nil {
			return err
		}
	}
	if err := os.Chmod(filepath.Join(cr.box, "reproduce.sh"), 0o755); err != nil && !os.IsNotExist(err) {
		return err
	}
	var b strings.Builder
	writeFailure(&b, res, "")
	return write("report.txt", []byte(b.String()))
}
