package patchdiff

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// keep writes, for a failed case, what a person needs to look at the
// failure and send the same lines again:
//
//	<root>/kept-NNNN/lines.jsonl     the handshake and the request, one per line
//	<root>/kept-NNNN/answer.txt      what the applier printed (as captured)
//	<root>/kept-NNNN/report.txt      the failure report
//	<root>/kept-NNNN/reproduce.sh    sends lines.jsonl to the adapter command
//
// It returns the folder's name in the temp root.
func (r *Runner) keep(root string, pos int, res *runner.Result, line []byte) (string, error) {
	name := fmt.Sprintf("kept-%04d", pos+1)
	dir := filepath.Join(root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return "", err
	}
	hello, _ := (&Message{ID: helloID, Hello: &Hello{Protocol: Protocol}}).Line()
	files := map[string]string{
		"lines.jsonl": string(hello) + "\n" + string(line) + "\n",
		"answer.txt":  res.Failure.Stdout + "\n",
		"report.txt":  res.Text(),
	}
	if argv := r.Applier.Describe().Argv; len(argv) > 0 {
		files["reproduce.sh"] = "#!/bin/sh\n# Sends the handshake and the request of " + strings.ReplaceAll(res.Name, "\n", " ") + " to the adapter.\n" +
			runner.ShellJoin(argv) + " < " + runner.ShellQuote(filepath.Join(dir, "lines.jsonl")) + "\n"
	}
	for file, data := range files {
		mode := os.FileMode(0o644)
		if file == "reproduce.sh" {
			mode = 0o755
		}
		if err := os.WriteFile(filepath.Join(dir, file), []byte(data), mode); err != nil {
			return "", err
		}
	}
	return name, nil
}
