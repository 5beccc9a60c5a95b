package reference

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"unicode/utf8"
)

// Request is the spec's MoveBlockArgs: the move JSON accepted by plan and
// move. A nil pointer field was absent from the request.
type Request struct {
	Src                   string  `json:"src"`
	SrcStart              *string `json:"src_start,omitempty"`
	SrcEnd                *string `json:"src_end,omitempty"`
	Dst                   *string `json:"dst,omitempty"`
	Payload               *string `json:"payload,omitempty"`
	TargetBefore          *string `json:"target_before,omitempty"`
	TargetAfter           *string `json:"target_after,omitempty"`
	ExpectedPayloadSHA256 *string `json:"expected_payload_sha256,omitempty"`
	Mode                  *string `json:"mode,omitempty"`
	DryRun                *bool   `json:"dry_run,omitempty"`
}

// The values of Request.Mode.
const (
	ModeCreateFile = "create_file"
	ModeRemoveFile = "remove_file"
)

// DecodeRequest decodes and validates move JSON. Bytes that are not one
// JSON object encoded as UTF-8 are invalid_json. A well-formed object is
// then checked member by member: an unknown or repeated key, a member of
// the wrong JSON type, or a string holding an unpaired UTF-16 surrogate
// escape is invalid_move_args with field naming the member. Last, the
// request must describe one valid shape (see Request.Validate).
func DecodeRequest(data []byte) (*Request, error) {
	members, err := jsonObject(data)
	if err != nil {
		return nil, err
	}
	req := &Request{}
	seen := map[string]bool{}
	for _, m := range members {
		if seen[m.key] {
			return nil, argsError(m.key, "member %s is given twice", strconv.Quote(m.key))
		}
		seen[m.key] = true
		if err := req.set(m.key, m.raw); err != nil {
			return nil, err
		}
	}
	if err := req.Validate(); err != nil {
		return nil, err
	}
	return req, nil
}

type member struct {
	key string
	raw json.RawMessage
}

// jsonObject splits data, which must be exactly one JSON object, into its
// members in document order. Any syntax problem is invalid_json: the whole
// text is read before any member is judged, so a broken document is never
// reported as a bad member.
func jsonObject(data []byte) ([]member, error) {
	bad := func(why string) error {
		return &Error{Code: InvalidJSON, Phase: "parse", Message: "invalid move JSON: " + why}
	}
	if !utf8.Valid(data) {
		return nil, bad("the request is not valid UTF-8")
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, err := dec.Token()
	if err == io.EOF {
		return nil, bad("the request is empty")
	}
	if err != nil {
		return nil, bad(err.Error())
	}
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, bad("the request must be a single JSON object")
	}
	var members []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, bad(err.Error())
		}
		key, ok := tok.(string)
		if !ok {
			return nil, bad("expected a member name")
		}
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bad(err.Error())
		}
		members = append(members, member{key, raw})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, bad(err.Error())
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, bad("the request must be a single JSON object, with nothing after it")
	}
	return members, nil
}

// set stores one member's value, checking its JSON type.
func (r *Request) set(key string, raw json.RawMessage) error {
	if key == "dry_run" {
		if !bytes.Equal(raw, []byte("true")) && !bytes.Equal(raw, []byte("false")) {
			return argsError(key, "dry_run must be true or false")
		}
		b := raw[0] == 't'
		r.DryRun = &b
		return nil
	}
	var slot **string // nil for src, which is not a pointer
	switch key {
	case "src":
	case "src_start":
		slot = &r.SrcStart
	case "src_end":
		slot = &r.SrcEnd
	case "dst":
		slot = &r.Dst
	case "payload":
		slot = &r.Payload
	case "target_before":
		slot = &r.TargetBefore
	case "target_after":
		slot = &r.TargetAfter
	case "expected_payload_sha256":
		slot = &r.ExpectedPayloadSHA256
	case "mode":
		slot = &r.Mode
	default:
		return argsError(key, "unknown member %s", strconv.Quote(key))
	}
	if len(raw) == 0 || raw[0] != '"' {
		return argsError(key, "%s must be a string", key)
	}
	if !pairedSurrogates(raw) {
		return argsError(key, "%s holds a \\u escape of an unpaired UTF-16 surrogate, which is no character", key)
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return argsError(key, "%s must be a string", key)
	}
	if slot == nil {
		r.Src = s
	} else {
		*slot = &s
	}
	return nil
}

// pairedSurrogates reports whether every \u escape of a UTF-16 surrogate
// in a well-formed JSON string literal is a high surrogate directly
// followed by a low one. encoding/json would silently turn a lone
// surrogate into U+FFFD, so that the request would match other bytes than
// the caller wrote.
func pairedSurrogates(lit []byte) bool {
	unit := func(i int) (rune, bool) { // the \uXXXX escape at lit[i:], if any
		if i+6 > len(lit) || lit[i] != '\\' || lit[i+1] != 'u' {
			return 0, false
		}
		v, err := strconv.ParseUint(string(lit[i+2:i+6]), 16, 32)
		return rune(v), err == nil
	}
	for i := 0; i < len(lit); i++ {
		if lit[i] != '\\' {
			continue
		}
		u, ok := unit(i)
		if !ok {
			i++ // a two-character escape such as \" or \\
			continue
		}
		switch {
		case u >= 0xD800 && u < 0xDC00:
			lo, ok := unit(i + 6)
			if !ok || lo < 0xDC00 || lo > 0xDFFF {
				return false
			}
			i += 11
		case u >= 0xDC00 && u <= 0xDFFF:
			return false
		default:
			i += 5
		}
	}
	return true
}

// argsError is invalid_move_args naming the offending member.
func argsError(field, format string, args ...any) *Error {
	e := errorf(InvalidMoveArgs, "invalid move request: "+format, args...)
	e.Field, e.Phase = field, "parse"
	return e
}

// Validate checks that the request describes exactly one shape. It returns
// invalid_move_args with field naming the member at fault, and
// invalid_path (field "src" or "dst") for a src or dst other than
// /dev/null that breaks the path rules. The checks run in this order: src,
// dst, the pair of endpoints, mode, payload, the source delimiters, the
// target anchors, expected_payload_sha256.
func (r *Request) Validate() error {
	_, err := r.classify()
	return err
}

// shape is a validated request reduced to what the planner needs.
type shape struct {
	kind     Shape
	src, dst string // operation paths, DevNull for the absent side
}

func (r *Request) classify() (shape, error) {
	var sh shape
	if r.Src == "" {
		return sh, argsError("src", "src is missing or empty")
	}
	if err := checkEndpoint(r.Src, "src"); err != nil {
		return sh, err
	}
	src, dst := r.Src, r.Src
	if r.Dst != nil {
		if *r.Dst == "" {
			return sh, argsError("dst", "dst is empty")
		}
		if err := checkEndpoint(*r.Dst, "dst"); err != nil {
			return sh, err
		}
		dst = *r.Dst
	}
	if src == DevNull && dst == DevNull {
		if r.Dst == nil {
			return sh, argsError("dst", "dst is required when src is /dev/null")
		}
		return sh, argsError("dst", "src and dst cannot both be /dev/null")
	}
	sh.src, sh.dst = src, dst

	// notAllowed reports the first present member among names.
	notAllowed := func(why string, names ...string) error {
		for _, n := range names {
			if r.member(n) != nil {
				return argsError(n, "%s is not allowed %s", n, why)
			}
		}
		return nil
	}
	if r.Mode != nil {
		switch *r.Mode {
		case ModeCreateFile:
			if src != DevNull {
				return sh, argsError("mode", "mode create_file needs src /dev/null")
			}
			if r.Payload == nil {
				return sh, argsError("payload", "mode create_file needs payload (it may be empty)")
			}
			sh.kind = ShapeCreate
		case ModeRemoveFile:
			if dst != DevNull {
				return sh, argsError("mode", "mode remove_file needs dst /dev/null")
			}
			if r.Payload != nil {
				return sh, argsError("payload", "payload is only allowed when src is /dev/null")
			}
			sh.kind = ShapeRemove
		default:
			return sh, argsError("mode", "mode must be create_file or remove_file, not %s", strconv.Quote(*r.Mode))
		}
		if err := notAllowed("with mode: the whole file is the payload", "src_start", "src_end", "target_before", "target_after"); err != nil {
			return sh, err
		}
		return sh, r.checkHash()
	}

	switch {
	case src == DevNull:
		sh.kind = ShapeInsert
		if r.Payload == nil || *r.Payload == "" {
			return sh, argsError("payload", "an insertion (src /dev/null) needs a non-empty payload")
		}
		if err := notAllowed("when src is /dev/null: the payload comes from payload", "src_start", "src_end"); err != nil {
			return sh, err
		}
	case r.Payload != nil:
		return sh, argsError("payload", "payload is only allowed when src is /dev/null")
	default:
		sh.kind = ShapeRelocate
		if dst == DevNull {
			sh.kind = ShapeDelete
		}
		for _, n := range []string{"src_start", "src_end"} {
			if v := r.member(n); v == nil || *v == "" {
				return sh, argsError(n, "%s is missing or empty: it delimits the payload in src", n)
			}
		}
	}
	if sh.kind == ShapeDelete {
		if err := notAllowed("when dst is /dev/null: a deletion has no target", "target_before", "target_after"); err != nil {
			return sh, err
		}
	} else if str(r.TargetBefore) == "" && str(r.TargetAfter) == "" {
		return sh, argsError("target_before", "target_before or target_after is required and must not be empty")
	}
	return sh, r.checkHash()
}

func (r *Request) checkHash() error {
	if h := r.ExpectedPayloadSHA256; h != nil && !shaPattern.MatchString(*h) {
		return argsError("expected_payload_sha256", "expected_payload_sha256 must be 64 lowercase hex digits")
	}
	return nil
}

// member returns a string member by its JSON name.
func (r *Request) member(name string) *string {
	switch name {
	case "src_start":
		return r.SrcStart
	case "src_end":
		return r.SrcEnd
	case "payload":
		return r.Payload
	case "target_before":
		return r.TargetBefore
	case "target_after":
		return r.TargetAfter
	}
	panic("reference: no request member " + name)
}

// checkEndpoint checks src or dst: /dev/null or a valid operation path.
func checkEndpoint(p, field string) error {
	if p == DevNull {
		return nil
	}
	if err := CheckPath(p); err != nil {
		var e *Error
		if errors.As(err, &e) {
			e.Field, e.Phase = field, "parse"
		}
		return err
	}
	return nil
}

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
