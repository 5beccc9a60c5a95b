package reference

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"strings"
	"testing"
)

func sha(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

// section writes one file section header; meta is the metadata tail after
// the id, such as "role=source".
func section(old, new, sum, meta string) string {
	if meta != "" {
		meta += " "
	}
	return "diff --blockpatch " + old + " " + new + "\nblockpatch version 1\n" +
		"blockpatch move id=move-1 " + meta + "payload-sha256=" + sum + "\n" +
		"--- " + old + "\n+++ " + new + "\n\n"
}

// relocation is the same-file relocation of the upstream example, used as
// the base of many table rows.
var relocation = section("a/file.txt", "b/file.txt", sha("move me\n"), "") +
	"@@ -1,3 +1,2 @@ blockpatch-source id=move-1\n alpha\n-move me\n omega\n\n" +
	"@@ -4,1 +4,2 @@ blockpatch-target id=move-1\n target\n+move me\n"

// wantCode fails the test unless err carries code ("" means no error).
func wantCode(t *testing.T, err error, code Code) {
	t.Helper()
	switch {
	case code == "" && err != nil:
		t.Fatalf("unexpected error: %v (%s)", err, CodeOf(err))
	case code != "" && err == nil:
		t.Fatalf("got success, want %s", code)
	case code != "" && !errors.Is(err, &Error{Code: code}):
		t.Fatalf("got %s (%v), want %s", CodeOf(err), err, code)
	}
}

func lines(s ...string) string { return strings.Join(s, "\n") + "\n" }

func (m MapFiles) copy() MapFiles {
	out := make(MapFiles, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func (m MapFiles) equal(o MapFiles) bool {
	if len(m) != len(o) {
		return false
	}
	for k, v := range m {
		w, ok := o[k]
		if !ok || !bytes.Equal(v, w) {
			return false
		}
	}
	return true
}
