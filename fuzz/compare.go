package fuzz

import (
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/fuzz/internal/fstree"
)

// compare lists the differences of got from want, step by step. Members
// the reference does not print are not compared (the subset rule of case
// files), nor are message, the text of a planned patch, or a step's output
// after a step whose outcome already differs. Warnings are compared when
// warnings is set, and then a step without them must have none (OUT-024);
// otherwise not at all (a 1.1.0 release has no warnings).
func compare(want, got []Step, warnings bool) []Difference {
	var out []Difference
	for i := range want {
		w, g := &want[i], &got[i]
		add := func(kind, format string, args ...any) {
			out = append(out, Difference{Step: w.Name, Kind: kind, Detail: fmt.Sprintf(format, args...)})
		}
		switch {
		case w.Skipped || g.Skipped:
			if w.Skipped != g.Skipped {
				add("not run", "reference %s, implementation %s", w.Summary(), g.Summary())
			}
			continue
		case g.TimedOut && !w.TimedOut:
			add("timeout", "no answer within the command timeout (--timeout); the reference answered %s", w.Summary())
			return out
		case g.Exit != 0 && g.Exit != 1:
			add("crash", "exit %d: %.200q", g.Exit, g.Stderr)
			return out
		case w.Exit != g.Exit:
			add(w.Summary()+" -> "+g.Summary(), "stderr %.200q", g.Stderr)
			return out
		case g.Shape != "" && w.Shape == "":
			add("output: "+g.Shape, "stdout %.200q, stderr %.200q", g.Stdout, g.Stderr)
			return out
		case w.Exit == 1 && w.Code() != g.Code():
			add("code "+w.Code()+" -> "+orNone(g.Code()), "message %.200q", message(g))
			return out
		}
		if path, wv, gv, ok := subset(strip(w.Doc, warnings), g.Doc, ""); !ok {
			kind := "result." + path
			if w.Exit == 1 {
				kind = path
			}
			add(kind, "reference %s, implementation %s", wv, gv)
		}
		if d := fstree.Diff(w.After, g.After); d != "" {
			add("tree", "%s", d)
		} else if o := renameOrder(w.Renamed, g.Renamed); o != "" {
			add("write order", "%s", o)
		}
		if len(out) > 0 {
			return out
		}
	}
	return out
}

// renameOrder says how got renamed files into place in another order
// than want (WRITE-005: the destination before the source), or "". Only
// the order of the files both replaced by rename is compared: whether a
// file is replaced by rename at all is the tree's and the case's business.
func renameOrder(want, got []string) string {
	var w, g []string
	for _, p := range want {
		if slices.Contains(got, p) {
			w = append(w, p)
		}
	}
	for _, p := range got {
		if slices.Contains(want, p) {
			g = append(g, p)
		}
	}
	if slices.Equal(w, g) {
		return ""
	}
	return fmt.Sprintf("reference renamed %q into place in this order, implementation %q", w, g)
}

func orNone(s string) string {
	if s == "" {
		return "(no code)"
	}
	return s
}

func message(s *Step) string {
	if e, ok := s.Doc["error"].(map[string]any); ok {
		m, _ := e["message"].(string)
		return m
	}
	return string(s.Stderr)
}

// strip removes what is not compared from a reference document. With
// warnings, a document without them holds them as null, which only their
// absence or null matches.
func strip(doc map[string]any, warnings bool) map[string]any {
	out := map[string]any{}
	if warnings {
		out["warnings"] = nil
	}
	for k, v := range doc {
		switch k {
		case "patch":
		case "warnings":
			if warnings {
				out[k] = v
			}
		case "error":
			e := map[string]any{}
			for k2, v2 := range v.(map[string]any) {
				if k2 != "message" {
					e[k2] = v2
				}
			}
			out[k] = e
		default:
			out[k] = v
		}
	}
	return out
}

// subset reports whether got holds want under the case files' subset rule
// (cases.MatchSubset): every member of an object in want matches, lists
// match item by item, null matches null or absence. It returns the path of
// the first mismatch and both values.
func subset(want, got any, path string) (string, string, string, bool) {
	show := func(v any) string { return fmt.Sprintf("%v", v) }
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return orRoot(path), show(want), show(got), false
		}
		keys := make([]string, 0, len(w))
		for k := range w {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			gv, present := g[k]
			if w[k] == nil {
				if present && gv != nil {
					return join(path, k), "null", show(gv), false
				}
				continue
			}
			if !present {
				return join(path, k), show(w[k]), "absent", false
			}
			if p, a, b, ok := subset(w[k], gv, join(path, k)); !ok {
				return p, a, b, false
			}
		}
		return "", "", "", true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return orRoot(path), show(want), show(got), false
		}
		for i := range w {
			if p, a, b, ok := subset(w[i], g[i], path); !ok {
				return p, a, b, false
			}
		}
		return "", "", "", true
	}
	if !reflect.DeepEqual(want, got) {
		return orRoot(path), show(want), show(got), false
	}
	return "", "", "", true
}

func join(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func orRoot(p string) string {
	if p == "" {
		return "document"
	}
	return strings.TrimPrefix(p, ".")
}
