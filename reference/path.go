package reference

import (
	"path"
	"strconv"
	"strings"
	"unicode/utf8"
)

// checkTreePath validates an operation path as check and apply do before
// they look at the tree (phase "path"): checkPathForm, then
// checkPathSegments against base. Empty segments ("x//f", "f/") are
// allowed.
func checkTreePath(base, p string) error {
	if err := checkPathForm(p); err != nil {
		return err
	}
	return checkPathSegments(base, p)
}

// checkPathForm refuses what is wrong with a path whatever folder it is
// resolved in, in upstream's order: a control character or an empty path
// is invalid_path, an absolute path is path_outside_cwd, a backslash is
// invalid_path (PATH-001, PATH-003). A request's src and dst pass it before
// the members of their shape are checked.
func checkPathForm(p string) error {
	for _, r := range p {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) {
			return pathError(InvalidPath, p, "control character in path")
		}
	}
	switch {
	case p == "":
		return pathError(InvalidPath, p, "empty path")
	case strings.HasPrefix(p, "/"):
		return pathError(PathOutsideCwd, p, "absolute path")
	case strings.ContainsRune(p, '\\'):
		return pathError(InvalidPath, p, "backslash in path")
	}
	return nil
}

// checkPathSegments refuses a "." or ".." segment (PATH-002):
// path_outside_cwd when the path, resolved against base, leads outside it,
// invalid_path when it stays inside. A request's src and dst pass it after
// the members of their shape.
func checkPathSegments(base, p string) error {
	for _, seg := range strings.Split(p, "/") {
		if seg == "." || seg == ".." {
			if leaves(base, p) {
				return pathError(PathOutsideCwd, p, "it leads outside --cwd")
			}
			return pathError(InvalidPath, p, strconv.Quote(seg)+" path segment")
		}
	}
	return nil
}

// leaves reports whether p, resolved against the folder base, names a place
// outside it. Upstream resolves against --cwd's absolute path, so
// "../work/a.txt" run in a folder named work comes back inside; base is
// that path, made absolute and cleaned without following symlinks, as
// Workspace.base gives it. A tree with no place on disk (MapFiles) has base
// "", and p is judged alone: it leaves when its cleaned form climbs above
// its start.
func leaves(base, p string) bool {
	if base == "" {
		c := path.Clean(p)
		return c == ".." || strings.HasPrefix(c, "../")
	}
	r := path.Join(base, p)
	return r != base && !strings.HasPrefix(r, strings.TrimSuffix(base, "/")+"/")
}

func pathError(code Code, p, why string) *Error {
	return &Error{Code: code, Phase: "path", Path: p, Message: "invalid path " + strconv.Quote(p) + ": " + why}
}

// StripPath removes the first n "/"-separated components of a raw patch
// path, as -pN does. Removing all of it is a parse_error; a negative n,
// which the CLI cannot give, is invalid_option.
func StripPath(raw string, n int) (string, error) {
	if n < 0 {
		return "", &Error{Code: InvalidOption, Message: "invalid strip count " + strconv.Itoa(n)}
	}
	segs := strings.Split(raw, "/")
	if n >= len(segs) || strings.Join(segs[n:], "/") == "" {
		return "", &Error{Code: ParseError,
			Message: "-p" + strconv.Itoa(n) + " strips the whole path " + strconv.Quote(raw)}
	}
	return strings.Join(segs[n:], "/"), nil
}

// decodeText replaces invalid UTF-8 in a patch's header line or a request
// with U+FFFD, one per maximal invalid subsequence as the WHATWG decoder
// does, because upstream reads them as text (FMT-036, PLAN-043): a path
// holding invalid UTF-8 names the replaced file, never the raw bytes.
func decodeText(p string) string {
	if utf8.ValidString(p) {
		return p
	}
	var b strings.Builder
	for i := 0; i < len(p); {
		r, n := utf8.DecodeRuneInString(p[i:])
		if r != utf8.RuneError || n > 1 {
			b.WriteString(p[i : i+n])
			i += n
			continue
		}
		b.WriteRune(utf8.RuneError)
		i += invalidPrefix(p[i:])
	}
	return b.String()
}

// invalidPrefix returns the length of the maximal subpart of an invalid
// sequence at the start of s: a lead byte and the continuation bytes that
// could still have completed it.
func invalidPrefix(s string) int {
	need, lo, hi := 0, byte(0x80), byte(0xbf)
	switch c := s[0]; {
	case c >= 0xc2 && c <= 0xdf:
		need = 1
	case c == 0xe0:
		need, lo = 2, 0xa0
	case c == 0xed:
		need, hi = 2, 0x9f
	case c >= 0xe1 && c <= 0xef:
		need = 2
	case c == 0xf0:
		need, lo = 3, 0x90
	case c == 0xf4:
		need, hi = 3, 0x8f
	case c >= 0xf1 && c <= 0xf3:
		need = 3
	}
	n := 1
	for ; n <= need && n < len(s); n++ {
		if s[n] < lo || s[n] > hi {
			break
		}
		lo, hi = 0x80, 0xbf
	}
	return n
}

// sameFile reports whether two operation paths name one file on disk:
// "x//f", "x/f" and "x/f/" do (PATH-016).
func sameFile(a, b string) bool { return path.Clean(a) == path.Clean(b) }

// samePath reports whether two stripped paths name the same file as the
// releases' patch parser reads them ("x//f" and "x/f" do, "x/f/" and "x/f"
// do not): in one section they must (PATH-011), in two they must not, and
// one section is what a move between them renders to.
func samePath(a, b string) bool {
	clean := func(p string) string {
		c := path.Clean(p)
		if strings.HasSuffix(p, "/") && c != "/" {
			c += "/"
		}
		return c
	}
	return clean(a) == clean(b)
}
