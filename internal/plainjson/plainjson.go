// Package plainjson encodes JSON as people read it and as the protocols
// of this project print it: "<", ">" and "&" left as they are rather than
// escaped for HTML, and no newline after the value.
package plainjson

import (
	"bytes"
	"encoding/json"
)

// Marshal encodes v like json.Marshal, without HTML escaping.
func Marshal(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
