package fuzz

import "github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/campaign"

const usage = `usage: NAME [flags] -- <implementation argv...>
       NAME merge --out DIR IN...

Runs generated trees, patches and move requests through the conformance
protocols (check, apply, retry, reverse; plan, apply of the planned patch,
move) on the implementation and on the reference, in separate folders, and
compares exit status, error code and details, status, changed, ranges and
the resulting trees. Each disagreement is shrunk and written as a case file
(cases/README.md) under --out, with a one-line summary; a report grouping
the disagreements by kind ends the run.

Exit status: 0 no disagreement, 1 disagreements found, 2 usage or harness
error.

` + campaign.MergeUsage + `
Flags:
` + campaign.FlagsUsage + `  --cases-format       add corpus metadata (requirements, since), a guess
                       from the error code for the reviewer to correct
  --reference PATH     use this reference binary, not the built-in one
  --large              pad a file of every scenario to 64 KiB, 256 KiB, 1 MiB
                       or 4 MiB, or just under: where implementations switch
                       how they read and search (slower: every command
                       reads megabytes)

Example:
  NAME --seed 1 --time 60s --shard 0/4 --out found -- ./my-bp
`
