package gen

import "slices"

// Shrink lists Specs smaller than s, the most promising first: no pad,
// fewer mutations, fewer files, fewer and simpler tokens, smaller numbers, the
// optional knobs off. Protocol and Shape are kept, so a shrunk Spec still
// exercises the same kind of move. Every candidate is strictly smaller in
// the order Size measures, so repeated shrinking ends.
func Shrink(s Spec) []Spec {
	var out []Spec
	try := func(c Spec) {
		if Size(c) < Size(s) {
			out = append(out, c)
		}
	}
	clone := func() Spec {
		c := s
		c.Files = make([][]int, len(s.Files))
		for i, f := range s.Files {
			c.Files[i] = slices.Clone(f)
		}
		c.Paths = slices.Clone(s.Paths)
		c.Payload = slices.Clone(s.Payload)
		c.Mutations = slices.Clone(s.Mutations)
		return c
	}

	if s.Pad != 0 {
		c := clone()
		c.Pad = 0
		try(c)
	}
	if len(s.Mutations) > 0 {
		c := clone()
		c.Mutations = nil
		try(c)
		for i := range s.Mutations {
			c := clone()
			c.Mutations = slices.Delete(c.Mutations, i, i+1)
			try(c)
		}
	}
	// Drop a file; the source and destination keep their files.
	for i := range s.Files {
		if len(s.Files) == 1 {
			break
		}
		c := clone()
		c.Files = slices.Delete(c.Files, i, i+1)
		if i < len(c.Paths) {
			c.Paths = slices.Delete(c.Paths, i, i+1)
		}
		n := len(s.Files)
		src, dst := abs(s.Src)%n, abs(s.Dst)%(n+1)
		if src == i {
			continue
		}
		c.Src = src - b2i(src > i)
		c.Dst = dst - b2i(dst > i)
		if dst == i {
			c.Dst = n - 1 // the "missing file" slot of the smaller tree
		}
		try(c)
	}
	// Halve a file, then drop single tokens.
	for i, f := range s.Files {
		if len(f) >= 4 {
			c := clone()
			c.Files[i] = c.Files[i][:len(f)/2]
			try(c)
			c = clone()
			c.Files[i] = c.Files[i][len(f)/2:]
			try(c)
		}
	}
	for i, f := range s.Files {
		for j := range f {
			c := clone()
			c.Files[i] = slices.Delete(c.Files[i], j, j+1)
			try(c)
		}
	}
	for j := range s.Payload {
		c := clone()
		c.Payload = slices.Delete(c.Payload, j, j+1)
		try(c)
	}
	// Simpler tokens and paths.
	for i, f := range s.Files {
		for j, t := range f {
			if t != 0 {
				c := clone()
				c.Files[i][j] = 0
				try(c)
			}
		}
	}
	for j, t := range s.Payload {
		if t != 0 {
			c := clone()
			c.Payload[j] = 0
			try(c)
		}
	}
	for i, p := range s.Paths {
		if p != 0 {
			c := clone()
			c.Paths[i] = 0
			try(c)
		}
	}
	// Smaller numbers.
	for _, f := range []func(*Spec) *int{
		func(c *Spec) *int { return &c.Pad },
		func(c *Spec) *int { return &c.PadKind },
		func(c *Spec) *int { return &c.PadAt },
		func(c *Spec) *int { return &c.PadFile },
		func(c *Spec) *int { return &c.Deliver },
		func(c *Spec) *int { return &c.PathTrick },
		func(c *Spec) *int { return &c.Env },
		func(c *Spec) *int { return &c.Version },
		func(c *Spec) *int { return &c.Blank },
		func(c *Spec) *int { return &c.Trap },
		func(c *Spec) *int { return &c.Hash },
		func(c *Spec) *int { return &c.Strip },
		func(c *Spec) *int { return &c.Reverse },
		func(c *Spec) *int { return &c.Done },
		func(c *Spec) *int { return &c.DryRun },
		func(c *Spec) *int { return &c.CB },
		func(c *Spec) *int { return &c.CA },
		func(c *Spec) *int { return &c.TB },
		func(c *Spec) *int { return &c.TA },
		func(c *Spec) *int { return &c.PL },
		func(c *Spec) *int { return &c.PS },
		func(c *Spec) *int { return &c.IP },
		func(c *Spec) *int { return &c.SK },
		func(c *Spec) *int { return &c.EK },
		func(c *Spec) *int { return &c.Src },
		func(c *Spec) *int { return &c.Dst },
	} {
		v := *f(&s)
		for _, w := range []int{0, v / 2, v - 1} {
			if w >= 0 && w < v {
				c := clone()
				*f(&c) = w
				try(c)
			}
		}
	}
	for i, m := range s.Mutations {
		if m.At > 0 {
			c := clone()
			c.Mutations[i].At = m.At / 2
			try(c)
		}
	}
	return out
}

// Size measures a Spec for shrinking: tokens count most, then mutations,
// then the numbers; a pad weighs as a hundred tokens.
func Size(s Spec) int {
	n := 0
	for _, f := range s.Files {
		n += 1000 * (1 + len(f))
		for _, t := range f {
			n += abs(t)
		}
	}
	n += 1000 * len(s.Payload)
	for _, t := range s.Payload {
		n += abs(t)
	}
	n += 5000 * len(s.Mutations)
	for _, m := range s.Mutations {
		n += min(abs(m.At), 1<<20) / 4096
	}
	for _, p := range s.Paths {
		n += abs(p)
	}
	for _, v := range []int{s.Hash, s.Strip, s.Reverse, s.Done, s.DryRun, s.Deliver, s.PathTrick, s.Env, s.Version, s.Blank, s.Trap, s.PadKind, s.PadAt, s.PadFile} {
		n += 100 * abs(v)
	}
	n += 100000 * abs(s.Pad) // a pad outweighs every token
	for _, v := range []int{s.CB, s.CA, s.TB, s.TA, s.PL, s.PS, s.IP, s.SK, s.EK, s.Src, s.Dst} {
		n += abs(v)
	}
	return n
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
