package jsonedit

import (
	"strings"
	"testing"
)

const doc = `{
  "expect": "pass",
  "result": {
    "ok": true,
    "moves": [
      {"id": "m", "target_range": {"start": 6, "end": 10}, "insert_index": 6}
    ]
  },
  "reverse": {"expect": "fail", "error_code": "parse_error", "error": {"phase": "reverse"}}
}
`

func TestEdits(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name string
		edit func([]byte) ([]byte, error)
		want string
	}{
		{"replace a leaf inside a list item", func(d []byte) ([]byte, error) {
			return Replace(d, Path{"result", "moves", "0", "target_range", "end"}, []byte("11"))
		}, `      {"id": "m", "target_range": {"start": 6, "end": 11}, "insert_index": 6}`},
		{"replace an object", func(d []byte) ([]byte, error) {
			return Replace(d, Path{"result", "moves", "0", "target_range"}, Marshal(map[string]any{"end": 3.0, "start": 1.0}))
		}, `      {"id": "m", "target_range": {"start": 1, "end": 3}, "insert_index": 6}`},
		{"delete the only member", func(d []byte) ([]byte, error) {
			return Delete(d, Path{"reverse", "error", "phase"})
		}, `  "reverse": {"expect": "fail", "error_code": "parse_error", "error": {}}`},
		{"delete the last member", func(d []byte) ([]byte, error) {
			return Delete(d, Path{"result", "moves", "0", "insert_index"})
		}, `      {"id": "m", "target_range": {"start": 6, "end": 10}}`},
		{"delete a middle member", func(d []byte) ([]byte, error) {
			return Delete(d, Path{"result", "moves", "0", "target_range"})
		}, `      {"id": "m", "insert_index": 6}`},
		{"insert into a one-line object", func(d []byte) ([]byte, error) {
			return Insert(d, Path{"reverse", "error"}, "field", []byte(`"x"`))
		}, `  "reverse": {"expect": "fail", "error_code": "parse_error", "error": {"phase": "reverse", "field": "x"}}`},
		{"insert into a multi-line object", func(d []byte) ([]byte, error) {
			return Insert(d, Path{"result"}, "status", []byte(`"applied"`))
		}, `    ],
    "status": "applied"
  },`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Parallel()
			got, err := tt.edit([]byte(doc))
			if err != nil {
				t.Fatal(err)
			}
			if !strings.Contains(string(got), tt.want) {
				t.Errorf("got\n%s\nwant it to hold\n%s", got, tt.want)
			}
		})
	}
}

func TestErrors(t *testing.T) {
	t.Parallel()
	if _, err := Replace([]byte(doc), Path{"result", "nope"}, []byte("1")); err == nil {
		t.Error("Replace of a missing member: no error")
	}
	if _, err := Delete([]byte(doc), Path{"result", "moves", "0"}); err == nil {
		t.Error("Delete of a list item: no error")
	}
	if _, err := Insert([]byte(doc), Path{"result"}, "ok", []byte("true")); err == nil {
		t.Error("Insert of a present key: no error")
	}
	if _, err := Replace([]byte(`{"a": [1, `), Path{"a"}, []byte("1")); err == nil {
		t.Error("Replace in malformed JSON: no error")
	}
}

func TestMarshalOrder(t *testing.T) {
	t.Parallel()
	got := string(Marshal(map[string]any{"end": 2.0, "start": 1.0, "zeta": "<&>", "code": "x"}))
	want := `{"code": "x", "start": 1, "end": 2, "zeta": "<&>"}`
	if got != want {
		t.Errorf("Marshal = %s, want %s", got, want)
	}
}
