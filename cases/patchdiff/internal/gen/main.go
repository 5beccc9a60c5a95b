// Command gen writes the PatchDIFF corpus (cases/patchdiff/testdata/corpus)
// from the cases written by hand in this package. Every expectation here —
// status, stage, label, offsets, result text, warnings — is written by hand
// from seed 003 and spec/patchdiff; gen only lays the files out, counts code
// points for the *_chars members, and builds inputs (long texts, guard
// hashes). It never runs a runtime.
//
//	go run ./cases/patchdiff/internal/gen   (from the module root)
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"unicode/utf8"
)

func main() {
	out := flag.String("out", "cases/patchdiff/testdata/corpus", "the corpus folder, rewritten whole")
	flag.Parse()
	all := allCases()
	seen := map[string]bool{}
	files := map[string][]byte{}
	for _, c := range all {
		if seen[c.name] {
			log.Fatalf("case %s twice", c.name)
		}
		seen[c.name] = true
		files[c.name] = c.encode()
	}
	for name, data := range replayCases() {
		if seen[name] {
			log.Fatalf("case %s twice", name)
		}
		files[name] = data
	}
	if err := os.RemoveAll(*out); err != nil {
		log.Fatal(err)
	}
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		p := filepath.Join(*out, filepath.FromSlash(n)+".json")
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			log.Fatal(err)
		}
		if err := os.WriteFile(p, files[n], 0o644); err != nil {
			log.Fatal(err)
		}
	}
	fmt.Printf("%d cases\n", len(names))
}

// allCases gathers the cases of every area file.
func allCases() []*C {
	var all []*C
	for _, f := range areas {
		all = append(all, f()...)
	}
	byName := map[string]*C{}
	for _, c := range all {
		byName[c.name] = c
	}
	for name, ids := range extraTags {
		c, ok := byName[name]
		if !ok {
			log.Fatalf("extraTags: no case %s", name)
		}
		c.topics = append(c.topics, ids...)
	}
	return all
}

// areas lists the functions of the area files; each registers itself.
var areas []func() []*C

// ---- JSON values ----

// obj is a JSON object whose members keep their order.
type obj []kv

type kv struct {
	k string
	v any
}

// o builds an obj from alternating keys and values.
func o(pairs ...any) obj {
	if len(pairs)%2 != 0 {
		panic("o: odd number of arguments")
	}
	var out obj
	for i := 0; i < len(pairs); i += 2 {
		out = append(out, kv{pairs[i].(string), pairs[i+1]})
	}
	return out
}

// with returns a copy of x with the members set (replaced in place or
// appended); a value of del removes the member.
func (x obj) with(pairs ...any) obj {
	out := append(obj(nil), x...)
	for i := 0; i < len(pairs); i += 2 {
		k, v := pairs[i].(string), pairs[i+1]
		found := false
		for j := range out {
			if out[j].k == k {
				found = true
				if v == del {
					out = append(out[:j], out[j+1:]...)
				} else {
					out[j].v = v
				}
				break
			}
		}
		if !found && v != del {
			out = append(out, kv{k, v})
		}
	}
	return out
}

type delete struct{}

var del = delete{}

// raw is JSON text written as is: a string literal with an unpaired
// surrogate escape, a huge number, a float spelled 1.0.
type raw string

// rep is a repeated piece of a text.
type rep struct {
	s string
	n int
}

// pieces is a text given as a list of pieces (strings, rep, raw strings).
type pieces []any

// txText is a transaction given as text rather than as an object.
type txText struct{ t any }

func enc(v any) string {
	switch x := v.(type) {
	case nil:
		return "null"
	case raw:
		return string(x)
	case string:
		var b bytes.Buffer
		e := json.NewEncoder(&b)
		e.SetEscapeHTML(false)
		if err := e.Encode(x); err != nil {
			panic(err)
		}
		return strings.TrimSuffix(b.String(), "\n")
	case bool, int, int64:
		return fmt.Sprint(x)
	case obj:
		parts := make([]string, len(x))
		for i, m := range x {
			if _, ok := m.v.(pieces); ok && m.k != "target" && m.k != "transaction" && m.k != "batch" && m.k != "result_text" && m.k != "matched_text" && m.k != "replacement_text" {
				panic("pieces inside " + m.k + ": only texts take pieces")
			}
			parts[i] = enc(m.k) + ": " + enc(m.v)
		}
		return "{" + strings.Join(parts, ", ") + "}"
	case []any:
		parts := make([]string, len(x))
		for i, m := range x {
			parts[i] = enc(m)
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case rep:
		return `{"repeat": ` + enc(x.s) + `, "count": ` + fmt.Sprint(x.n) + "}"
	case pieces:
		return enc([]any(x))
	case txText:
		return enc(x.t)
	}
	panic(fmt.Sprintf("enc: %T", v))
}

// plain returns the text of v (string or pieces of strings and reps) as a
// Go string, for counting code points and hashing guard inputs.
func plain(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case rep:
		return strings.Repeat(x.s, x.n)
	case pieces:
		var b strings.Builder
		for _, p := range x {
			b.WriteString(plain(p))
		}
		return b.String()
	}
	panic(fmt.Sprintf("plain: %T", v))
}

func runes(v any) int { return utf8.RuneCountInString(plain(v)) }
