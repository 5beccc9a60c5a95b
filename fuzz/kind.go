package fuzz

// Name is the kind as a name a known-deviation list can match
// (cases/known): "fuzz/" and the slug of its key, such as
// "fuzz/plan-code-target-overlaps-source".
func (k *Kind) Name() string { return "fuzz/" + slug(k.Key) }
