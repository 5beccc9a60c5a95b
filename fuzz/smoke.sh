#!/usr/bin/env bash
# Runs every native fuzz target of the module briefly, one after the other,
# as a smoke test: a crash fails the script and leaves the failing input
# under fuzz/targets/testdata/fuzz/<Target>/ for `go test` to replay.
#
#   FUZZTIME=3s bash fuzz/smoke.sh        # the default, for CI
#   FUZZTIME=10m bash fuzz/smoke.sh       # a long local run
#
# Each target is one command of the form
#   go test ./fuzz/targets -run '^$' -fuzz '^FuzzParse$' -fuzztime 3s
set -euo pipefail
cd "$(dirname "$0")/.."

FUZZTIME="${FUZZTIME:-3s}"
pkg=./fuzz/targets
targets=$(go test "$pkg" -list '^Fuzz' | grep '^Fuzz')
for t in $targets; do
  echo "== $t ($FUZZTIME)"
  go test "$pkg" -run '^$' -fuzz "^${t}\$" -fuzztime "$FUZZTIME"
done
