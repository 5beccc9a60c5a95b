package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/replay"
	"github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff/store"
)

// record runs "patchdiff record [--sample N] STORE": a recording script on
// standard input (or the sample history) through the reference runtime,
// saved to STORE.
func record(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	sample := fs.Int("sample", 0, "record the built-in sample history of `N` attempts instead of reading a script")
	if err := fs.Parse(args); err != nil || fs.NArg() != 1 {
		fmt.Fprintln(stderr, "usage: patchdiff record [--sample N] STORE < script.jsonl (run with -h for help)")
		return 2
	}
	var h *replay.History
	accepted := 0
	if *sample > 0 {
		h = replay.SampleHistory(*sample)
		for _, r := range h.Logs {
			if r.Status == replay.StatusAccepted {
				accepted++
			}
		}
	} else {
		var err error
		if h, accepted, err = store.RecordScript(stdin); err != nil {
			fmt.Fprintf(stderr, "patchdiff: record: %v\n", err)
			return 1
		}
	}
	if err := store.Save(context.Background(), fs.Arg(0), h); err != nil {
		fmt.Fprintf(stderr, "patchdiff: record: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "recorded %d attempts (%d accepted, %d rejected) in %s\n", len(h.Logs), accepted, len(h.Logs)-accepted, store.KindOf(fs.Arg(0)))
	return 0
}

// replayCmd runs "patchdiff replay STORE": the report as one JSON line.
func replayCmd(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprintln(stderr, "usage: patchdiff replay STORE (run with -h for help)")
		return 2
	}
	rep, err := store.Replay(context.Background(), args[0])
	if err != nil {
		fmt.Fprintf(stderr, "patchdiff: replay: %v\n", err)
		return 1
	}
	b, _ := rep.MarshalJSON()
	stdout.Write(append(b, '\n'))
	if rep.Status != replay.Verified || !*rep.MaterializedStateMatches {
		return 1
	}
	return 0
}
