#!/usr/bin/env bash
# Runs every native fuzz target of the module briefly, one after the other,
# as a smoke test: a crash fails the script and leaves the failing input
# under <package>/testdata/fuzz/<Target>/ for `go test` to replay. The
# packages are fuzz/targets (blockpatch) and fuzz/patchdiff (PatchDIFF).
#
#   FUZZTIME=3s bash fuzz/smoke.sh        # the default, for CI
#   FUZZTIME=10m bash fuzz/smoke.sh       # a long local run
#
# Each target is one command of the form
#   go test ./fuzz/targets -run '^$' -fuzz '^FuzzParse$' -fuzztime 3s
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME="${FUZZTIME:-3s}"
for pkg in ./fuzz/targets ./fuzz/patchdiff; do
targets=$(go test "$pkg" -list '^Fuzz' | grep '^Fuzz')
for t in $targets; do
  echo "== $pkg $t ($FUZZTIME)"
  if out=$(go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME" 2>&1); then
    echo "$out" | tail -n 2
    continue
  fi
  echo "$out"
  # Go's fuzzer sometimes ends a timed run with "context deadline exceeded"
  # when a worker answers late; that is no finding. A real one is written
  # to testdata and named in the output.
  if ! grep -q 'Failing input written to' <<<"$out" && grep -q 'context deadline exceeded' <<<"$out"; then
    echo "(the fuzzer's deadline report above is not a crash; continuing)"
    continue
  fi
  exit 1
done
done
