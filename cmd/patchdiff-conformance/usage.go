package main

import "github.com/blockpatch-conformance/blockpatch-conformance/internal/certcmd"

const usage = `usage: patchdiff-conformance [flags] [--] [adapter command line...]

Certifies a PatchDIFF core runtime: sends every case's runtime request to
the applier through the adapter protocol (spec/patchdiff/adapter.md) and
prints a report that ends with a certificate. The applier is any command
line that speaks the protocol; without one, it certifies the embedded
reference runtime.

  patchdiff-conformance                            certify the reference
  patchdiff-conformance -- python3 my_adapter.py   certify your applier
  patchdiff-conformance --oneshot -- ./my-adapter  one process per request

Other commands, before the flags:
  list [-json]        list the cases the flags select: name, profile, tags
                      and requirement IDs, or one JSON object a line
  copy DIR            copy them into DIR as case files, with a README and
                      cases.jsonl
  version             print the module version and the corpus hash
  compare IMPL...     run several appliers and write one matrix, case by
                      applier, as Markdown (--markdown, default stdout)
                      and an HTML page (--html); IMPL is reference or
                      NAME=ADAPTER COMMAND LINE

Selecting cases:
` + certcmd.SelectUsage + `  --cases DIR         add a folder of PatchDIFF case files (repeatable)
  --no-corpus         leave out the embedded corpus and, unless
                      --generated is given, the generated cases (use
                      with --cases)
  --profile VERSION   the newest runtime profile certified; cases of
                      newer profiles are skipped (default
                      patchdiff-mvp-0.5.0)

Running:
  --oneshot           run the adapter once per request instead of keeping
                      it running (stream mode)
  --parallel N        adapter sessions at once (default: the number of
                      CPUs)
  --timeout DURATION  limit for each answer, after which the adapter is
                      killed with its process group and restarted
                      (default 5s)
  --seed N            order the cases and make the generated ones with
                      this seed (default: random; the report prints it)
` + certcmd.GeneratedUsage + `  --keep              keep, for each failed case, the lines sent, the
                      answer, the report and a reproduce.sh that sends
                      the lines to the adapter again
  --no-isolation      run the adapter without bubblewrap even when it is
                      installed; by default it runs under bwrap: read-only
                      filesystem but a scratch folder, own PID namespace,
                      no network
` + certcmd.EnvUsage + `
` + certcmd.OutputUsage + `
The handshake's runtime_versions list says which profiles the applier
implements; the cases of any other profile are reported as unsupported.

` + certcmd.ExitUsage
