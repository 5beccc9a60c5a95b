package cli

const usage = `usage: blockpatch <command> [options]

Commands:
  check [patch|-]        verify a .blockpatch against the tree without writing
  apply [patch|-]        verify and apply a .blockpatch
  plan --json <path|->   render a move request as a .blockpatch (JSON envelope)
  move --json <path|->   apply a move request directly
  version                print the version
  help                   print this help

Patch options (check, apply):
  -i, --input FILE           read the patch from FILE (default: stdin)
  -pN, -p N, --strip N       strip N leading path components (default 1)
  -R, --reverse              apply the patch in reverse
  --dry-run                  apply only: validate through apply without writing

Move options (plan, move):
  --json PATH|-              read the move request (JSON) from PATH or stdin
  --src, --src-start, --src-end, --dst, --payload,
  --target-before, --target-after, --expected-payload-sha256
                             set one request field (not with --json)
  --diff                     print the rendered patch; never writes
  --dry-run                  validate without writing

Common options:
  -d, --directory, --cwd DIR   the directory operations may change (default .)
  --json-output                print results and errors as JSON
  --explain                    JSON report without writing
`
