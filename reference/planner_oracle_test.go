package reference

// oraclePayload is the payload the request means, found naively.
func oraclePayload(req *Request, tree MapFiles) string {
	if req.Payload != nil {
		return *req.Payload
	}
	if req.Mode != nil {
		return string(tree[req.Src])
	}
	sel := naiveSelections(string(tree[req.Src]), str(req.SrcStart), str(req.SrcEnd))
	if len(sel) != 1 {
		return ""
	}
	return string(tree[req.Src])[sel[0].Start:sel[0].End]
}

// naiveOccurrences lists every start of sub in s, overlapping, the slow
// way.
func naiveOccurrences(s, sub string) []int {
	var out []int
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i:i+len(sub)] == sub {
			out = append(out, i)
		}
	}
	return out
}

func naiveSelections(s, start, end string) []Range {
	var out []Range
	for _, i := range naiveOccurrences(s, start) {
		for _, j := range naiveOccurrences(s, end) {
			if j >= i+len(start) {
				out = append(out, Range{i, j + len(end)})
				break
			}
		}
	}
	return out
}

// expectation is the oracle's verdict on a request.
type expectation struct {
	code        Code
	after       MapFiles
	status      Status
	sourceRange *Range
	insert      *int
}

// oracle computes the outcome of a request straight from the documented
// rules, without the planner's code: the checks in the order the planner
// makes them, then the move itself.
func oracle(req *Request, tree MapFiles) expectation {
	fail := func(code Code) expectation { return expectation{code: code} }
	tb, ta := str(req.TargetBefore), str(req.TargetAfter)
	hashOK := func(p string) bool {
		return req.ExpectedPayloadSHA256 == nil || *req.ExpectedPayloadSHA256 == sha(p)
	}
	after := tree.copy()
	done := func(status Status, src *Range, insert int) expectation {
		e := expectation{after: after, status: status, sourceRange: src}
		if insert >= 0 {
			e.insert = &insert
		}
		if status == StatusApplied && after.equal(tree) {
			e.status = StatusNoop
		}
		return e
	}
	switch {
	case req.Mode != nil && *req.Mode == ModeCreateFile:
		p := *req.Payload
		if !hashOK(p) {
			return fail(HashMismatch)
		}
		dst := *req.Dst
		if old, ok := tree[dst]; ok {
			if string(old) == p {
				return done(StatusAlreadyApplied, nil, 0)
			}
			return fail(DestinationExists)
		}
		after[dst] = []byte(p)
		return done(StatusApplied, nil, 0)
	case req.Mode != nil:
		p := string(tree[req.Src])
		if !hashOK(p) {
			return fail(HashMismatch)
		}
		delete(after, req.Src)
		return done(StatusApplied, &Range{0, len(p)}, -1)
	case req.Src == DevNull:
		p, dst := *req.Payload, *req.Dst
		if p == "" || tb+ta == "" {
			return fail(InvalidMoveArgs)
		}
		if !hashOK(p) {
			return fail(HashMismatch) // the payload is known before the target is sought
		}
		d := string(tree[dst])
		switch occ := naiveOccurrences(d, tb+p+ta); {
		case len(occ) == 1:
			return done(StatusAlreadyApplied, nil, occ[0]+len(tb))
		case len(occ) > 1:
			return fail(TargetAmbiguous) // the final text, before the anchor (PLAN-045)
		}
		occ := naiveOccurrences(d, tb+ta)
		switch {
		case len(occ) == 0:
			return fail(TargetNotFound)
		case len(occ) > 1:
			return fail(TargetAmbiguous)
		}
		ip := occ[0] + len(tb)
		after[dst] = []byte(d[:ip] + p + d[ip:])
		return done(StatusApplied, nil, ip)
	}
	// Relocation and deletion select from src.
	src, dst := req.Src, req.Src
	if req.Dst != nil {
		dst = *req.Dst
	}
	if str(req.SrcStart) == "" || str(req.SrcEnd) == "" || (dst != DevNull && tb+ta == "") {
		return fail(InvalidMoveArgs)
	}
	d := string(tree[src])
	sel := naiveSelections(d, *req.SrcStart, *req.SrcEnd)
	switch {
	case len(sel) == 0:
		return fail(SourceNotFound)
	case len(sel) > 1:
		return fail(SourceAmbiguous)
	}
	ps, pe := sel[0].Start, sel[0].End
	p := d[ps:pe]
	if dst == DevNull {
		if !hashOK(p) {
			return fail(HashMismatch)
		}
		after[src] = []byte(d[:ps] + d[pe:])
		return done(StatusApplied, &Range{ps, pe}, -1)
	}
	t := string(tree[dst])
	occ := naiveOccurrences(t, tb+ta)
	switch {
	case len(occ) == 0:
		return fail(TargetNotFound)
	case len(occ) > 1:
		return fail(TargetAmbiguous)
	}
	as, ip := occ[0], occ[0]+len(tb)
	if src == dst {
		if as < pe && ps < ip+len(ta) {
			return fail(TargetOverlapsSource)
		}
	}
	if !hashOK(p) {
		return fail(HashMismatch) // upstream checks the hash last
	}
	if src == dst {
		rest := d[:ps] + d[pe:]
		at := ip
		if ip >= pe {
			at -= len(p)
		}
		after[src] = []byte(rest[:at] + p + rest[at:])
	} else {
		after[src] = []byte(d[:ps] + d[pe:])
		after[dst] = []byte(t[:ip] + p + t[ip:])
	}
	return done(StatusApplied, &Range{ps, pe}, ip)
}
