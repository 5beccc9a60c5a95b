package reference

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

var hash64 = strings.Repeat("ab", 32)

// TestDecodeRequestErrors checks each way a request is refused before any
// file is read: the code, and the field for invalid_move_args and
// invalid_path.
func TestDecodeRequestErrors(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, why string
		json      string
		code      Code
		field     string
	}{
		// Not one JSON object.
		{"empty", "no bytes at all", ``, InvalidJSON, ""},
		{"blank", "only whitespace", " \n", InvalidJSON, ""},
		{"syntax", "broken JSON", `{"src":`, InvalidJSON, ""},
		{"trailing comma", "broken JSON", `{"src":"f",}`, InvalidJSON, ""},
		{"array", "a request is an object", `[{"src":"f"}]`, InvalidMoveArgs, ""},
		{"string", "a request is an object", `"f"`, InvalidMoveArgs, ""},
		{"null", "a request is an object", `null`, InvalidMoveArgs, ""},
		{"two objects", "exactly one object", `{"src":"f"} {"src":"g"}`, InvalidJSON, ""},
		{"trailing garbage", "nothing after the object", `{"src":"f"} x`, InvalidJSON, ""},
		{"invalid utf8 outside strings", "bad bytes become U+FFFD, which is no JSON", "{\"src\":\"f\"\xff}", InvalidJSON, ""},
		{"broken after unknown key", "syntax is judged before members", `{"bogus":1,`, InvalidJSON, ""},

		// Members.
		{"unknown key", "D5: field is the unknown key", `{"src":"f","bogus":1}`, InvalidMoveArgs, "bogus"},
		{"unknown key case", "keys are case-sensitive", `{"Src":"f"}`, InvalidMoveArgs, "Src"},
		{"duplicate key", "the last value counts, then validation goes on", `{"src":"f","src":"g"}`, InvalidMoveArgs, "target_before"},
		{"members in order", "the first bad member in the document", `{"src_start":5,"bogus":1}`, InvalidMoveArgs, "src_start"},
		{"mode null", "null is not a string", `{"src":"f","mode":null}`, InvalidMoveArgs, "mode"},
		{"src number", "wrong type", `{"src":1}`, InvalidMoveArgs, "src"},
		{"src null", "null is not a string", `{"src":null}`, InvalidMoveArgs, "src"},
		{"dst null", "null is not absent", `{"src":"f","dst":null}`, InvalidMoveArgs, "dst"},
		{"payload object", "wrong type", `{"src":"/dev/null","dst":"f","payload":{}}`, InvalidMoveArgs, "payload"},
		{"target array", "wrong type", `{"src":"f","src_start":"a","src_end":"b","target_before":["x"]}`, InvalidMoveArgs, "target_before"},
		{"dry_run string", "dry_run is a boolean", `{"src":"f","dry_run":"true"}`, InvalidMoveArgs, "dry_run"},
		{"mode number", "wrong type", `{"src":"f","mode":1}`, InvalidMoveArgs, "mode"},

		// src and dst.
		{"src missing", "src is required", `{}`, InvalidMoveArgs, "src"},
		{"src empty", "src is required", `{"src":""}`, InvalidMoveArgs, "src"},
		{"src absolute", "paths are relative", `{"src":"/etc/passwd","src_start":"a","src_end":"b","target_before":"x"}`, PathOutsideCwd, ""},
		{"src climbs out", "resolving leaves --cwd", `{"src":"a/../../b","src_start":"a","src_end":"b","target_before":"x"}`, PathOutsideCwd, ""},
		{"src dotdot", "no .. segments", `{"src":"a/../b","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"src backslash", "no backslashes", `{"src":"a\\b","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"src control", "no control characters", `{"src":"a\u0001","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"src C1 control", "no control characters", `{"src":"a\u0085","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"path before shape", "paths are checked before the members the shape needs", `{"src":"/abs"}`, PathOutsideCwd, ""},
		{"control before absolute", "a control character is found first", `{"src":"/a\u0001"}`, InvalidPath, ""},
		{"control before backslash", "a control character is found first", `{"src":"a\\b\u0001"}`, InvalidPath, ""},
		{"segments after shape", "PLAN-044: the members come before the segments", `{"src":"a/../b"}`, InvalidMoveArgs, "target_before"},
		{"climbing after shape", "PLAN-044: leaving --cwd is judged with the segments", `{"src":"../b","src_start":"a","src_end":"b"}`, InvalidMoveArgs, "target_before"},
		{"remove dst before segments", "PLAN-044", `{"src":"./f","dst":"g","mode":"remove_file"}`, InvalidMoveArgs, "dst"},
		{"dst form before src segments", "PLAN-044: both forms, then the segments", `{"src":"../f","dst":"a\\b","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"dst empty", "an empty path", `{"src":"f","dst":"","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"dst invalid", "dst is checked like src", `{"src":"f","dst":"./g","src_start":"a","src_end":"b","target_before":"x"}`, InvalidPath, ""},
		{"both null", "/dev/null on both sides", `{"src":"/dev/null","dst":"/dev/null","payload":"p","target_before":"x"}`, InvalidMoveArgs, "dst"},
		{"insertion without dst", "dst defaults to src, which is /dev/null", `{"src":"/dev/null","payload":"p","target_before":"x"}`, InvalidMoveArgs, "dst"},

		// mode.
		{"mode unknown", "only the two modes", `{"src":"f","dst":"/dev/null","mode":"delete"}`, InvalidMoveArgs, "mode"},
		{"create not from null", "create_file needs src /dev/null", `{"src":"f","dst":"g","payload":"p","mode":"create_file"}`, InvalidMoveArgs, "src"},
		{"create to null", "create_file needs a dst", `{"src":"/dev/null","payload":"p","mode":"create_file"}`, InvalidMoveArgs, "dst"},
		{"remove from null", "remove_file needs a src", `{"src":"/dev/null","dst":"/dev/null","mode":"remove_file"}`, InvalidMoveArgs, "src"},
		{"mode before paths", "a bad mode is found first", `{"src":"/abs","mode":"bogus"}`, InvalidMoveArgs, "mode"},
		{"create without payload", "create_file needs payload", `{"src":"/dev/null","dst":"g","mode":"create_file"}`, InvalidMoveArgs, "payload"},
		{"create with target", "the whole file is the payload", `{"src":"/dev/null","dst":"g","payload":"p","mode":"create_file","target_before":"x"}`, InvalidMoveArgs, "target_before"},
		{"create with src_start", "the whole file is the payload", `{"src":"/dev/null","dst":"g","payload":"p","mode":"create_file","src_start":"x"}`, InvalidMoveArgs, "src_start"},
		{"remove not to null", "remove_file needs dst /dev/null", `{"src":"f","mode":"remove_file"}`, InvalidMoveArgs, "dst"},
		{"remove with payload", "payload only with src /dev/null", `{"src":"f","dst":"/dev/null","mode":"remove_file","payload":"p"}`, InvalidMoveArgs, "payload"},
		{"remove with delimiters", "the whole file is the payload", `{"src":"f","dst":"/dev/null","mode":"remove_file","src_end":"x"}`, InvalidMoveArgs, "src_end"},
		{"remove with target_after", "the whole file is the payload", `{"src":"f","dst":"/dev/null","mode":"remove_file","target_after":""}`, InvalidMoveArgs, "target_after"},

		// payload.
		{"payload with source file", "payload only with src /dev/null", `{"src":"f","payload":"p","src_start":"a","src_end":"b","target_before":"x"}`, InvalidMoveArgs, "payload"},
		{"insertion without payload", "insertion needs a payload", `{"src":"/dev/null","dst":"f","target_before":"x"}`, InvalidMoveArgs, "payload"},
		{"insertion empty payload", "no zero-byte in-file insertion", `{"src":"/dev/null","dst":"f","payload":"","target_before":"x"}`, InvalidMoveArgs, "payload"},
		{"insertion with src_start", "the payload comes from payload", `{"src":"/dev/null","dst":"f","payload":"p","src_start":"a","target_before":"x"}`, InvalidMoveArgs, "src_start"},
		{"insertion src_start before payload", "delimiters are refused before the payload is judged", `{"src":"/dev/null","dst":"f","payload":"","src_start":"a"}`, InvalidMoveArgs, "src_start"},

		// Source delimiters.
		{"src_start missing", "relocation selects by delimiters", `{"src":"f","src_end":"b","target_before":"x"}`, InvalidMoveArgs, "src_start"},
		{"src_start empty", "an empty delimiter selects nothing", `{"src":"f","src_start":"","src_end":"b","target_before":"x"}`, InvalidMoveArgs, "src_start"},
		{"src_end missing", "relocation selects by delimiters", `{"src":"f","src_start":"a","target_before":"x"}`, InvalidMoveArgs, "src_end"},
		{"deletion src_end empty", "deletion selects by delimiters", `{"src":"f","dst":"/dev/null","src_start":"a","src_end":""}`, InvalidMoveArgs, "src_end"},

		// Target anchors.
		{"relocation without target", "a target side is required", `{"src":"f","src_start":"a","src_end":"b"}`, InvalidMoveArgs, "target_before"},
		{"relocation target first", "the target is judged before the delimiters", `{"src":"f"}`, InvalidMoveArgs, "target_before"},
		{"deletion target first", "a target is refused before the delimiters are judged", `{"src":"f","dst":"/dev/null","target_after":"x"}`, InvalidMoveArgs, "target_after"},
		{"relocation with empty targets", "not both sides empty", `{"src":"f","src_start":"a","src_end":"b","target_before":"","target_after":""}`, InvalidMoveArgs, "target_before"},
		{"insertion without target", "a target side is required", `{"src":"/dev/null","dst":"f","payload":"p"}`, InvalidMoveArgs, "target_before"},
		{"deletion with target_before", "a deletion has no target", `{"src":"f","dst":"/dev/null","src_start":"a","src_end":"b","target_before":"x"}`, InvalidMoveArgs, "target_before"},
		{"deletion with empty target_after", "present is present", `{"src":"f","dst":"/dev/null","src_start":"a","src_end":"b","target_after":""}`, InvalidMoveArgs, "target_after"},

		// expected_payload_sha256.
		{"hash short", "64 hex digits", `{"src":"f","dst":"/dev/null","src_start":"a","src_end":"b","expected_payload_sha256":"abc"}`, InvalidMoveArgs, "expected_payload_sha256"},
		{"hash upper", "lowercase", `{"src":"f","dst":"/dev/null","src_start":"a","src_end":"b","expected_payload_sha256":"` + strings.ToUpper(hash64) + `"}`, InvalidMoveArgs, "expected_payload_sha256"},
		{"hash with mode", "checked for whole-file shapes too", `{"src":"f","dst":"/dev/null","mode":"remove_file","expected_payload_sha256":""}`, InvalidMoveArgs, "expected_payload_sha256"},
		{"hash before shape", "the hash format is judged before the shape", `{"src":"/abs","expected_payload_sha256":"abc"}`, InvalidMoveArgs, "expected_payload_sha256"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			// DecodeRequest leaves the segments to Validate and the
			// planners, which know the folder the paths resolve in.
			req, err := DecodeRequest([]byte(tt.json))
			if err == nil {
				err = req.Validate()
			}
			wantCode(t, err, tt.code)
			e := err.(*Error)
			if e.Field != tt.field || (e.Code == InvalidMoveArgs && e.Phase != "") {
				t.Errorf("field %q phase %q, want field %q and no phase (%s)", e.Field, e.Phase, tt.field, tt.why)
			}
			if e.Message == "" {
				t.Error("empty message")
			}
			// PlanRequest validates a hand-built request the same way,
			// given the src "f" most rows name: it looks for a missing src
			// before it checks dst's segments (PLAN-044).
			if req, ok := decodeLoose(tt.json); ok {
				_, err := PlanRequest(req, MapFiles{"f": []byte("a\nb\nx\n")})
				wantCode(t, err, tt.code)
				if e := err.(*Error); e.Field != tt.field {
					t.Errorf("PlanRequest: field %q, want %q", e.Field, tt.field)
				}
			}
		})
	}
}

// decodeLoose decodes the members of a well-formed object without
// validating the request; it reports false when a member itself is bad.
func decodeLoose(data string) (*Request, bool) {
	members, err := jsonObject([]byte(data))
	if err != nil {
		return nil, false
	}
	r, seen := &Request{}, map[string]bool{}
	for _, m := range members {
		if r.set(m.key, m.raw) != nil {
			return nil, false
		}
		seen[m.key] = true
	}
	return r, true
}

func TestDecodeRequest(t *testing.T) {
	t.Parallel()
	s := func(v string) *string { return &v }
	yes := true
	tests := []struct {
		name, json string
		want       Request
		kind       Shape
	}{
		{"relocation", `{"src":"a/b.ts","src_start":"x","src_end":"y","target_before":"t"}`,
			Request{Src: "a/b.ts", SrcStart: s("x"), SrcEnd: s("y"), TargetBefore: s("t")}, ShapeRelocate},
		{"escapes and pairs", `{"src":"f","src_start":"\n\t\"\\\u00e9\ud83d\ude00","src_end":"€","dst":"g","target_after":"t","dry_run":true}`,
			Request{Src: "f", SrcStart: s("\n\t\"\\é😀"), SrcEnd: s("€"), Dst: s("g"), TargetAfter: s("t"), DryRun: &yes}, ShapeRelocate},
		{"empty target side with the other set", `{"src":"f","src_start":"x","src_end":"y","target_before":"","target_after":"t"}`,
			Request{Src: "f", SrcStart: s("x"), SrcEnd: s("y"), TargetBefore: s(""), TargetAfter: s("t")}, ShapeRelocate},
		{"deletion", `{"src":"f","src_start":"x","src_end":"y","dst":"/dev/null","expected_payload_sha256":"` + hash64 + `"}`,
			Request{Src: "f", SrcStart: s("x"), SrcEnd: s("y"), Dst: s(DevNull), ExpectedPayloadSHA256: s(hash64)}, ShapeDelete},
		{"insertion", ` {"src":"/dev/null","dst":"f","payload":"p","target_after":"t"} `,
			Request{Src: DevNull, Dst: s("f"), Payload: s("p"), TargetAfter: s("t")}, ShapeInsert},
		{"create empty", `{"src":"/dev/null","dst":"f","payload":"","mode":"create_file","dry_run":false}`,
			Request{Src: DevNull, Dst: s("f"), Payload: s(""), Mode: s(ModeCreateFile), DryRun: new(bool)}, ShapeCreate},
		{"remove", `{"src":"f","dst":"/dev/null","mode":"remove_file"}`,
			Request{Src: "f", Dst: s(DevNull), Mode: s(ModeRemoveFile)}, ShapeRemove},
		{"literal dev/null file", `{"src":"dev/null","src_start":"x","src_end":"y","target_before":"t"}`,
			Request{Src: "dev/null", SrcStart: s("x"), SrcEnd: s("y"), TargetBefore: s("t")}, ShapeRelocate},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := DecodeRequest([]byte(tt.json))
			wantCode(t, err, "")
			if diff := cmp.Diff(&tt.want, got); diff != "" {
				t.Errorf("(-want +got):\n%s", diff)
			}
			sh, err := got.classify()
			wantCode(t, err, "")
			if sh.kind != tt.kind {
				t.Errorf("shape %s, want %s", sh.kind, tt.kind)
			}
		})
	}
}

// TestDecodeRequestLenient checks what upstream accepts and the reference
// follows: lone surrogates and bytes that are not UTF-8 become U+FFFD, and
// a repeated key keeps its last value.
func TestDecodeRequestLenient(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		`{"src":"f","src_start":"\ud800","src_end":"b","target_before":"x"}`:                 "\ufffd",
		"{\"src\":\"f\",\"src_start\":\"a\xffb\",\"src_end\":\"b\",\"target_before\":\"x\"}": "a\ufffdb",
		`{"src":"f","src_start":"first","src_end":"b","target_before":"x","src_start":"a"}`:  "a",
	} {
		r, err := DecodeRequest([]byte(in))
		if err != nil {
			t.Errorf("%s: %v", in, err)
			continue
		}
		if *r.SrcStart != want {
			t.Errorf("%s: src_start %q, want %q", in, *r.SrcStart, want)
		}
	}
}
