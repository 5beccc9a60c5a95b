package batch

import (
	"bytes"
	"encoding/json"
	"fmt"
	"regexp"
	"slices"
	"strconv"

	"github.com/gowebpki/jcs"

	pd "github.com/blockpatch-conformance/blockpatch-conformance/reference/patchdiff"
	pdspec "github.com/blockpatch-conformance/blockpatch-conformance/spec/patchdiff"
)

// Envelope is a decoded batch envelope (BATCH-008 to BATCH-011): its
// global guards and its groups in envelope order.
type Envelope struct {
	TargetFileID          string
	Intent                string
	ExpectedTargetVersion int64
	ExpectedCurrentHash   string
	Groups                []Group
}

// Group is one group of an envelope: its observation, its authoritative
// scope evidence and its patchdiff-tx/2 transaction as the envelope holds
// it (canonical JSON, without a guard).
type Group struct {
	ObservationID string
	ScopeStart    int
	ScopeEnd      int
	TargetHash    string
	Transaction   json.RawMessage
}

// The members an envelope and a group hold (BATCH-008, BATCH-009).
var (
	envelopeMembers = []string{"expected_current_hash", "expected_target_version", "format", "groups", "intent", "target_file_id"}
	groupMembers    = []string{"observation_id", "scope_bounds", "target_hash", "transaction"}
	boundsMembers   = []string{"scope_end", "scope_start"}
	hashRE          = regexp.MustCompile(`^[0-9a-f]{64}$`)
	integerRE       = regexp.MustCompile(`^(0|[1-9][0-9]*)$`)
)

// fault is a rejection before any group is applied: a label, its stage,
// the member at fault and the group it concerns (0 for none).
type fault struct {
	reason pdspec.Reason
	stage  pdspec.Stage
	path   string
	group  int
	offset int // byte offset of invalid text, -1 for none
	msg    string
}

func invalid(path string, group int, format string, args ...any) *fault {
	return &fault{reason: pdspec.ManifestInvalid, stage: pdspec.ProtocolValidation, path: path, group: group, offset: -1, msg: fmt.Sprintf(format, args...)}
}

// readEnvelopeText runs the text checks of BATCH-004 and BATCH-005 and
// returns the top-level members.
func readEnvelopeText(text string) (map[string]json.RawMessage, *fault) {
	if err := pd.CheckJSONText(text); err != nil {
		e := err.(*pd.Error)
		return nil, &fault{reason: e.Reason, stage: e.Stage, path: e.Path, offset: e.Offset, msg: e.Message}
	}
	canon, err := jcs.Transform([]byte(text))
	if err != nil {
		return nil, invalid("$", 0, "the envelope has no RFC 8785 form: %v", err)
	}
	if !bytes.Equal(canon, []byte(text)) {
		return nil, invalid("$", 0, "the envelope is not in its canonical (RFC 8785) form")
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(canon, &top); err != nil {
		return nil, invalid("$", 0, "%v", err)
	}
	return top, nil
}

// present returns a member unless it is absent or null.
func present(m map[string]json.RawMessage, name string) json.RawMessage {
	v, ok := m[name]
	if !ok || string(v) == "null" {
		return nil
	}
	return v
}

// readGuards reads both global guards from the top level alone: each must
// be well formed (GUARD-005) and both present (BATCH-006).
func readGuards(top map[string]json.RawMessage) (version int64, hash string, f *fault) {
	v, h := present(top, "expected_target_version"), present(top, "expected_current_hash")
	if v != nil {
		n, ok := integer(v, 0)
		if !ok {
			return 0, "", invalid("$.expected_target_version", 0, "want a non-negative integer")
		}
		version = n
	}
	if h != nil {
		if !stringOf(h, &hash) || !hashRE.MatchString(hash) {
			return 0, "", invalid("$.expected_current_hash", 0, "want 64 lowercase hexadecimal digits")
		}
	}
	if v == nil || h == nil {
		return 0, "", &fault{reason: pdspec.ContextMissing, stage: pdspec.ProtocolValidation, offset: -1,
			msg: "an observed batch carries both expected_target_version and expected_current_hash"}
	}
	return version, hash, nil
}

// integer reads a JSON integer from min to 2^53-1 (DECODE-019).
func integer(raw json.RawMessage, min int64) (int64, bool) {
	if !integerRE.Match(raw) {
		return 0, false
	}
	n, err := strconv.ParseInt(string(raw), 10, 64)
	if err != nil || n < min || n > pdspec.Budget().MaxInteger {
		return 0, false
	}
	return n, true
}

// stringOf reads a JSON string into s.
func stringOf(raw json.RawMessage, s *string) bool {
	return len(raw) > 0 && raw[0] == '"' && json.Unmarshal(raw, s) == nil
}

// object reads a JSON object's members.
func object(raw json.RawMessage) (map[string]json.RawMessage, bool) {
	if len(raw) == 0 || raw[0] != '{' {
		return nil, false
	}
	var m map[string]json.RawMessage
	return m, json.Unmarshal(raw, &m) == nil
}

// onlyMembers returns the first member of m (in name order) not in allowed.
func onlyMembers(m map[string]json.RawMessage, allowed []string) (string, bool) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	for _, k := range names {
		if !slices.Contains(allowed, k) {
			return k, false
		}
	}
	return "", true
}

// readStructure reads the envelope's members and groups (BATCH-008 to
// BATCH-011); the guards were read before.
func readStructure(top map[string]json.RawMessage, env *Envelope) *fault {
	bp := pdspec.ObservedBatch()
	if name, ok := onlyMembers(top, envelopeMembers); !ok {
		return invalid("$."+name, 0, "an envelope holds no member %q", name)
	}
	var format string
	if !stringOf(top["format"], &format) || format != bp.Format {
		return invalid("$.format", 0, "want format %q", bp.Format)
	}
	if !stringOf(top["target_file_id"], &env.TargetFileID) || env.TargetFileID == "" {
		return invalid("$.target_file_id", 0, "want a non-empty string")
	}
	if !stringOf(top["intent"], &env.Intent) || env.Intent == "" {
		return invalid("$.intent", 0, "want a non-empty string")
	}
	groups, ok := top["groups"]
	if !ok {
		return &fault{reason: pdspec.ManifestMissing, stage: pdspec.ProtocolValidation, path: "$.groups", offset: -1, msg: "no groups"}
	}
	var list []json.RawMessage
	if len(groups) == 0 || groups[0] != '[' || json.Unmarshal(groups, &list) != nil || len(list) == 0 {
		return invalid("$.groups", 0, "want a non-empty array of groups")
	}
	for i, raw := range list {
		g, f := readGroup(raw, i+1, env)
		if f != nil {
			return f
		}
		if j := slices.IndexFunc(env.Groups, func(o Group) bool { return o.ObservationID == g.ObservationID }); j >= 0 {
			return invalid(fmt.Sprintf("$.groups[%d].observation_id", i), i+1, "observation_id %q is group %d's too", g.ObservationID, j+1)
		}
		env.Groups = append(env.Groups, g)
	}
	for j := range env.Groups {
		for i := range j {
			a, b := env.Groups[i], env.Groups[j]
			if a.ScopeStart < b.ScopeEnd && b.ScopeStart < a.ScopeEnd {
				return invalid(fmt.Sprintf("$.groups[%d].scope_bounds", j), j+1, "scope [%d, %d) overlaps group %d's [%d, %d)",
					b.ScopeStart, b.ScopeEnd, i+1, a.ScopeStart, a.ScopeEnd)
			}
		}
	}
	return nil
}

// readGroup reads group index (1-based) of the envelope (BATCH-009,
// BATCH-010).
func readGroup(raw json.RawMessage, index int, env *Envelope) (Group, *fault) {
	var g Group
	at := fmt.Sprintf("$.groups[%d]", index-1)
	m, ok := object(raw)
	if !ok {
		return g, invalid(at, index, "a group is an object")
	}
	if name, ok := onlyMembers(m, groupMembers); !ok {
		return g, invalid(at+"."+name, index, "a group holds no member %q", name)
	}
	if !stringOf(m["observation_id"], &g.ObservationID) || g.ObservationID == "" {
		return g, invalid(at+".observation_id", index, "want a non-empty string")
	}
	b, ok := object(m["scope_bounds"])
	if _, only := onlyMembers(b, boundsMembers); !ok || !only || len(b) != 2 {
		return g, invalid(at+".scope_bounds", index, "want an object of scope_start and scope_end")
	}
	start, okS := integer(b["scope_start"], 0)
	end, okE := integer(b["scope_end"], 0)
	if !okS || !okE || start >= end {
		return g, invalid(at+".scope_bounds", index, "want integers 0 <= scope_start < scope_end")
	}
	g.ScopeStart, g.ScopeEnd = int(start), int(end)
	if !stringOf(m["target_hash"], &g.TargetHash) || !hashRE.MatchString(g.TargetHash) {
		return g, invalid(at+".target_hash", index, "want 64 lowercase hexadecimal digits")
	}
	tx, ok := object(m["transaction"])
	if !ok {
		return g, invalid(at+".transaction", index, "want a patchdiff-tx/2 transaction object")
	}
	var format, target string
	if !stringOf(tx["format"], &format) || format != pdspec.ObservedBatch().GroupFormat {
		return g, invalid(at+".transaction.format", index, "want format %q", pdspec.ObservedBatch().GroupFormat)
	}
	if !stringOf(tx["target_file_id"], &target) || target != env.TargetFileID {
		return g, invalid(at+".transaction.target_file_id", index, "want the envelope's target_file_id %q", env.TargetFileID)
	}
	for _, guard := range []string{"expected_target_version", "expected_current_hash"} {
		if _, has := tx[guard]; has {
			return g, invalid(at+".transaction."+guard, index, "a group carries no guard of its own: the batch substitutes its slice's hash")
		}
	}
	g.Transaction = m["transaction"]
	return g, nil
}

// localTransaction is the group's transaction with hash substituted as
// its expected_current_hash (BATCH-014). The envelope is canonical, so the
// group's transaction is an object without whitespace.
func localTransaction(tx json.RawMessage, hash string) string {
	guard := `"expected_current_hash":"` + hash + `"`
	if string(tx) == "{}" {
		return "{" + guard + "}"
	}
	return "{" + guard + "," + string(tx[1:])
}
