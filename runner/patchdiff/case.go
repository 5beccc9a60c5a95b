package patchdiff

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	pdcases "github.com/blockpatch-conformance/blockpatch-conformance/cases/patchdiff"
	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// sessions hands out open sessions, one per worker at a time, and opens a
// new one (in a scratch folder of its own, handshake first) when none is
// free; a session that ended or broke the protocol is closed, never reused.
type sessions struct {
	r    *Runner
	iso  *runner.Isolation
	root string

	mu   sync.Mutex
	free []Session
	all  []Session
	made []string
}

// open starts a session and shakes hands with it.
func (p *sessions) open(ctx context.Context) (Session, *Hello, error) {
	p.mu.Lock()
	name := fmt.Sprintf("session-%d", len(p.made)+1)
	p.made = append(p.made, name)
	p.mu.Unlock()
	dir := filepath.Join(p.root, name)
	if err := os.Mkdir(dir, 0o755); err != nil {
		return nil, nil, err
	}
	s, err := p.r.Applier.Open(ctx, SessionEnv{Dir: dir, Isolation: p.iso})
	if err != nil {
		return nil, nil, fmt.Errorf("starting the applier: %w", err)
	}
	p.mu.Lock()
	p.all = append(p.all, s)
	p.mu.Unlock()
	h, err := shakeHands(ctx, s, p.r.Timeout)
	if err != nil {
		return nil, nil, err
	}
	return s, h, nil
}

// shakeHands sends the handshake on a new session and returns what the
// applier says of itself; on failure it closes the session.
func shakeHands(ctx context.Context, s Session, timeout time.Duration) (*Hello, error) {
	hctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	line, _ := (&Message{ID: helloID, Hello: &Hello{Protocol: Protocol}}).Line()
	a := s.Exchange(hctx, line)
	if a.Ended {
		s.Close()
		return nil, fmt.Errorf("the applier did not answer the handshake: %s%s", a.Why, ended(a.Outcome))
	}
	m, err := ParseMessage(a.Line)
	switch {
	case err != nil:
		err = fmt.Errorf("handshake: %v: %s", err, runner.Bounded(a.Line, 300))
	case m.ID != helloID || m.Hello == nil:
		err = fmt.Errorf("handshake: want a hello answer with id %q, got %s", helloID, runner.Bounded(a.Line, 300))
	case m.Hello.Protocol != Protocol:
		err = fmt.Errorf("handshake: the applier speaks %q, the runner %q", m.Hello.Protocol, Protocol)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return m.Hello, nil
}

// handshake opens the first session and returns what the applier says of
// itself.
func (p *sessions) handshake(ctx context.Context) (*Hello, error) {
	s, h, err := p.open(ctx)
	if err != nil {
		return nil, err
	}
	p.put(s)
	return h, nil
}

// get returns a free session or opens one.
func (p *sessions) get(ctx context.Context) (Session, error) {
	p.mu.Lock()
	if n := len(p.free); n > 0 {
		s := p.free[n-1]
		p.free = p.free[:n-1]
		p.mu.Unlock()
		return s, nil
	}
	p.mu.Unlock()
	s, _, err := p.open(ctx)
	return s, err
}

func (p *sessions) put(s Session) {
	p.mu.Lock()
	p.free = append(p.free, s)
	p.mu.Unlock()
}

func (p *sessions) closeAll() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, s := range p.all {
		s.Close()
	}
	p.all, p.free = nil, nil
}

// ended describes how a program that stopped answering ended.
func ended(o runner.Outcome) string {
	var s string
	switch {
	case o.TimedOut:
		s = " (killed at the timeout)"
	case o.Signal != "":
		s = " (ended by " + o.Signal + ")"
	case o.Exit >= 0:
		s = fmt.Sprintf(" (exit status %d)", o.Exit)
	}
	if limit := o.LimitHit(); limit != "" {
		s += fmt.Sprintf("; it hit the %s", limit)
		if o.ForksRefused > 0 {
			s += fmt.Sprintf(": its pids cgroup refused %d forks", o.ForksRefused)
		}
	}
	if len(bytes.TrimSpace(o.Stderr)) > 0 {
		s += "; stderr: " + runner.Bounded(o.Stderr, 500)
	}
	return s
}

// runCase sends one case's request and judges the answer.
func (r *Runner) runCase(ctx context.Context, pool *sessions, hello *Hello, l loaded, pos int) *runner.Result {
	c := l.Case
	since := "(none)"
	if c.Request.RuntimeVersion != nil {
		since = *c.Request.RuntimeVersion
	}
	res := &runner.Result{
		Name: c.Name, Source: l.Source, Protocol: "runtime", Expect: c.Expect.Status, Since: since,
		Requirements: c.Requirements, Description: c.Description, Case: c,
	}
	profiles := Suite().Profiles
	if i := slices.Index(profiles, since); i > slices.Index(profiles, r.Profile) {
		res.Verdict, res.Reason = runner.OutOfProfile, fmt.Sprintf("the case runs profile %s; certifying up to %s", since, r.Profile)
		return res
	}
	if len(hello.RuntimeVersions) > 0 && slices.Contains(profiles, since) && !slices.Contains(hello.RuntimeVersions, since) {
		res.Verdict, res.Reason = runner.Unsupported, "the applier does not list "+since+" in its handshake"
		return res
	}
	if c.Replay != nil {
		res.Protocol, res.Expect = "replay", c.Replay.Expect.Status
		if !hello.Supports(OperationReplay) {
			res.Verdict, res.Reason = runner.Unsupported, "the applier does not list the replay operation in its handshake"
			return res
		}
	}
	if c.Operation == pdcases.OperationObservedBatch {
		res.Protocol = "observed_batch"
		if !hello.Supports(OperationObservedBatch) {
			res.Verdict, res.Reason = runner.Unsupported, "the applier does not list the observed_batch operation in its handshake"
			return res
		}
	}
	start := time.Now()
	id := caseID(pos)
	msg := &Message{ID: id, Request: c.RequestJSON()}
	switch {
	case c.Replay != nil:
		msg.Operation = OperationReplay
	case c.Operation == pdcases.OperationObservedBatch:
		msg.Operation = OperationObservedBatch
	}
	line, err := msg.Line()
	if err != nil {
		res.Verdict, res.Reason = runner.Error, "encoding the request: "+err.Error()
		return res
	}
	fail := &runner.Failure{Step: "apply", Stdin: string(line), Exit: -1}
	verdict, problems, advice := r.exchange(ctx, pool, c, id, line, fail)
	res.Warnings = advice
	res.Elapsed = runner.Duration(time.Since(start))
	res.Verdict = verdict
	if verdict != runner.Pass {
		fail.Problems = problems
		res.Failure = fail
		res.Reason = "apply: " + firstLine(problems)
	}
	r.SkipList.Apply(res)
	if r.Keep && res.Verdict.Failed() && res.Verdict != runner.UnexpectedPass {
		if name, err := r.keep(pool.root, pos, res, line); err == nil {
			res.Kept = filepath.Join(pool.root, name)
		} else {
			res.Warnings = append(res.Warnings, "keeping the case: "+err.Error())
		}
	}
	return res
}

// exchange runs one request on a session and judges the answer line. It
// returns the verdict with the problems that make it, and the differences
// that only concern what the seed leaves open (recommended), which never
// fail a case and are reported as warnings.
func (r *Runner) exchange(ctx context.Context, pool *sessions, c *pdcases.Case, id string, line []byte, fail *runner.Failure) (runner.Verdict, []string, []string) {
	s, err := pool.get(ctx)
	if err != nil {
		return runner.Crash, []string{err.Error()}, nil
	}
	cctx, cancel := context.WithTimeout(ctx, r.Timeout)
	a := s.Exchange(cctx, line)
	cancel()
	if a.Ended {
		fail.Stderr = runner.Bounded(a.Outcome.Stderr, 4000)
		fail.Exit = a.Outcome.Exit
	} else {
		fail.Stdout = runner.Bounded(append(a.Line, '\n'), 4000)
	}
	if len(a.Outside) > 0 {
		pool.put(s)
		return runner.Escape, []string{"the adapter wrote outside its folder: " + strings.Join(a.Outside, ", ") + " (the writes went to an overlay: the host is unchanged)"}, nil
	}
	result, verdict, why, open := receive(s, a, id)
	if open {
		pool.put(s)
	}
	if verdict != runner.Pass {
		return verdict, []string{why}, nil
	}
	var ds []pdcases.Difference
	if c.Replay != nil {
		ds = c.CompareReplay(result)
	} else {
		got, err := pdcases.ParseResult(result)
		if err != nil {
			return runner.Fail, []string{"the result is not a result object: " + err.Error()}, nil
		}
		ds = c.Compare(got)
	}
	var problems, advice []string
	for _, d := range ds {
		if d.Recommended {
			advice = append(advice, "recommended: "+d.Text)
		} else {
			problems = append(problems, d.Text)
		}
	}
	if len(problems) > 0 {
		return runner.Fail, problems, advice
	}
	return runner.Pass, nil, advice
}

// firstLine returns the first line of the first problem.
func firstLine(problems []string) string {
	if len(problems) == 0 {
		return ""
	}
	s, _, _ := bytes.Cut([]byte(problems[0]), []byte("\n"))
	return string(s)
}

// receive judges a session's answer to the request with id: the result it
// holds (runner.Pass), or the verdict and why there is none, and whether
// the session is still open: one that ended or broke the protocol is
// closed, one that answered (an error message included) can be reused.
func receive(s Session, a Answer, id string) (json.RawMessage, runner.Verdict, string, bool) {
	if a.Ended {
		s.Close()
		why := a.Why + ended(a.Outcome)
		switch {
		case a.Outcome.ForksRefused > 0: // a fork loop that ran into the limit, as in blockpatch
			return nil, runner.Fail, why, false
		case a.Outcome.TimedOut:
			return nil, runner.Timeout, why, false
		case a.Outcome.Signal != "":
			return nil, runner.Signal, why, false
		}
		return nil, runner.Crash, why, false
	}
	m, err := ParseMessage(a.Line)
	if err != nil {
		s.Close()
		return nil, runner.Fail, err.Error(), false
	}
	if m.ID != id {
		s.Close()
		return nil, runner.Fail, fmt.Sprintf("answered id %q to the request with id %q", m.ID, id), false
	}
	switch {
	case m.Error != nil:
		return nil, runner.Fail, "the adapter answered an error instead of a result: " + m.Error.Message, true
	case m.Result == nil:
		return nil, runner.Fail, "the answer holds no result", true
	}
	return m.Result, runner.Pass, "", true
}
