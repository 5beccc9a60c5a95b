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
		var err error
		if data, err = r.readInput(o.jsonRequest); err != nil {
			return err
		}
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
	ws, err := r.workspace()
	if err != nil {
		return err
	}
	plan, err := reference.PlanRequest(req, ws)
	if err != nil {
		return err
	}
	diff := o.diff || o.command == "plan"
	if o.command == "plan" {
		o.jsonOutput = true
	}
	if diff && !o.jsonOutput {
		_, err := io.WriteString(r.env.Stdout, *plan.Result.Patch)
		return err
	}
	if !diff && !o.explain {
		plan.Result.Patch = nil
	}
	dry := diff || o.dryRun || (req.DryRun != nil && *req.DryRun)
	return r.finish(ws, plan, dry)
}
