#!/usr/bin/env python3
"""A PatchDIFF adapter (protocol patchdiff-adapter/1) around any applier command.

The applier is a command line that reads one runtime request (a JSON object) on
standard input and prints the runtime result (a JSON object) on standard output,
such as `patchdiff apply` of this project. This adapter keeps running: it reads
one protocol line at a time from the certifier, runs the applier for each
request, and prints the answer line. Standard library only.

    patchdiff-conformance -- python3 adapter.py -- ./my-applier --flag

Replace run_applier() to call an applier written in Python directly.
"""
import json
import subprocess
import sys

PROTOCOL = "patchdiff-adapter/1"


def run_applier(argv, request_text):
    """Runs the applier once; returns the result's JSON text or raises."""
    done = subprocess.run(argv, input=request_text.encode("utf-8", "surrogatepass"),
                          capture_output=True, timeout=60)
    if done.returncode != 0:
        raise RuntimeError("applier exited with status %d: %s" % (
            done.returncode, done.stderr.decode("utf-8", "replace")[:500]))
    return done.stdout.decode("utf-8", "surrogatepass").strip()


def answer(message_id, **member):
    member["id"] = message_id
    # ensure_ascii keeps lone surrogates as \\udXXX escapes, which UTF-8 cannot hold.
    sys.stdout.write(json.dumps(member, ensure_ascii=True, separators=(",", ":")) + "\n")
    sys.stdout.flush()


def main():
    argv = sys.argv[1:]
    if argv and argv[0] == "--":
        argv = argv[1:]
    if not argv:
        sys.exit("usage: adapter.py -- APPLIER COMMAND LINE")
    # Read bytes and decode with surrogatepass, so that nothing is replaced.
    for raw in sys.stdin.buffer:
        line = raw.decode("utf-8", "surrogatepass").rstrip("\r\n")
        try:
            message = json.loads(line)
        except ValueError as err:
            answer("", error={"message": "not a JSON line: %s" % err})
            continue
        message_id = message.get("id", "")
        if "hello" in message:
            answer(message_id, hello={"protocol": PROTOCOL, "name": "python adapter around " + argv[0]})
        elif "request" in message:
            # json.loads keeps "\\ud800" escapes as lone surrogates in Python strings,
            # and json.dumps(ensure_ascii=True) writes them back as the same escapes.
            request_text = json.dumps(message["request"], ensure_ascii=True)
            try:
                result = json.loads(run_applier(argv, request_text))
            except Exception as err:  # the applier failed: say so, keep serving
                answer(message_id, error={"message": str(err)})
                continue
            answer(message_id, result=result)
        else:
            answer(message_id, error={"message": "unknown message"})


if __name__ == "__main__":
    main()
