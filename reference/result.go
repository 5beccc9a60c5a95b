package reference

// Status is the outcome of a successful check or apply.
type Status string

// The statuses of the spec's ApplyResult.
const (
	StatusApplied        Status = "applied"
	StatusNoop           Status = "noop"
	StatusAlreadyApplied Status = "already_applied"
)

// Result is the spec's ApplyResult: the JSON printed on success.
type Result struct {
	OK       bool     `json:"ok"`
	Changed  []string `json:"changed"`
	Affected []string `json:"affected"`
	// Written is true only when files were replaced; callers that commit a
	// plan set it.
	Written bool         `json:"written"`
	Noop    bool         `json:"noop"`
	Status  Status       `json:"status"`
	Moves   []MoveResult `json:"moves"`
	// StripComponents and Patch follow moves, where upstream prints them.
	StripComponents *int    `json:"strip_components,omitempty"`
	Patch           *string `json:"patch,omitempty"`
	// Warnings (blockpatch 1.1.1) flag a valid move that may surprise.
	Warnings []Warning `json:"warnings,omitempty"`
}

// Warning is one entry of a move result's warnings.
type Warning struct {
	Code            string `json:"code"`
	Message         string `json:"message"`
	Path            string `json:"path"`
	Phase           string `json:"phase"`
	Boundary        string `json:"boundary"`
	SuggestedAction string `json:"suggested_action"`
}

// MoveResult describes the one move of a result.
type MoveResult struct {
	ID            string `json:"id"`
	Src           string `json:"src"`
	Dst           string `json:"dst"`
	PayloadSHA256 string `json:"payload_sha256"`
	PayloadBytes  int    `json:"payload_bytes"`
	// SourceRange is the payload's bytes in the source file before the move;
	// nil when there is no source or it is already gone.
	SourceRange *Range `json:"source_range"`
	// TargetRange is the matched target text in the destination before the
	// move: the anchor (context before + after) when the payload is still to
	// be inserted, context + payload + context when it is already there.
	TargetRange *Range `json:"target_range"`
	// InsertIndex is where the payload starts in the destination: the
	// insertion offset, or the payload's offset when already applied.
	InsertIndex *int `json:"insert_index"`
}

// Change is one file transition of a plan.
type Change struct {
	Path string
	// Data is the file's new content as a sequence of slices, most of them
	// sharing the original file's bytes, so a plan for a large file costs
	// little more than the file itself. Nil when Remove is set.
	Data [][]byte
	// Create is set when the path is absent now; Remove when it goes away.
	Create, Remove bool
}

// Bytes joins the change's data.
func (c Change) Bytes() []byte {
	out := bulk(c.size())
	for _, d := range c.Data {
		out = append(out, d...)
	}
	return out
}

// size is the length of the change's new content.
func (c Change) size() int {
	n := 0
	for _, d := range c.Data {
		n += len(d)
	}
	return n
}
