package main

const usage = `usage: patchdiff [serve | apply | version]

The reference PatchDIFF core runtime of blockpatch-conformance.

  serve     answer the adapter protocol (spec/patchdiff/adapter.md) on
            standard input and output until input ends: a hello line,
            then one request line in, one answer line out (the default)
  apply     read one runtime request document on standard input and
            print its result document: a one-request applier, such as
            examples/patchdiff-adapter/adapter.py wraps
  version   print the version

Exit status: 0 when every line was answered (a rejected transaction is an
answer), 1 when input could not be read or a request was not a request
document (apply), 2 for a wrong command line.
`
