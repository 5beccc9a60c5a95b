// Package index reads a requirements.json index, the form in which every
// spec of this project (blockpatch's, PatchDIFF's) hands its requirements
// to Go code; package specmd writes it from the markdown.
package index

import (
	"bytes"
	"encoding/json"
	"sync"
)

// Requirement is one numbered requirement.
type Requirement struct {
	ID        string `json:"id"`        // stable identifier, such as "FMT-001" or "FIND-003"
	Area      string `json:"area"`      // the ID's prefix, such as "FMT"
	Since     string `json:"since"`     // the profile that introduced it
	Statement string `json:"statement"` // one MUST or MUST NOT sentence, in markdown
	// Clarification is true when the requirement records an answer its
	// authority does not give: for blockpatch what upstream's release
	// observably does, for PatchDIFF a choice "not stated by the seed".
	Clarification bool `json:"clarification"`
}

// Index is a decoded requirements.json.
type Index struct {
	Version    string   `json:"version"`
	Profiles   []string `json:"profiles"`
	ErrorCodes []string `json:"error_codes,omitempty"`
	// Options is a spec's table of command-line options, left for the
	// spec's package to decode (blockpatch's spec.Options).
	Options      json.RawMessage `json:"options,omitempty"`
	Requirements []Requirement   `json:"requirements"`

	byID map[string]Requirement
}

// Once returns a function that decodes data the first time it is called.
// The embedded bytes are checked by each spec's tests, so a decoding
// failure cannot ship; should it happen anyway, the index is empty rather
// than a panic.
func Once(data []byte) func() *Index {
	return sync.OnceValue(func() *Index {
		ix := new(Index)
		if err := json.Unmarshal(data, ix); err != nil {
			ix = new(Index)
		}
		ix.byID = make(map[string]Requirement, len(ix.Requirements))
		for _, r := range ix.Requirements {
			ix.byID[r.ID] = r
		}
		return ix
	})
}

// OnceHead returns a function that decodes, the first time it is called,
// the members of data that come before its requirements, leaving
// Requirements empty: the reference CLI reads the options and the error
// codes on every start, and the requirements, nearly all of the bytes,
// would cost it more than a millisecond to decode. The generator writes
// the requirements last.
func OnceHead(data []byte) func() *Index {
	return sync.OnceValue(func() *Index {
		ix := new(Index)
		dec := json.NewDecoder(bytes.NewReader(data))
		if t, err := dec.Token(); err != nil || t != json.Delim('{') {
			return ix
		}
		member := map[string]any{"version": &ix.Version, "profiles": &ix.Profiles,
			"error_codes": &ix.ErrorCodes, "options": &ix.Options}
		for dec.More() {
			t, err := dec.Token()
			key, _ := t.(string)
			if err != nil || key == "requirements" {
				break
			}
			var v any = new(json.RawMessage) // a member this version does not read
			if m, ok := member[key]; ok {
				v = m
			}
			if dec.Decode(v) != nil {
				return new(Index)
			}
		}
		return ix
	})
}

// Lookup returns the requirement with the given ID.
func (ix *Index) Lookup(id string) (Requirement, bool) {
	r, ok := ix.byID[id]
	return r, ok
}

// DecodeStrict decodes data refusing unknown members: the check each
// spec's tests make of its embedded index.
func DecodeStrict(data []byte) (*Index, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	ix := new(Index)
	if err := dec.Decode(ix); err != nil {
		return nil, err
	}
	return ix, nil
}
