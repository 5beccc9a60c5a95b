package cases

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestEncodeLayout(t *testing.T) {
	t.Parallel()
	long := strings.Repeat("x", 100)
	doc := Object{
		{"description", "a <short> & plain case"},
		{"requirements", []string{"FMT-001", "MATCH-003"}},
		{"strip", 1},
		{"patch", ContentValue([]byte("one\ntwo\n"), true)},
		{"files", TreeValue(Tree{
			"b.bin":  {Data: []byte{0xff}},
			"a.txt":  {Data: []byte("a\n"), Mode: 0o755},
			"d":      {Dir: true},
			"l":      {Symlink: "a.txt"},
			"h":      {Hardlink: "a.txt"},
			"crlf.x": {Data: []byte("x\r\n")},
		})},
		{"request", json.RawMessage(`{"src":"f","n":1.50}`)},
		{"result", map[string]any{"ok": true, "moves": []any{Object{{"id", long}}}}},
		{"steps", []any{}},
	}
	want := `{
  "description": "a <short> & plain case",
  "requirements": ["FMT-001", "MATCH-003"],
  "strip": 1,
  "patch": {"lines": ["one", "two"]},
  "files": {
    "a.txt": {"text": "a\n", "mode": "0755"},
    "b.bin": {"base64": "/w=="},
    "crlf.x": "x\r\n",
    "d": {"dir": true},
    "h": {"hardlink": "a.txt"},
    "l": {"symlink": "a.txt"}
  },
  "request": {"src": "f", "n": 1.50},
  "result": {
    "moves": [
      {"id": "` + long + `"}
    ],
    "ok": true
  },
  "steps": []
}
`
	got, err := Encode(doc)
	if err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(want, string(got)); d != "" {
		t.Errorf("Encode (-want +got):\n%s", d)
	}
	back, err := DecodeObject(got)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Encode(back)
	if err != nil || string(again) != want {
		t.Errorf("decoding and encoding again gives\n%s(%v)", again, err)
	}
}

func TestObjectEdits(t *testing.T) {
	t.Parallel()
	order := []string{"a", "b", "c", "d"}
	o := Object{{"a", 1}, {"d", 4}}
	o.Set("c", 3, order...)
	o.Set("b", 2, order...)
	o.Set("z", 26, order...)
	o.Set("a", 0, order...)
	if ok, err := o.Rename("z", "y"); !ok || err != nil {
		t.Errorf("Rename z to y = %v, %v", ok, err)
	}
	if _, err := o.Rename("y", "a"); err == nil {
		t.Error("Rename onto an existing member succeeded")
	}
	if !o.Delete("d") || o.Delete("d") {
		t.Error("Delete d did not report its presence")
	}
	got, _ := inline(o)
	if want := `{"a": 0, "b": 2, "c": 3, "y": 26}`; got != want {
		t.Errorf("after edits %s, want %s", got, want)
	}
	if got, _ := inline(Order(map[string]any{"z": 1, "b": 2, "a": 3}, "b")); got != `{"b": 2, "a": 3, "z": 1}` {
		t.Errorf("Order gives %s", got)
	}
}
