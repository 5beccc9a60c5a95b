package cases

import (
	"reflect"
	"unicode/utf8"
)

// UpstreamFile writes c as a case file in upstream's format when it fits
// that format: a case an upstream runner reads with the same meaning. It
// holds only upstream's members (expect, error_code, patch, files,
// expected_files, expected_absent), every content a plain string, and
// dropping the rest loses nothing a runner acts on: the description and
// requirements go (they only label reports), but a case whose profile,
// level, arguments, expected details, retry or reverse differ from what
// upstream's format implies does not fit, nor one with a symlink, a folder,
// a hard link, a mode or bytes that are not UTF-8. The check is by
// construction: the file written is loaded again and must equal c but for
// its labels. It returns false when c does not fit.
func UpstreamFile(c *Case) ([]byte, bool) {
	if c.Protocol != Standard || c.Patch == nil || !utf8.Valid(c.Patch) {
		return nil, false
	}
	doc := Object{{"expect", string(c.Expect)}}
	if c.ErrorCode != "" {
		doc = append(doc, Member{"error_code", c.ErrorCode})
	}
	doc = append(doc, Member{"patch", string(c.Patch)})
	for _, t := range []struct {
		name string
		tree Tree
	}{{"files", c.Files}, {"expected_files", c.ExpectedFiles}} {
		if t.tree == nil {
			continue
		}
		v, ok := plainTree(t.tree)
		if !ok {
			return nil, false
		}
		doc = append(doc, Member{t.name, v})
	}
	if len(c.ExpectedAbsent) > 0 {
		doc = append(doc, Member{"expected_absent", c.ExpectedAbsent})
	}
	data, err := Encode(doc)
	if err != nil {
		return nil, false
	}
	back, err := Options{}.Parse(c.Name, data)
	if err != nil || !back.Upstream || !sameMeaning(c, back) {
		return nil, false
	}
	return data, true
}

// plainTree writes a tree of regular files with unstated modes and UTF-8
// bytes as upstream writes trees: path to string.
func plainTree(t Tree) (Object, bool) {
	o := Object{}
	for _, p := range t.Paths() {
		e := t[p]
		if e.Kind() != "file" || e.Mode != 0 || !utf8.Valid(e.Data) {
			return nil, false
		}
		o = append(o, Member{p, string(e.Data)})
	}
	return o, true
}

// sameMeaning reports whether two loaded cases ask the same of an
// implementation: equal in every field but the labels.
func sameMeaning(a, b *Case) bool {
	strip := func(c *Case) Case {
		k := *c
		k.Name, k.Upstream, k.Description, k.Requirements = "", false, "", nil
		return k
	}
	return reflect.DeepEqual(strip(a), strip(b))
}
