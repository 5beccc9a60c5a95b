package cases

import (
	"strings"
	"testing"
)

// TestUpstreamFile: a case fits upstream's format when dropping its
// labels loses nothing a runner acts on, and only then.
func TestUpstreamFile(t *testing.T) {
	t.Parallel()
	base := `"description": "d", "requirements": ["FMT-001"], "expect": "fail", "error_code": "parse_error", "patch": {"lines": ["x"]}, "files": {"a.txt": "a\n"}`
	for _, tc := range []struct {
		name, fields string
		fits         bool
	}{
		{"labels only", base, true},
		{"profile 1.0 stated", base + `, "since": "1.0"`, true},
		{"a newer profile", base + `, "since": "1.1"`, false},
		{"a mode", strings.Replace(base, `"a\n"`, `{"text": "a\n", "mode": "0755"}`, 1), false},
		{"bytes that are not UTF-8", strings.Replace(base, `"a\n"`, `{"base64": "/w=="}`, 1), false},
		{"a symlink", strings.Replace(base, `"a\n"`, `{"symlink": "b"}`, 1), false},
		{"expected details", base + `, "error": {"phase": "payload"}`, false},
		{"arguments", base + `, "args": ["-R"]`, false},
	} {
		c, err := Options{}.Parse("x/"+strings.ReplaceAll(tc.name, " ", "-"), []byte("{"+tc.fields+"}"))
		if err != nil {
			t.Fatalf("%s: %v", tc.name, err)
		}
		data, fits := UpstreamFile(c)
		if fits != tc.fits {
			t.Errorf("%s: fits %v, want %v", tc.name, fits, tc.fits)
			continue
		}
		if !fits {
			continue
		}
		back, err := Options{}.Parse(c.Name, data)
		if err != nil || !back.Upstream || strings.Contains(string(data), "description") {
			t.Errorf("%s: the file written is not upstream-shaped (%v):\n%s", tc.name, err, data)
		}
	}
}
