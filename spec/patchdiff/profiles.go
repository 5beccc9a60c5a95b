package pdspec

import (
	_ "embed"
	"encoding/json"
	"slices"
	"sync"
)

//go:embed profiles.json
var profilesJSON []byte

// Singleton selector behaviours (Profile.SingletonSelectors).
const (
	// SingletonIgnored: the selecting fields of a match with exactly one
	// occurrence are ignored (SELECT-011; 0.1.0, 0.2.0, 0.2.1).
	SingletonIgnored = "ignored"
	// SingletonConstrain: they constrain a single occurrence too
	// (SELECT-010; 0.2.2 and later).
	SingletonConstrain = "constrain"
)

// Profile is one immutable runtime profile (PROFILE-001, PROFILE-003). The
// JSON names of the three gates are the seed's RuntimeProfile fields.
type Profile struct {
	RuntimeVersion       string `json:"runtime_version"`
	SingletonSelectors   string `json:"singleton_selectors"`
	SpanOperations       bool   `json:"span_operations"`
	ReplaceAllOperations bool   `json:"replace_all_operations"`
	SpanContext          bool   `json:"span_context"`
	// SpanContextRefusedAt is the stage at which a span operation carrying
	// expected_before or expected_after is refused with manifest_invalid
	// under a profile without SpanContext: PROTOCOL_VALIDATION where the
	// decoder's grammar lacks the fields (0.3.0, DECODE-027),
	// TRANSACTION_APPLICABILITY where the applier refuses them (SPAN-009);
	// empty where they are accepted.
	SpanContextRefusedAt Stage    `json:"span_context_refused_at"`
	Formats              []string `json:"formats"` // transaction formats it accepts (PROFILE-005, PROFILE-006)
}

// Accepts reports whether the profile accepts transactions of format.
func (p Profile) Accepts(format string) bool { return slices.Contains(p.Formats, format) }

// BatchProfile is the seed's immutable internal pair of observed batches
// (BATCH-001): the envelope's format and the batch's runtime_version, and
// the format and profile every group runs as.
type BatchProfile struct {
	Format              string `json:"format"`                // patchdiff-observed-batch/1
	RuntimeVersion      string `json:"runtime_version"`       // patchdiff-observed-batch-r1
	GroupFormat         string `json:"group_format"`          // patchdiff-tx/2
	GroupRuntimeVersion string `json:"group_runtime_version"` // patchdiff-mvp-0.5.0
}

// profilesDoc is profiles.json.
type profilesDoc struct {
	Profiles      []Profile    `json:"profiles"`
	ObservedBatch BatchProfile `json:"observed_batch"`
}

var profilesData = sync.OnceValue(func() profilesDoc {
	var doc profilesDoc
	if err := json.Unmarshal(profilesJSON, &doc); err != nil {
		return profilesDoc{}
	}
	return doc
})

func profiles() []Profile { return profilesData().Profiles }

// ObservedBatch returns the observed-batch pair (BATCH-001).
func ObservedBatch() BatchProfile { return profilesData().ObservedBatch }

// Profiles returns every profile, oldest first, as a copy.
func Profiles() []Profile {
	out := slices.Clone(profiles())
	for i := range out {
		out[i].Formats = slices.Clone(out[i].Formats)
	}
	return out
}

// ProfileNames returns the runtime versions of Profiles, oldest first.
func ProfileNames() []string {
	var out []string
	for _, p := range profiles() {
		out = append(out, p.RuntimeVersion)
	}
	return out
}

// LookupProfile returns the profile named runtimeVersion. An unknown or
// empty name is no profile: the runtime fails closed (PROFILE-002).
func LookupProfile(runtimeVersion string) (Profile, bool) {
	i := slices.IndexFunc(profiles(), func(p Profile) bool { return p.RuntimeVersion == runtimeVersion })
	if i < 0 {
		return Profile{}, false
	}
	p := profiles()[i]
	p.Formats = slices.Clone(p.Formats)
	return p, true
}
