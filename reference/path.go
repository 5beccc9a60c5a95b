package reference

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/blockpatch-conformance/blockpatch-conformance/internal/fault"
)

// CheckPath validates an operation path: a patch path after stripping or a
// move request's src/dst. It must be relative and non-empty, use "/" as
// separator, and contain no empty, "." or ".." segment, no backslash, no
// control character and no invalid UTF-8. Violations are invalid_path.
// DevNull is not an operation path and must be handled by the caller.
func CheckPath(p string) error {
	bad := func(why string) error {
		return &Error{Code: InvalidPath, Message: "invalid path " + strconv.Quote(p) + ": " + why, Path: p}
	}
	switch {
	case p == "":
		return bad("empty path")
	case strings.HasPrefix(p, "/") && !fault.On(fault.AcceptAbsolutePath):
		return bad("absolute path")
	case !utf8.ValidString(p):
		return bad("invalid UTF-8")
	case strings.ContainsRune(p, '\\') && !fault.On(fault.AcceptBackslash):
		return bad("backslash in path")
	}
	for _, r := range p {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return bad("control character in path")
		}
	}
	if fault.On(fault.AcceptAbsolutePath) {
		p = strings.TrimPrefix(p, "/")
	}
	for _, seg := range strings.Split(p, "/") {
		switch {
		case seg == "":
			return bad("empty path segment")
		case (seg == "." || seg == "..") && !fault.On(fault.AcceptDotDot):
			return bad(strconv.Quote(seg) + " path segment")
		}
	}
	return nil
}

// StripPath validates a raw patch path and removes its first n components,
// as -pN does. Stripping every component is invalid_path.
func StripPath(raw string, n int) (string, error) {
	if err := CheckPath(raw); err != nil {
		return "", err
	}
	p := raw
	for i := 0; i < n; i++ {
		j := strings.IndexByte(p, '/')
		if j < 0 {
			return "", &Error{Code: InvalidPath, Path: raw,
				Message: "invalid path " + strconv.Quote(raw) + ": -p" + strconv.Itoa(n) + " strips the whole path"}
		}
		p = p[j+1:]
	}
	return p, nil
}
