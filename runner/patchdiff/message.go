package patchdiff

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/plainjson"
)

// Protocol is the version of the adapter protocol this package speaks
// (spec/patchdiff/adapter.md).
const Protocol = "patchdiff-adapter/1"

// MaxLine bounds one line of the protocol: a result holding a 1 MiB text
// and its evidence, JSON-escaped, fits many times over.
const MaxLine = 64 << 20

// Message is one line of the adapter protocol: the handshake, a request, or
// an answer holding a result or an error. Request and Result stay raw, so
// that every byte of the runtime's JSON (escapes of lone surrogates
// included) passes through unchanged.
type Message struct {
	ID    string `json:"id"`
	Hello *Hello `json:"hello,omitempty"`
	// Operation says what a request asks: "apply" (a runtime call, the
	// default when absent), "replay" (a stored history to verify) or
	// "observed_batch" (an observed batch, BATCH).
	Operation string          `json:"operation,omitempty"`
	Request   json.RawMessage `json:"request,omitempty"`
	Result    json.RawMessage `json:"result,omitempty"`
	Error     *MessageError   `json:"error,omitempty"`
}

// Hello is the handshake: the protocol version, and from the adapter its
// name, version and the runtime profiles it implements (none listed: all).
type Hello struct {
	Protocol        string   `json:"protocol"`
	Name            string   `json:"name,omitempty"`
	Version         string   `json:"version,omitempty"`
	RuntimeVersions []string `json:"runtime_versions,omitempty"`
	// Operations lists the request operations the adapter answers; absent
	// means only "apply".
	Operations []string `json:"operations,omitempty"`
}

// The request operations of the protocol.
const (
	OperationApply         = "apply"
	OperationReplay        = "replay"
	OperationObservedBatch = "observed_batch"
)

// Operations lists the request operations in the order a handshake names
// them.
var Operations = []string{OperationApply, OperationReplay, OperationObservedBatch}

// Supports reports whether the adapter answers operation op.
func (h *Hello) Supports(op string) bool {
	if len(h.Operations) == 0 {
		return op == OperationApply
	}
	for _, o := range h.Operations {
		if o == op {
			return true
		}
	}
	return false
}

// MessageError is an adapter's answer when it could not produce a result.
type MessageError struct {
	Message string `json:"message"`
}

// helloID is the id of the handshake.
const helloID = "hello"

// ParseMessage decodes one line strictly: a JSON object with a string id,
// no unknown member, and exactly one of hello, request, result and error.
func ParseMessage(line []byte) (*Message, error) {
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	var m Message
	if err := dec.Decode(&m); err != nil {
		return nil, fmt.Errorf("not a protocol message: %v", err)
	}
	if dec.More() {
		return nil, errors.New("not a protocol message: more than one JSON value on the line")
	}
	n := 0
	for _, set := range []bool{m.Hello != nil, m.Request != nil, m.Result != nil, m.Error != nil} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, errors.New("not a protocol message: it must hold exactly one of hello, request, result and error")
	}
	return &m, nil
}

// Line encodes m as one line, without its newline, leaving <, > and &
// as they are. It fails only when a raw member is not valid JSON.
func (m *Message) Line() ([]byte, error) { return plainjson.Marshal(m) }
