package replay

import (
	"github.com/gowebpki/jcs"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
)

// CanonicalJSON returns the RFC 8785 (JSON Canonicalization Scheme) form of
// a JSON text: members sorted by their UTF-16 code units, no insignificant
// whitespace, numbers and strings serialized as ECMAScript does. The seed
// persists pdcp_content "as deterministic canonical JSON" without saying
// which; spec/patchdiff chose RFC 8785 (REPLAY-006). Its error is a text
// that is not JSON, names a member twice, or holds a lone surrogate.
func CanonicalJSON(text []byte) ([]byte, error) { return jcs.Transform(text) }

// canonicalSHA256 is the seed's canonical_sha256: SHA-256 of the canonical
// text's UTF-8 bytes (HASH-001).
func canonicalSHA256(text string) string { return pd.Hash(pd.Canonicalize(text)) }
