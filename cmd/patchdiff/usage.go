package main

const usage = `usage: patchdiff [serve | apply | record | replay | version]

The reference PatchDIFF core runtime of blockpatch-conformance.

  serve     answer the adapter protocol (spec/patchdiff/adapter.md) on
            standard input and output until input ends: a hello line,
            then one request line in, one answer line out (the default);
            it answers the apply, replay and observed_batch operations
  apply     read one runtime request document on standard input and
            print its result document: a one-request applier, such as
            examples/patchdiff-adapter/adapter.py wraps
  record [--sample N] STORE
            run a recording script (JSON lines on standard input: the
            target {"target_file_id","content","version"}, then one
            {"runtime_version","transaction"} per attempt) through the
            reference runtime and save the history, accepted and
            rejected attempts, to STORE; --sample N records a built-in
            history of N attempts instead
  replay STORE
            replay the history kept in STORE and print the report as
            one JSON line (spec/patchdiff REPLAY)
  version   print the version

STORE is an SQLite file (the default), a postgres:// URL, or a JSON-lines
history file (a name ending in .jsonl).

Exit status: 0 when every line was answered (a rejected transaction is an
answer), or when a replayed history verified and matches the stored
target; 1 when input could not be read, a request was not a request
document (apply), or a replay failed or found the stored target differing;
2 for a wrong command line.
`
