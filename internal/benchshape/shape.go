// Package benchshape generates the trees the performance benchmarks run on
// (issue 23): one file shape each, at any size, with one move whose anchors
// are the kind that shape makes hard to find. The reference's search
// benchmarks and the CLI benchmarks in cmd/blockpatch share them, so the
// in-process figures and the whole-process ones are about the same bytes.
//
// The package knows nothing of blockpatch: a Tree is files and a move
// request; the benchmarks render the patch with the reference's planner.
// Every generator is deterministic.
package benchshape

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"strings"
)

// Tree is the work tree of one benchmark: its files by operation path and
// the move, as move JSON members.
type Tree struct {
	Files map[string][]byte
	// Src, Dst (empty for a same-file move), SrcStart, SrcEnd and
	// TargetBefore are the request's members.
	Src, Dst, SrcStart, SrcEnd, TargetBefore string
}

// Request returns the move as move JSON.
func (t Tree) Request() []byte {
	req := map[string]string{"src": t.Src, "src_start": t.SrcStart, "src_end": t.SrcEnd, "target_before": t.TargetBefore}
	if t.Dst != "" {
		req["dst"] = t.Dst
	}
	out, err := json.Marshal(req)
	if err != nil {
		panic(err) // strings always marshal
	}
	return out
}

// Touched lists the files the move reads and writes, source first.
func (t Tree) Touched() []string {
	if t.Dst == "" || t.Dst == t.Src {
		return []string{t.Src}
	}
	return []string{t.Src, t.Dst}
}

// Shape is a named generator of trees of about size bytes in all.
type Shape struct {
	Name string
	// Why says what the shape makes hard.
	Why   string
	Build func(size int) Tree
}

// Shapes are the shapes issue 23 lists, the benchmark's original one first.
var Shapes = []Shape{
	{"filler", "the original shape: filler lines, anchors made of bytes rare in the file", filler},
	{"log", "log lines sharing a 60-byte prefix; the anchors are whole log lines, every byte common", logLines},
	{"source", "indented code; the context lines are common ones such as \\t\\treturn nil", source},
	{"words", "prose over a small vocabulary; anchors over 64 bytes made only of common bytes", words},
	{"periodic", "lines of a's, anchors of a's: the classic quadratic trap", periodic},
	{"crlf", "the filler shape with CRLF line ends", crlf},
	{"oneline", "one line without a newline; the block and the anchor lie mid-line", oneLine},
	{"block", "log lines, a quarter of them the block: a patch of as many lines, parsed and searched whole", logBlock},
	{"tree", "1,000 small files in 10 folders; the move goes from one file to another", tree},
}

// lines writes lines made by line(i) into a file of about size bytes,
// calling at(i, buf) before line i so that a shape can place its block and
// anchor.
func lines(size int, line func(i int) string, at func(i int, buf *bytes.Buffer)) []byte {
	var buf bytes.Buffer
	buf.Grow(size + 4096)
	for i := 0; buf.Len() < size; i++ {
		at(i, &buf)
		buf.WriteString(line(i))
	}
	return buf.Bytes()
}

// fillerFile is the original benchmark's file, with eol as line end: the
// block at a third of the lines, a unique anchor line at two thirds.
func fillerFile(size int, eol, tag string) []byte {
	const width = len("line 00000000 of filler text that is not unique in shape\n")
	n := size / width
	return lines(size, func(i int) string {
		return fmt.Sprintf("line %08d of filler text that is not unique in shape%s", i, eol)
	}, func(i int, buf *bytes.Buffer) {
		switch i {
		case n / 3:
			buf.WriteString("BEFORE BLOCK" + tag + eol + "func moved() {" + eol + "\treturn 42" + eol + "}" + eol + "AFTER BLOCK" + eol)
		case 2 * n / 3:
			buf.WriteString("TARGET ANCHOR" + tag + eol)
		}
	})
}

func filler(size int) Tree {
	return Tree{Files: map[string][]byte{"big.txt": fillerFile(size, "\n", "")}, Src: "big.txt",
		SrcStart: "func moved() {\n", SrcEnd: "}\n", TargetBefore: "TARGET ANCHOR\n"}
}

func crlf(size int) Tree {
	return Tree{Files: map[string][]byte{"big.txt": fillerFile(size, "\r\n", "")}, Src: "big.txt",
		SrcStart: "func moved() {\r\n", SrcEnd: "}\r\n", TargetBefore: "TARGET ANCHOR\r\n"}
}

// logLine is line i of the log shape: 60 bytes shared by every line, then
// a time, a path and an id that differ.
func logLine(i int) string {
	return fmt.Sprintf("2026-12-03 INFO api/server.go:214 request served method=GET %02d:%02d:%02d.%03d path=/v1/items/%d status=200 id=%08d\n",
		i/3600000%24, i/60000%60, i/1000%60, i%1000, i*7919%100000, i)
}

func logLines(size int) Tree {
	n := size / len(logLine(1000000))
	data := lines(size, logLine, func(int, *bytes.Buffer) {})
	return Tree{Files: map[string][]byte{"app.log": data}, Src: "app.log",
		SrcStart: logLine(n / 3), SrcEnd: logLine(n/3 + 2), TargetBefore: logLine(2 * n / 3)}
}

// logBlock is the log shape with the lines from a quarter to half of the
// file as the block, moved to three quarters: a block as large as users
// move when they reorganise a file, whose patch's payload is a quarter of
// the file's lines.
func logBlock(size int) Tree {
	n := size / len(logLine(1000000))
	data := lines(size, logLine, func(int, *bytes.Buffer) {})
	return Tree{Files: map[string][]byte{"app.log": data}, Src: "app.log",
		SrcStart: logLine(n / 4), SrcEnd: logLine(n / 2), TargetBefore: logLine(3 * n / 4)}
}

// sourceFunc is function i of the source shape.
func sourceFunc(i int) string {
	return fmt.Sprintf(`func handler%d(w http.ResponseWriter, r *http.Request) error {
	if err := r.ParseForm(); err != nil {
		return err
	}
	for _, v := range r.Form {
		if len(v) == 0 {
			continue
		}
		if v[0] == "" {
			return nil
		}
	}
	return nil
}

`, i)
}

func source(size int) Tree {
	n := size / len(sourceFunc(100000))
	data := lines(size, sourceFunc, func(i int, buf *bytes.Buffer) {
		if i == n/3 {
			// The block sits between two common lines, so the context
			// the patch shows is common too.
			buf.WriteString("func init() {\n\tif debug {\n\t\treturn nil\n\t\tlog.Printf(\"moved\")\n\t\tlog.Flush()\n\t\treturn nil\n\t}\n}\n\n")
		}
	})
	return Tree{Files: map[string][]byte{"server.go": data}, Src: "server.go",
		SrcStart: "\t\tlog.Printf(\"moved\")\n", SrcEnd: "\t\tlog.Flush()\n",
		TargetBefore: fmt.Sprintf("\t\treturn nil\n\t\t}\n\t}\n\treturn nil\n}\n\nfunc handler%d(", 2*n/3)}
}

// vocabulary is the words of the words shape: common English words, so the
// anchors hold no byte that is rare in the file.
var vocabulary = strings.Fields(`the of and to in is it that was for on are with as be at by this have from
or one had not but what all were when we there can an your which their said if do will each about how up out
them then she many some so these would other into has more her two like him see time could no make than
first been its who now people my made over did down only way find use may water long little very after words
called just where most know`)

func words(size int) Tree {
	rng := rand.New(rand.NewPCG(23, 1))
	line := func() string {
		var b strings.Builder
		for b.Len() < 72 {
			b.WriteString(vocabulary[rng.IntN(len(vocabulary))])
			b.WriteByte(' ')
		}
		b.WriteString("\n")
		return b.String()
	}
	n := size / 80
	var start, end, target string
	data := lines(size, func(i int) string {
		l := line()
		switch i {
		case n / 3:
			start = l
		case n/3 + 3:
			end = l
		case 2 * n / 3:
			target = l
		}
		return l
	}, func(int, *bytes.Buffer) {})
	return Tree{Files: map[string][]byte{"prose.txt": data}, Src: "prose.txt", SrcStart: start, SrcEnd: end, TargetBefore: target}
}

func periodic(size int) Tree {
	a := func(n int) string { return strings.Repeat("a", n) + "\n" }
	n := size / 80
	data := lines(size, func(int) string { return a(79) }, func(i int, buf *bytes.Buffer) {
		switch i {
		case n / 3: // lines longer than the others, so unique
			buf.WriteString(a(96) + a(110) + a(90) + a(105) + a(97))
		case 2 * n / 3:
			buf.WriteString(a(98))
		}
	})
	// a(110) occurs once; a(98) in three lines, so the anchor takes the
	// newline before it.
	return Tree{Files: map[string][]byte{"a.txt": data}, Src: "a.txt", SrcStart: a(110), SrcEnd: a(105), TargetBefore: "\n" + a(98)}
}

func oneLine(size int) Tree {
	n := size / len("item00000000 ")
	data := lines(size, func(i int) string { return fmt.Sprintf("item%08d ", i) }, func(i int, buf *bytes.Buffer) {
		if i == n/3 {
			buf.WriteString("BEGIN-MOVED some words that move END-MOVED ")
		}
	})
	return Tree{Files: map[string][]byte{"line.txt": data}, Src: "line.txt",
		SrcStart: "BEGIN-MOVED ", SrcEnd: "END-MOVED ", TargetBefore: fmt.Sprintf("item%08d ", 2*n/3)}
}

func tree(size int) Tree {
	files := map[string][]byte{}
	for i := range 1000 {
		tag := fmt.Sprintf(" %04d", i)
		files[fmt.Sprintf("d%d/f%04d.txt", i/100, i)] = fillerFile(size/1000, "\n", tag)
	}
	return Tree{Files: files, Src: "d1/f0123.txt", Dst: "d8/f0876.txt",
		SrcStart: "func moved() {\n", SrcEnd: "}\n", TargetBefore: "TARGET ANCHOR 0876\n"}
}
