// Package cli is the reference blockpatch command line: argument parsing,
// reading patches and move requests, committing through the reference's
// Workspace, and printing the spec's human and JSON output.
package cli

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"runtime/debug"
	"strconv"
	"sync/atomic"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/reference"
)

// Version is the blockpatch version the reference implements.
const Version = "1.1.1"

// Env is the world a run sees. Zero fields fall back to the process's own.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Dir, when set, stands in for the process's working directory: relative
	// patch and move-JSON paths and a relative --cwd resolve against it. It
	// lets callers run the CLI in process for many work trees at once.
	Dir string
	// BeforeVerify, when set, is installed on the run's Workspace; tests use
	// it to change files between planning and commit.
	BeforeVerify func(root string)
	// Getenv, when set, stands in for os.Getenv, so in-process runs can
	// each have their own environment.
	Getenv func(string) string

	// signals: SIGINT, SIGTERM and SIGHUP stop a write (Main sets it; an
	// in-process run leaves the process's signals alone).
	signals bool
}

// Main runs the CLI on the process's standard streams and returns the exit
// status: 0 on success, 1 on any error. SIGINT, SIGTERM and SIGHUP end the
// run with io_error, a write only after removing its temp files, or, past
// its first rename, not before it is complete (see handleSignals).
func Main(args []string) int {
	return Run(args, Env{signals: true})
}

// Run runs the CLI with args (program name excluded) and returns the exit
// status.
func Run(args []string, env Env) int {
	if env.Stdin == nil {
		env.Stdin = os.Stdin
	}
	if env.Stdout == nil {
		env.Stdout = os.Stdout
	}
	if env.Stderr == nil {
		env.Stderr = os.Stderr
	}
	r := &run{env: env, ctx: context.Background()}
	if env.signals {
		stop := r.handleSignals(args)
		defer stop()
	}
	err := r.main(args)
	r.finishing()
	return report(env, args, err)
}

// report prints err, if any, as args ask, and returns the exit status.
func report(env Env, args []string, err error) int {
	if err == nil {
		return 0
	}
	var e *reference.Error
	if !errors.As(err, &e) {
		e = &reference.Error{Code: reference.UnexpectedError, Message: err.Error()}
	}
	switch {
	case wantsJSON(args):
		writeJSON(env.Stderr, struct {
			OK    bool             `json:"ok"`
			Error *reference.Error `json:"error"`
		}{false, e})
	default:
		fmt.Fprintf(env.Stderr, "blockpatch: %s\n", e.Message)
	}
	return 1
}

type run struct {
	env   Env
	o     *options
	ctx   context.Context // ends when a signal stops the write
	phase atomic.Int32    // see handleSignals
}

func (r *run) main(args []string) (err error) {
	// A large file is mapped (see reference.Workspace): reading past the
	// end of one that shrinks faults, and the fault becomes an error.
	defer debug.SetPanicOnFault(debug.SetPanicOnFault(true))
	defer func() { // an internal fault is unexpected_error, never a crash
		if p := recover(); p != nil {
			if e := reference.MappedFault(p); e != nil {
				err = e
				return
			}
			err = &reference.Error{Code: reference.UnexpectedError, Message: fmt.Sprint("internal error: ", p)}
		}
	}()
	o, err := parseArgs(args)
	if err != nil {
		return err
	}
	r.o = o
	if o.explain {
		o.jsonOutput = true
		if o.command != "check" {
			o.dryRun = true
		}
	}
	switch o.command {
	case "help":
		_, err := io.WriteString(r.env.Stdout, usage)
		return err
	case "version":
		return r.version()
	}
	if err := reference.RoomToWork(); err != nil {
		return err
	}
	if o.command == "check" || o.command == "apply" {
		return r.patch()
	}
	return r.move()
}

func (r *run) version() error {
	if !r.o.jsonOutput {
		_, err := fmt.Fprintf(r.env.Stdout, "blockpatch %s\n", Version)
		return err
	}
	// Upstream prints ok and version; the rest is the reference's own.
	return writeJSON(r.env.Stdout, struct {
		OK             bool     `json:"ok"`
		Version        string   `json:"version"`
		Name           string   `json:"name"`
		Spec           string   `json:"spec"`
		Implementation string   `json:"implementation"`
		Features       []string `json:"features"`
	}{true, Version, "blockpatch", "1.1", "blockpatch-conformance reference",
		[]string{"core", "planner", "cli", "hold-before-commit"}})
}

// patch runs check and apply.
func (r *run) patch() error {
	o := r.o
	dry := o.command == "check" || o.dryRun
	// The workspace is opened first, so the patch's long lines can be
	// found in its files (ReadPatch); an error reading the patch still
	// comes first.
	ws, wsErr := r.workspace(dry)
	if wsErr == nil {
		defer ws.Close()
	}
	in, err := r.readPatch(o.input, ws)
	if err != nil {
		return err
	}
	defer in.Release()
	if wsErr != nil {
		return wsErr
	}
	plan, err := reference.CheckInput(in, ws, reference.Options{Strip: o.strip, Reverse: o.reverse})
	if err != nil {
		return err
	}
	return r.finish(ws, plan, nil, dry)
}

// finish commits a plan unless told not to, and prints the result, with
// doc as its patch when plan rendered one.
func (r *run) finish(ws *reference.Workspace, plan *reference.Plan, doc *reference.Patch, dry bool) error {
	r.finishing()
	if !dry {
		if err := reference.Apply(r.ctx, ws, plan); err != nil {
			return err
		}
	}
	if r.o.jsonOutput {
		return writeResult(r.env.Stdout, plan.Result, doc)
	}
	return r.human(plan.Result)
}

// human prints one line per affected path.
func (r *run) human(res reference.Result) error {
	changed := map[string]bool{}
	for _, p := range res.Changed {
		changed[p] = true
	}
	for _, p := range res.Affected {
		verb := "unchanged"
		if changed[p] {
			verb = "would change"
			if res.Written {
				verb = "changed"
			}
		}
		if _, err := fmt.Fprintf(r.env.Stdout, "%s %s\n", verb, p); err != nil {
			return err
		}
	}
	return nil
}

// workspace opens --cwd; dry says the run will not commit.
func (r *run) workspace(dry bool) (*reference.Workspace, error) {
	limit, err := r.inputLimit()
	if err != nil {
		return nil, err
	}
	ws, err := reference.NewWorkspace(r.abs(r.o.cwd))
	if err != nil {
		return nil, err
	}
	ws.InputLimit = limit
	ws.ReadOnly = dry
	hook := r.env.BeforeVerify
	hold := r.getenv(HoldDirEnv)
	if hook != nil || hold != "" {
		ws.BeforeVerify = func() {
			if hook != nil {
				hook(ws.Root())
			}
			if hold != "" {
				holdBeforeCommit(r.ctx, hold)
			}
		}
	}
	return ws, nil
}

// readInput reads a patch or move JSON from a path relative to the shell's
// working directory, or from stdin for "" and "-", up to the input limit;
// the caller releases it when the run is done with its bytes.
func (r *run) readInput(path string) (*reference.Input, error) {
	return r.readPatch(path, nil)
}

// readPatch is readInput of a patch whose long lines ws may hold (see
// reference.ReadPatch); with a nil ws, everything read is kept.
func (r *run) readPatch(path string, ws *reference.Workspace) (*reference.Input, error) {
	limit, err := r.inputLimit()
	if err != nil {
		return nil, err
	}
	if path == "" || path == "-" {
		return reference.ReadLimited(r.env.Stdin, limit, "stdin")
	}
	f, err := os.Open(r.abs(path))
	if err != nil {
		return nil, reference.FileError(err, path, "io")
	}
	defer f.Close()
	if info, err := f.Stat(); err == nil && info.IsDir() {
		// Observed 1.1.0: a folder given as the patch or request file is
		// not_regular_file, as it would be as an operation path (PATH-006).
		return nil, &reference.Error{Code: reference.NotRegularFile, Phase: "io", Path: path,
			Message: path + " is a folder, not a file to read"}
	}
	var in *reference.Input
	if ws != nil {
		in, err = reference.ReadPatch(f, limit, path, ws, r.o.strip)
	} else {
		in, err = reference.ReadLimited(f, limit, path)
	}
	if e, ok := err.(*reference.Error); ok {
		e.Path = path
	}
	return in, err
}

// HoldDirEnv names the test hook of WRITE-013: when it names a folder, a
// write stops after staging, creates "staged" there and waits for
// "resume", so a conformance runner can change a file at that moment.
const HoldDirEnv = "BLOCKPATCH_TEST_HOLD_DIR"

// holdLimit bounds the wait for "resume".
const holdLimit = time.Minute

func holdBeforeCommit(ctx context.Context, dir string) {
	if err := os.WriteFile(filepath.Join(dir, "staged"), nil, 0o644); err != nil {
		return
	}
	for start := time.Now(); time.Since(start) < holdLimit && ctx.Err() == nil; time.Sleep(time.Millisecond) {
		if _, err := os.Stat(filepath.Join(dir, "resume")); err == nil {
			return
		}
	}
}

func (r *run) getenv(key string) string {
	if r.env.Getenv != nil {
		return r.env.Getenv(key)
	}
	return os.Getenv(key)
}

// abs resolves a command-line path against Env.Dir.
func (r *run) abs(path string) string {
	if r.env.Dir == "" || filepath.IsAbs(path) {
		return path
	}
	return filepath.Join(r.env.Dir, path)
}

func writeJSON(w io.Writer, v any) error {
	// The Encoder writes what Marshal makes and a newline, from its own
	// buffer: a patch as large as its file is not copied once more.
	return json.NewEncoder(w).Encode(v)
}

// InputLimitEnv names the environment variable that sets the input limit:
// the largest patch, move request or tree file read, in bytes
// (reference.DefaultInputLimit when unset).
const InputLimitEnv = "BLOCKPATCH_MAX_INPUT_BYTES"

// inputLimit is the input limit the environment sets.
func (r *run) inputLimit() (int64, error) {
	v := r.getenv(InputLimitEnv)
	if v == "" {
		return reference.DefaultInputLimit, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n <= 0 {
		return 0, &reference.Error{Code: reference.InvalidOption,
			Message: InputLimitEnv + " must be a positive number of bytes, not " + strconv.Quote(v)}
	}
	return n, nil
}
