package main

import (
	"log"
	"regexp"
)

var idShape = regexp.MustCompile(`^[A-Z]+-[0-9]{3}$`)

// requirementIDs returns the requirement IDs a case cites, in order, once.
func requirementIDs(c *C) []any {
	if len(c.topics) == 0 {
		log.Fatalf("%s: no requirement", c.name)
	}
	var out []any
	seen := map[string]bool{}
	for _, id := range c.topics {
		if !idShape.MatchString(id) {
			log.Fatalf("%s: %q is no requirement ID", c.name, id)
		}
		if !seen[id] {
			seen[id] = true
			out = append(out, id)
		}
	}
	return out
}
