package cases

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"io/fs"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
)

// This file decodes content (bytes written as a string or an object) and
// trees of entries.

// rawEntry is a file entry or content written as an object.
type rawEntry struct {
	Text     *string            `json:"text"`
	Base64   *string            `json:"base64"`
	Lines    *[]string          `json:"lines"`
	Parts    *[]json.RawMessage `json:"parts"`
	Repeat   *int               `json:"repeat"`
	Mode     *string            `json:"mode"`
	Symlink  *string            `json:"symlink"`
	Dir      *bool              `json:"dir"`
	Hardlink *string            `json:"hardlink"`
}

// kinds lists the kinds set in e, in a fixed order.
func (e *rawEntry) kinds() []string {
	var out []string
	for _, k := range []struct {
		name string
		set  bool
	}{{"text", e.Text != nil}, {"base64", e.Base64 != nil}, {"lines", e.Lines != nil}, {"parts", e.Parts != nil}, {"symlink", e.Symlink != nil}, {"dir", e.Dir != nil}, {"hardlink", e.Hardlink != nil}} {
		if k.set {
			out = append(out, k.name)
		}
	}
	return out
}

// content decodes bytes written as a string or as {"text"}, {"base64"} or
// {"lines"}. It clears *plain when the object form is used.
func (c *checker) content(field string, raw json.RawMessage, plain *bool) []byte {
	e, ok := c.rawEntry(field, raw, plain)
	if !ok {
		return []byte{}
	}
	if e.Mode != nil || e.Symlink != nil || e.Dir != nil || e.Hardlink != nil {
		c.errorf(field, "content is text, base64, lines or parts; mode, symlink, dir and hardlink belong to tree entries")
		return []byte{}
	}
	return c.entryData(field, e, plain)
}

// entry decodes one tree entry.
func (c *checker) entry(field string, raw json.RawMessage, plain *bool) (Entry, bool) {
	e, ok := c.rawEntry(field, raw, plain)
	if !ok {
		return Entry{}, false
	}
	var out Entry
	if e.Repeat != nil && (e.Symlink != nil || e.Dir != nil || e.Hardlink != nil) {
		c.errorf(fieldName(field, "repeat"), "only content repeats; a symlink, folder or hard link does not")
	}
	switch {
	case e.Symlink != nil:
		if *e.Symlink == "" {
			c.errorf(fieldName(field, "symlink"), "empty target")
			return Entry{}, false
		}
		if e.Mode != nil {
			c.errorf(fieldName(field, "mode"), "a symlink has no mode of its own")
		}
		out.Symlink = *e.Symlink
	case e.Hardlink != nil:
		if err := checkPath(*e.Hardlink); err != nil {
			c.add(fieldName(field, "hardlink"), err)
			return Entry{}, false
		}
		if e.Mode != nil {
			c.errorf(fieldName(field, "mode"), "a hard link shares the mode of its file")
		}
		out.Hardlink = *e.Hardlink
	case e.Dir != nil:
		if !*e.Dir {
			c.errorf(fieldName(field, "dir"), "false; a folder entry is {\"dir\": true}")
			return Entry{}, false
		}
		out.Dir = true
	default:
		out.Data = c.entryData(field, e, plain)
	}
	if e.Mode != nil && e.Symlink == nil && e.Hardlink == nil {
		m, err := parseMode(*e.Mode)
		if err != nil {
			c.add(fieldName(field, "mode"), err)
		}
		out.Mode = m
	}
	return out, true
}

var modeText = regexp.MustCompile(`^0?[0-7]{3}$`)

func parseMode(s string) (fs.FileMode, error) {
	if !modeText.MatchString(s) {
		return 0, fmt.Errorf("%q is not an octal permission like \"0755\"", s)
	}
	n, _ := strconv.ParseUint(s, 8, 32)
	if n == 0 {
		return 0, fmt.Errorf("0000 cannot be told from an unstated mode; use a mode with some bit set")
	}
	return fs.FileMode(n), nil
}

// rawEntry decodes a string or an object with exactly one kind.
func (c *checker) rawEntry(field string, raw json.RawMessage, plain *bool) (*rawEntry, bool) {
	switch firstByte(raw) {
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			c.add(field, err)
			return nil, false
		}
		return &rawEntry{Text: &s}, true
	case '{':
		*plain = false
		var e rawEntry
		if err := strictUnmarshal(raw, &e); err != nil {
			c.add(decodeError(field, err))
			return nil, false
		}
		switch k := e.kinds(); len(k) {
		case 0:
			c.errorf(field, "no content: give one of text, base64, lines, parts, symlink, dir")
			return nil, false
		case 1:
			return &e, true
		default:
			c.errorf(field, "two kinds, %s and %s; an entry is exactly one of text, base64, lines, parts, symlink, dir", k[0], k[1])
			return nil, false
		}
	}
	c.errorf(field, "want a string or an object such as {\"base64\": ...}")
	return nil, false
}

// DefaultMaxContent is the most bytes the contents of one case file may
// stand for together, once joined and repeated, unless Options.MaxContent
// says otherwise: room for the large files that show how an implementation
// searches (MATCH-*), and a bound on what a hostile case folder can make
// the loader allocate. Contents are counted as they are built, so a part
// also counts in the content that joins it.
const DefaultMaxContent = 256 << 20

func (c *checker) entryData(field string, e *rawEntry, plain *bool) []byte {
	var b []byte
	switch {
	case e.Text != nil:
		b = []byte(*e.Text)
	case e.Base64 != nil:
		var err error
		if b, err = base64.StdEncoding.Strict().DecodeString(*e.Base64); err != nil {
			c.errorf(fieldName(field, "base64"), "invalid base64: %v", err)
			return []byte{}
		}
	case e.Lines != nil:
		for i, l := range *e.Lines {
			if strings.Contains(l, "\n") {
				c.errorf(fieldIndex(fieldName(field, "lines"), i), "holds a newline; one item is one line, and the loader adds the \\n")
			}
			b = append(b, l...)
			b = append(b, '\n')
		}
	case e.Parts != nil:
		for i, raw := range *e.Parts {
			f := fieldIndex(fieldName(field, "parts"), i)
			b = append(b, c.content(f, raw, plain)...)
		}
	}
	if e.Repeat != nil {
		n := *e.Repeat
		switch {
		case n < 1:
			c.errorf(fieldName(field, "repeat"), "%d; a content repeats at least once", n)
			return []byte{}
		case len(b) > 0 && n > (c.maxContent()-c.contentBytes)/len(b):
			c.errorf(fieldName(field, "repeat"), "%d times %d bytes would take the case's contents past the %d bytes a case file may stand for", n, len(b), c.maxContent())
			return []byte{}
		}
		b = bytes.Repeat(b, n)
	}
	if c.contentBytes += len(b); c.contentBytes > c.maxContent() {
		c.errorf(field, "takes the case's contents past the %d bytes a case file may stand for", c.maxContent())
		return []byte{}
	}
	if b == nil {
		b = []byte{}
	}
	return b
}

// tree decodes a map of paths to entries and checks that it can exist.
func (c *checker) tree(field string, raw json.RawMessage, plain *bool) Tree {
	var m map[string]json.RawMessage
	if firstByte(raw) != '{' || json.Unmarshal(raw, &m) != nil {
		c.errorf(field, "want an object mapping paths to entries")
		return Tree{}
	}
	t := Tree{}
	for _, p := range slices.Sorted(maps.Keys(m)) {
		f := fieldKey(field, p)
		if err := checkPath(p); err != nil {
			c.add(f, err)
			continue
		}
		if e, ok := c.entry(f, m[p], plain); ok {
			t[p] = e
		}
	}
	for _, p := range t.Paths() {
		if target := t[p].Hardlink; target != "" {
			switch {
			case field != "files":
				c.errorf(fieldKey(field, p), "hard links belong to the starting tree (files) only")
			case t[target].Kind() != "file" || !hasPath(t, target):
				c.errorf(fieldKey(field, p), "hard link target %q is not a file of this tree", target)
			}
		}
		for _, d := range parents(p) {
			if e, ok := t[d]; ok && !e.Dir {
				c.errorf(fieldKey(field, p), "lies inside %q, which is a %s", d, e.Kind())
				break
			}
		}
	}
	return t
}

func hasPath(t Tree, p string) bool {
	_, ok := t[p]
	return ok
}

// maxContent is the bound on the bytes of one case file's contents.
func (c *checker) maxContent() int {
	if c.opts.MaxContent > 0 {
		return c.opts.MaxContent
	}
	return DefaultMaxContent
}
