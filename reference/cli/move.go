package cli

import (
	"encoding/json"
	"io"

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
	planFn := reference.EvaluateRequest
	if diff {
		planFn = reference.PlanRequest
	}
	plan, err := planFn(req, ws)
	if err != nil {
		return err
	}
	if o.command == "plan" {
		o.jsonOutput = true
	}
	if diff && !o.jsonOutput {
		// Upstream prints the patch as a line: one more newline after it.
		_, err := io.WriteString(r.env.Stdout, *plan.Result.Patch+"\n")
		return err
	}
	return r.finish(ws, plan, dry)
}
