package pdcases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Text is a text a case sends or expects: a target, a transaction given as
// text, an expected result_text or the matched and replacement text of a
// fact. In a case file it is a JSON string or a list of pieces, each a JSON
// string or {"repeat": string, "count": N}, so a 1 MiB target takes a line.
//
// A Text keeps each piece as the characters between its quotes, escapes
// and all, because a text may hold what a Go string cannot: an unpaired
// surrogate escape such as \ud800 (CANON: invalid submission text). The
// pieces join as JSON string contents join, code unit after code unit: a
// piece ending in \ud83d followed by one starting with \ude00 makes U+1F600.
type Text struct {
	pieces []piece
}

type piece struct {
	raw   string // the string's contents between its quotes, as written
	count int    // 1 for a plain string
}

// PlainText returns the Text of s.
func PlainText(s string) Text {
	b, _ := json.Marshal(s)
	return Text{pieces: []piece{{raw: string(b[1 : len(b)-1]), count: 1}}}
}

// JSON returns the text as one JSON string literal, escapes kept as
// written: what a runner puts in a request.
func (t Text) JSON() []byte {
	var b bytes.Buffer
	b.WriteByte('"')
	for _, p := range t.pieces {
		for range p.count {
			b.WriteString(p.raw)
		}
	}
	b.WriteByte('"')
	return b.Bytes()
}

// ErrUnpairedSurrogate is returned by String for a text holding an unpaired
// surrogate escape, which no Go string (and no UTF-8) can hold.
var ErrUnpairedSurrogate = errors.New("text holds an unpaired surrogate")

// String returns the text. It fails with ErrUnpairedSurrogate when the text
// holds an unpaired surrogate escape.
func (t Text) String() (string, error) {
	lit := t.JSON()
	if loneSurrogate(lit) >= 0 {
		return "", ErrUnpairedSurrogate
	}
	var s string
	if err := json.Unmarshal(lit, &s); err != nil {
		return "", err
	}
	return s, nil
}

// MustString is String for texts known to be valid; it returns the empty
// string for one that is not.
func (t Text) MustString() string {
	s, _ := t.String()
	return s
}

// Valid reports whether the text is valid submission text: no unpaired
// surrogate and no NUL (CANON: invalid submission text).
func (t Text) Valid() bool {
	s, err := t.String()
	return err == nil && !strings.ContainsRune(s, 0)
}

// Len returns the length of the text in code points, or -1 when it holds an
// unpaired surrogate.
func (t Text) Len() int {
	s, err := t.String()
	if err != nil {
		return -1
	}
	return utf8.RuneCountInString(s)
}

// MarshalJSON writes the text back in the form it was read.
func (t Text) MarshalJSON() ([]byte, error) {
	if len(t.pieces) == 1 && t.pieces[0].count == 1 {
		return []byte(`"` + t.pieces[0].raw + `"`), nil
	}
	var b bytes.Buffer
	b.WriteByte('[')
	for i, p := range t.pieces {
		if i > 0 {
			b.WriteString(", ")
		}
		if p.count == 1 {
			b.WriteString(`"` + p.raw + `"`)
		} else {
			fmt.Fprintf(&b, `{"repeat": "%s", "count": %d}`, p.raw, p.count)
		}
	}
	b.WriteByte(']')
	return b.Bytes(), nil
}

// maxTextRunes bounds a text a case may describe, pieces repeated: 16 MiB
// of code points is well past the seed's largest budget (a 1 MiB target).
const maxTextRunes = 16 << 20

// parseText reads a Text from raw JSON: a string, or a non-empty list of
// pieces.
func parseText(raw json.RawMessage) (Text, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return Text{}, errors.New("missing text")
	}
	switch raw[0] {
	case '"':
		p, err := stringPiece(raw)
		if err != nil {
			return Text{}, err
		}
		return Text{pieces: []piece{p}}, nil
	case '[':
		var items []json.RawMessage
		if err := json.Unmarshal(raw, &items); err != nil {
			return Text{}, err
		}
		if len(items) == 0 {
			return Text{}, errors.New("a list of pieces needs at least one piece")
		}
		var t Text
		total := 0
		for i, item := range items {
			p, err := parsePiece(item)
			if err != nil {
				return Text{}, fmt.Errorf("piece %d: %w", i, err)
			}
			total += len(p.raw) * p.count
			if total > 4*maxTextRunes {
				return Text{}, fmt.Errorf("piece %d: the text exceeds %d code points", i, maxTextRunes)
			}
			t.pieces = append(t.pieces, p)
		}
		return t, nil
	}
	return Text{}, fmt.Errorf("a text is a JSON string or a list of pieces, not %s", jsonKind(raw))
}

func parsePiece(raw json.RawMessage) (piece, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) > 0 && raw[0] == '"' {
		return stringPiece(raw)
	}
	if len(raw) == 0 || raw[0] != '{' {
		return piece{}, fmt.Errorf("a piece is a string or {\"repeat\": ..., \"count\": N}, not %s", jsonKind(raw))
	}
	var r struct {
		Repeat json.RawMessage `json:"repeat"`
		Count  *int            `json:"count"`
	}
	if err := strictUnmarshal(raw, &r); err != nil {
		return piece{}, err
	}
	if r.Repeat == nil || r.Count == nil {
		return piece{}, errors.New("a repeated piece needs both repeat and count")
	}
	p, err := stringPiece(r.Repeat)
	if err != nil {
		return piece{}, fmt.Errorf("repeat: %w", err)
	}
	if p.raw == "" {
		return piece{}, errors.New("repeat: an empty string repeats to nothing")
	}
	if *r.Count < 2 {
		return piece{}, fmt.Errorf("count %d: a repeated piece repeats at least twice", *r.Count)
	}
	p.count = *r.Count
	return p, nil
}

func stringPiece(raw json.RawMessage) (piece, error) {
	var s string
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' || json.Unmarshal(raw, &s) != nil {
		return piece{}, fmt.Errorf("not a JSON string: %.40s", raw)
	}
	return piece{raw: string(raw[1 : len(raw)-1]), count: 1}, nil
}

// loneSurrogate returns the offset in lit (JSON text) of the first unpaired
// surrogate escape inside a string, or -1.
func loneSurrogate(lit []byte) int {
	inString := false
	for i := 0; i < len(lit); i++ {
		switch b := lit[i]; {
		case b == '"':
			inString = !inString
		case b == '\\' && inString:
			i++
			if i >= len(lit) || lit[i] != 'u' {
				continue
			}
			r, ok := hex4(lit, i+1)
			start := i - 1
			i += 4
			if !ok {
				continue
			}
			switch {
			case r >= 0xDC00 && r <= 0xDFFF:
				return start
			case r >= 0xD800 && r <= 0xDBFF:
				lo, ok := rune(0), false
				if i+2 < len(lit) && lit[i+1] == '\\' && lit[i+2] == 'u' {
					lo, ok = hex4(lit, i+3)
				}
				if !ok || lo < 0xDC00 || lo > 0xDFFF {
					return start
				}
				i += 6
			}
		}
	}
	return -1
}

func hex4(data []byte, i int) (rune, bool) {
	if i+4 > len(data) {
		return 0, false
	}
	v, err := strconv.ParseUint(string(data[i:i+4]), 16, 32)
	return rune(v), err == nil
}
