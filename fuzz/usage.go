package fuzz

const usage = `usage: blockpatch-fuzz [flags] -- <implementation argv...>

Runs generated trees, patches and move requests through the conformance
protocols (check, apply, retry, reverse; plan, apply of the planned patch,
move) on the implementation and on the reference, in separate folders, and
compares exit status, error code and details, status, changed, ranges and
the resulting trees. Each disagreement is shrunk and written as a case file
(cases/README.md) under --out, with a one-line summary; a report grouping
the disagreements by kind ends the run.

Exit status: 0 no disagreement, 1 disagreements found, 2 usage or harness
error.

Flags:
  --seed N             seed of the campaign (default: the clock; printed)
  --iterations N       run the iterations 0..N-1 (those of this shard)
  --time D             run for the duration D, such as 60s or 10m
  --shard i/n          run the iterations k with k mod n = i (default 0/1)
  --replay K[,K...]    run just these iterations of the seed
  --out DIR            write case files under DIR
                       (default blockpatch-fuzz-out)
  --cases-format       add corpus metadata (requirements, since), a guess
                       from the error code for the reviewer to correct
  --workers N          iterations run in parallel (default: the CPUs)
  --timeout D          limit for one command (default 10s)
  --shrink-budget N    scenarios tried to shrink one disagreement (250)
  --max-cases-per-kind N
                       disagreements of one kind shrunk and written (3)
  --reference PATH     use this reference binary, not the built-in one

Example:
  blockpatch-fuzz --seed 1 --time 60s --shard 0/4 --out found -- ./my-bp
`
