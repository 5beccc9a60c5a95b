package cli

import (
	"bufio"
	"encoding/json"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// move runs plan and move: decode the request, plan it against --cwd, then
// print the patch (--diff, plan), report (--dry-run), or commit.
func (r *run) move() error {
	o := r.o
	var data []byte
	if o.hasJSONRequest {
		in, err := r.readInput(o.jsonRequest)
		if err != nil {
			return err
		}
		defer in.Release()
		data = in.Bytes()
	} else {
		fields := map[string]string{}
		for k, v := range o.moveFlags {
			fields[k] = v
		}
		data, _ = json.Marshal(fields)
	}
	req, err := reference.DecodeRequest(data)
	if err != nil {
		return err
	}
	// Only plan and --diff render the patch (and refuse what it cannot
	// show); move itself works from the request.
	diff := o.diff || o.command == "plan"
	dry := diff || o.dryRun || (req.DryRun != nil && *req.DryRun)
	ws, err := r.workspace(dry)
	if err != nil {
		return err
	}
	defer ws.Close()
	var plan *reference.Plan
	var doc *reference.Patch
	if diff {
		plan, doc, err = reference.PlanDocument(req, ws)
	} else {
		plan, err = reference.EvaluateRequest(req, ws)
	}
	if err != nil {
		return err
	}
	if o.command == "plan" {
		o.jsonOutput = true
	}
	if diff && !o.jsonOutput {
		// Upstream prints the patch as a line: one more newline after it.
		out := bufio.NewWriterSize(r.env.Stdout, largePatch)
		if err := reference.WritePatch(out, doc); err != nil {
			return err
		}
		out.WriteByte('\n')
		return out.Flush()
	}
	return r.finish(ws, plan, doc, dry)
}
