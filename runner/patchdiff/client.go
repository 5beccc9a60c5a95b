package patchdiff

import (
	"context"
	"fmt"
	"strconv"
	"time"

	"github.com/blockpatch-conformance/blockpatch-conformance/runner"
)

// Client asks one applier requests outside a certification run, one at a
// time, over the same protocol and with the same judgement of answers as
// the runner: the differential campaign (fuzz/patchdiff) asks two appliers
// the same request with it. A session that ends or breaks the protocol is
// closed and the next call opens another, handshake first.
type Client struct {
	applier Applier
	env     SessionEnv
	timeout time.Duration
	s       Session
	n       int
	// Hello is what the applier said of itself in the last handshake.
	Hello *Hello
}

// Reply is an applier's answer to one request: the result document, or
// the verdict (crash, timeout, signal, fail) and why there is none.
type Reply struct {
	Result  []byte
	Verdict runner.Verdict
	Why     string
}

// NewClient returns a client of a whose sessions run in dir (a scratch
// folder the caller owns), each exchange bounded by timeout. Nothing is
// started until the first call.
func NewClient(a Applier, dir string, timeout time.Duration) *Client {
	return &Client{applier: a, env: SessionEnv{Dir: dir}, timeout: timeout}
}

// Call sends one request document and returns the reply. Its error is a
// harness fault: the applier could not be started or failed its handshake.
func (c *Client) Call(ctx context.Context, request []byte) (Reply, error) {
	if c.s == nil {
		s, err := c.applier.Open(ctx, c.env)
		if err != nil {
			return Reply{}, fmt.Errorf("starting the applier: %w", err)
		}
		if c.Hello, err = shakeHands(ctx, s, c.timeout); err != nil {
			return Reply{}, err
		}
		c.s = s
	}
	c.n++
	id := "q-" + strconv.Itoa(c.n)
	line, err := (&Message{ID: id, Request: request}).Line()
	if err != nil {
		return Reply{}, fmt.Errorf("encoding the request: %w", err)
	}
	cctx, cancel := context.WithTimeout(ctx, c.timeout)
	a := c.s.Exchange(cctx, line)
	cancel()
	result, verdict, why, open := receive(c.s, a, id)
	if !open {
		c.s = nil
	}
	return Reply{Result: result, Verdict: verdict, Why: why}, nil
}

// Close ends the open session, if any.
func (c *Client) Close() {
	if c.s != nil {
		c.s.Close()
		c.s = nil
	}
}
