#!/usr/bin/env bash
# Certifies an implementation as the GitHub Action in action.yml does, and
# runs the same anywhere: installs the certifier with go install, runs it
# on the implementation, and leaves JUnit XML, an HTML page, a Markdown
# table and the human report in the output folder. Exit status: 0 when no
# case failed, 1 when one did, 2 when the run could not be done.
#
# Settings, from the environment (the action's inputs):
#   CERTIFY_IMPLEMENTATION  the implementation's command line (required)
#   CERTIFY_SUITE           blockpatch (default) or patchdiff
#   CERTIFY_VERSION         the certifier's module version to install, such
#                           as v1.2.0 or latest; empty installs from
#                           CERTIFY_SOURCE
#   CERTIFY_SOURCE          a checkout of the module (the action's own
#                           folder); default: this script's repository
#   CERTIFY_ARGS            more flags, such as "--skip-file known.skip"
#   CERTIFY_OUTPUT          the output folder (default conformance-report)
#   GOBIN                   where go install puts the certifier (default:
#                           bin in the output folder)
# GITHUB_STEP_SUMMARY, when set (on GitHub), gets the Markdown table.
set -uo pipefail

module=github.com/blockpatch-conformance/blockpatch-conformance
impl=${CERTIFY_IMPLEMENTATION:?set CERTIFY_IMPLEMENTATION to the command line to certify}
suite=${CERTIFY_SUITE:-blockpatch}
version=${CERTIFY_VERSION:-}
source=${CERTIFY_SOURCE:-$(cd "$(dirname "$0")/.." && pwd)}
out=${CERTIFY_OUTPUT:-conformance-report}
case $suite in
  blockpatch|patchdiff) ;;
  *) echo "certify: CERTIFY_SUITE is blockpatch or patchdiff, not $suite" >&2; exit 2 ;;
esac
command=$suite-conformance

mkdir -p "$out" || exit 2
out=$(cd "$out" && pwd)
export GOBIN=${GOBIN:-$out/bin}

echo "== installing $command ${version:-from $source}"
if [ -n "$version" ]; then
  go install "$module/cmd/$command@$version" || exit 2
else
  (cd "$source" && go install "./cmd/$command") || exit 2
fi
"$GOBIN/$command" version || exit 2

echo "== certifying: $impl"
# The implementation's words and the extra flags are split at spaces.
# shellcheck disable=SC2086
"$GOBIN/$command" ${CERTIFY_ARGS:-} --format junit --html "$out/report.html" --markdown "$out/report.md" \
  --write-skip-file "$out/failing.skip" -- $impl > "$out/junit.xml"
status=$?
if [ -s "$out/report.md" ]; then
  sed -n '1,/^## /p' "$out/report.md" | sed '$d'
  if [ -n "${GITHUB_STEP_SUMMARY:-}" ]; then
    cat "$out/report.md" >> "$GITHUB_STEP_SUMMARY"
  fi
fi
case $status in
  0) echo "certify: every case passed or was skipped" ;;
  1) echo "certify: some case failed; $out holds junit.xml, report.html, and failing.skip listing each failure" ;;
  *) echo "certify: the run could not be done (exit status $status)" ;;
esac
exit "$status"
