package main

import "github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"

const usage = `usage: blockpatch-conformance [flags] [--] [implementation command line...]

Certifies a blockpatch 1.1 implementation: runs every conformance case
against it and prints a report that ends with a certificate. The
implementation is any command line; the runner appends arguments such as
"check PATCH --cwd DIR --json-output". Without one, it certifies the
embedded reference implementation.

  blockpatch-conformance                        certify the embedded reference
  blockpatch-conformance -- ./my-blockpatch     certify your implementation
  blockpatch-conformance -- node dist/cli.js    any command line works
  blockpatch-conformance --cases ../upstream/conformance/cases -- ./impl

Other commands, before the flags:
  list [-json]        list the cases the flags select: name, profile, tags
                      with the levels each needs (core+cli), requirement
                      IDs; or one JSON object a line
  copy DIR            copy them into DIR as plain folders, in upstream's
                      case.json format wherever a case fits it, this
                      project's otherwise, with a README and cases.jsonl
  version             print the module version and the corpus hash
  compare IMPL...     run several implementations and write one matrix,
                      case by implementation, as Markdown (--markdown,
                      default stdout) and an HTML page (--html). IMPL is
                      reference, peers (every upstream release in
                      --peers), peer:VERSION, or NAME=COMMAND LINE
  --peers DIR         compare: where upstream's releases are, one folder
                      per version holding dist/cli.mjs, run with node
                      (default ../shared/peers)

  blockpatch-conformance compare --html cmp.html reference peers 'mine=./impl'

Selecting cases:
` + certcmd.SelectUsage + `  --cases DIR         add a folder of cases, such as upstream's
                      conformance/cases (repeatable)
  --no-corpus         leave out the embedded corpus and, unless
                      --generated is given, the generated cases (use
                      with --cases)
  --derived           add fail cases derived from every pass case, each
                      breaking one rule (a payload byte, a hunk count, a
                      blank line in a hunk, a missing file, a duplicated
                      target anchor) and expecting that rule's error code
  --profile VERSION   the spec profile to certify: 1.0, 1.1 or 1.1.1
                      (default 1.1.1)
  --require LEVEL     run and fail, rather than skip, the cases needing
                      LEVEL (core, planner or cli) even when the
                      implementation does not claim it (repeatable): CI
                      pins its levels so that one no longer claimed fails

Running:
  --parallel N        cases run at once (default: the number of CPUs)
  --timeout DURATION  limit for each command, after which its whole
                      process group is killed (default 5s)
  --seed N            order the cases and make the generated ones with
                      this seed (default: random; the report prints it)
` + certcmd.GeneratedUsage + `  --keep              keep the folders of failed cases: the tree before
                      the failing command, the expected tree, the output
                      and a reproduce.sh that reruns the command
  --no-isolation      run the implementation's commands without bubblewrap
                      even when it is installed; by default each runs
                      under bwrap: read-only filesystem but its case's
                      folder, own PID namespace, no network
` + certcmd.EnvUsage + `  --reference-exec    certify the embedded reference by starting this
                      program again as a blockpatch process for each
                      command, instead of calling it in process

` + certcmd.OutputUsage + `
Levels are independent features: core is check and apply as the protocol
runs them; planner is plan and move on a request from stdin; cli is every
other command-line form (stdin, -i, -d, other spellings, human output).
Each case needs the levels its commands show ("list" prints them, as
core+cli); it runs when all are claimed or required and is reported as
unsupported otherwise. The runner reads a "features" list from
"version --json-output", or else probes each level.

` + certcmd.ExitUsage
