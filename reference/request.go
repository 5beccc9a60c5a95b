package reference

import (
	"bytes"
	"encoding/json"
	"errors"
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

// DecodeRequest decodes and validates move JSON as upstream does. Bytes
// that are not UTF-8 are read with U+FFFD in place of each bad byte, and
// lone UTF-16 surrogate escapes become U+FFFD too. Text that is not JSON is
// invalid_json; JSON that is not an object is invalid_move_args without a
// field. Members are then judged in document order: an unknown key or a
// value of the wrong type (null included) is invalid_move_args naming the
// member. A repeated key keeps its last value. Last, the request must
// describe one valid shape (see Request.Validate), all but the "." and
// ".." segments of src and dst: PlanRequest and EvaluateRequest refuse
// those, resolving the paths in the folder of their Files.
func DecodeRequest(data []byte) (*Request, error) {
	members, err := jsonObject(data)
	if err != nil {
		return nil, err
	}
	req := &Request{}
	for _, m := range members {
		if err := req.set(m.key, m.raw); err != nil {
			return nil, err
		}
	}
	if _, err := req.classify(); err != nil {
		return nil, err
	}
	return req, nil
}

type member struct {
	key string
	raw json.RawMessage
}

// jsonObject splits data into the members of one JSON object, each key
// once, at the place of its first occurrence with the value of its last.
// The whole text is read before any member is judged, so a broken document
// is never reported as a bad member.
func jsonObject(data []byte) ([]member, error) {
	bad := func(why string) error {
		return &Error{Code: InvalidJSON, Message: "invalid move JSON: " + why}
	}
	data = validUTF8(data)
	if !json.Valid(data) {
		var v any
		err := json.Unmarshal(data, &v)
		if err == nil {
			err = errors.New("not JSON")
		}
		return nil, bad(err.Error())
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	tok, _ := dec.Token()
	if d, ok := tok.(json.Delim); !ok || d != '{' {
		return nil, &Error{Code: InvalidMoveArgs, Message: "invalid move request: the request must be a JSON object"}
	}
	var members []member
	index := map[string]int{}
	for dec.More() {
		tok, _ := dec.Token()
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return nil, bad(err.Error())
		}
		if i, seen := index[key]; seen {
			members[i].raw = raw
			continue
		}
		index[key] = len(members)
		members = append(members, member{key, raw})
	}
	return members, nil
}

// validUTF8 returns data with one U+FFFD for each maximal invalid subpart,
// as decodeText reads a patch's header lines: upstream decodes a request the same
// way (PLAN-043), so a cut sequence such as e1 80 is one U+FFFD, not two.
func validUTF8(data []byte) []byte {
	if utf8.Valid(data) {
		return data
	}
	return []byte(decodeText(string(data)))
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
	var s string
	if len(raw) == 0 || raw[0] != '"' || json.Unmarshal(raw, &s) != nil {
		return argsError(key, "%s must be a string", key)
	}
	if slot == nil {
		r.Src = s
	} else {
		*slot = &s
	}
	return nil
}

// argsError is invalid_move_args naming the offending member.
func argsError(field, format string, args ...any) *Error {
	e := errorf(InvalidMoveArgs, "invalid move request: "+format, args...)
	e.Field = field
	return e
}

// Validate checks that the request describes exactly one shape, in
// upstream's order: expected_payload_sha256 well formed, mode one of the
// two values, src present, the form of src and dst (checkPathForm), the
// members the shape needs or forbids, then the segments of src and dst
// (checkPathSegments, judged without a folder: "../x" leaves whatever
// --cwd is, and "../work/x" does too). Path failures are invalid_path or
// path_outside_cwd with phase "path"; every other failure is
// invalid_move_args naming the member at fault.
func (r *Request) Validate() error {
	sh, err := r.classify()
	if err != nil {
		return err
	}
	return checkSegments("", sh.src, sh.dst)
}

// shape is a validated request reduced to what the planner needs.
type shape struct {
	kind     Shape
	src, dst string // operation paths, DevNull for the absent side
}

// classify validates the request as Validate describes, all but the
// segments of src and dst, which need the folder the paths resolve in.
func (r *Request) classify() (shape, error) {
	var sh shape
	// Checked in 1.1.0's order: the hash's form, mode, then src.
	if h := r.ExpectedPayloadSHA256; h != nil && !shaPattern.MatchString(*h) {
		return sh, argsError("expected_payload_sha256", "expected_payload_sha256 must be 64 lowercase hex digits")
	}
	if r.Mode != nil && *r.Mode != ModeCreateFile && *r.Mode != ModeRemoveFile {
		return sh, argsError("mode", "mode must be create_file or remove_file, not %s", strconv.Quote(*r.Mode))
	}
	if r.Src == "" {
		return sh, argsError("src", "src is missing or empty")
	}
	src, dst := r.Src, r.Src
	if r.Dst != nil {
		dst = *r.Dst
	}
	for _, p := range []string{src, dst} {
		if err := checkEndpointForm(p); err != nil {
			return sh, err
		}
	}
	sh.src, sh.dst = src, dst

	// present reports the first member among names that is present;
	// nonEmpty the first that is present and not empty.
	present := func(names ...string) string {
		for _, n := range names {
			if r.member(n) != nil {
				return n
			}
		}
		return ""
	}
	forbid := func(why string, names ...string) error {
		if n := present(names...); n != "" {
			return argsError(n, "%s is not allowed %s", n, why)
		}
		return nil
	}
	need := func(why string, names ...string) error {
		for _, n := range names {
			if str(r.member(n)) == "" {
				return argsError(n, "%s is missing or empty: %s", n, why)
			}
		}
		return nil
	}
	needTarget := func() error {
		if str(r.TargetBefore) == "" && str(r.TargetAfter) == "" {
			return argsError("target_before", "target_before or target_after is required and must not be empty")
		}
		return nil
	}
	var checks []func() error
	switch {
	case r.Mode != nil && *r.Mode == ModeCreateFile:
		sh.kind = ShapeCreate
		checks = []func() error{
			func() error {
				if src != DevNull {
					return argsError("src", "mode create_file needs src /dev/null")
				}
				return nil
			},
			func() error {
				if dst == DevNull {
					return argsError("dst", "mode create_file needs a dst other than /dev/null")
				}
				return nil
			},
			func() error {
				if r.Payload == nil {
					return argsError("payload", "mode create_file needs payload (it may be empty)")
				}
				return nil
			},
			func() error {
				return forbid("with mode: the whole file is the payload", "src_start", "src_end", "target_before", "target_after")
			},
		}
	case r.Mode != nil:
		sh.kind = ShapeRemove
		checks = []func() error{
			func() error {
				if src == DevNull {
					return argsError("src", "mode remove_file needs a src other than /dev/null")
				}
				return nil
			},
			func() error {
				if dst != DevNull {
					return argsError("dst", "mode remove_file needs dst /dev/null")
				}
				return nil
			},
			func() error { return forbid("unless src is /dev/null", "payload") },
			func() error {
				return forbid("with mode: the whole file is the payload", "src_start", "src_end", "target_before", "target_after")
			},
		}
	case src == DevNull:
		sh.kind = ShapeInsert
		checks = []func() error{
			func() error {
				if dst == DevNull {
					return argsError("dst", "an insertion (src /dev/null) needs a dst other than /dev/null")
				}
				return nil
			},
			func() error {
				return forbid("when src is /dev/null: the payload comes from payload", "src_start", "src_end")
			},
			func() error { return need("an insertion (src /dev/null) inserts payload", "payload") },
			needTarget,
		}
	case dst == DevNull:
		sh.kind = ShapeDelete
		checks = []func() error{
			func() error { return forbid("unless src is /dev/null", "payload") },
			func() error {
				return forbid("when dst is /dev/null: a deletion has no target", "target_before", "target_after")
			},
			func() error { return need("it delimits the payload in src", "src_start", "src_end") },
		}
	default:
		sh.kind = ShapeRelocate
		checks = []func() error{
			func() error { return forbid("unless src is /dev/null", "payload") },
			needTarget,
			func() error { return need("it delimits the payload in src", "src_start", "src_end") },
		}
	}
	for _, c := range checks {
		if err := c(); err != nil {
			return sh, err
		}
	}
	return sh, nil
}

// checkSegments checks the segments of paths in order, resolving them
// against base (see leaves). Validate checks src's and dst's, the last
// check of a request; the planner checks only src's, since upstream looks
// for a missing src before dst's segments, which are checked when dst is
// read (PLAN-044).
func checkSegments(base string, paths ...string) error {
	for _, p := range paths {
		if p == DevNull {
			continue
		}
		if err := checkPathSegments(base, p); err != nil {
			return err
		}
	}
	return nil
}

// checkEndpointForm checks src or dst before the members of the shape:
// /dev/null, or a path that passes checkPathForm. Its segments are checked
// after the members, as upstream does.
func checkEndpointForm(p string) error {
	if p == DevNull {
		return nil
	}
	return checkPathForm(p)
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

func str(p *string) string {
	if p == nil {
		return ""
	}
	return *p
}
