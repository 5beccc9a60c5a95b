package cases

import (
	"encoding/json"
	"regexp"
)

// This file checks the steps of a step case.

// rawStep is one step as written.
type rawStep struct {
	Description    *string         `json:"description"`
	Args           *[]string       `json:"args"`
	Dir            *string         `json:"dir"`
	Stdin          json.RawMessage `json:"stdin"`
	Inputs         json.RawMessage `json:"inputs"`
	Exit           *int            `json:"exit"`
	JSON           json.RawMessage `json:"json"`
	Stdout         json.RawMessage `json:"stdout"`
	StderrContains *string         `json:"stderr_contains"`
	StdoutMatches  *string         `json:"stdout_matches"`
	Race           *rawRace        `json:"race"`
	Files          json.RawMessage `json:"files"`
	Unchanged      *bool           `json:"unchanged"`
}

// placeholder matches what looks like a placeholder in a step argument.
var placeholder = regexp.MustCompile(`\{[a-z_]+\}`)

func (c *checker) steps(raw json.RawMessage, hasPatch bool, plain *bool) []*Step {
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil {
		c.errorf("steps", "want a list of steps")
		return nil
	}
	if len(items) == 0 {
		c.errorf("steps", "empty list")
	}
	out := make([]*Step, 0, len(items))
	for i, item := range items {
		f := fieldIndex("steps", i)
		var rs rawStep
		if err := strictUnmarshal(item, &rs); err != nil {
			c.add(decodeError(f, err))
			continue
		}
		out = append(out, c.step(f, &rs, hasPatch, plain))
	}
	return out
}

func (c *checker) step(f string, rs *rawStep, hasPatch bool, plain *bool) *Step {
	s := &Step{Dir: DirWork}
	if rs.Description != nil {
		s.Description = *rs.Description
	}
	if rs.Args == nil {
		c.errorf(fieldName(f, "args"), "required: the arguments after the program name")
	} else {
		s.Args = *rs.Args
		for i, a := range s.Args {
			for _, ph := range placeholder.FindAllString(a, -1) {
				switch ph {
				case WorkPlaceholder, InputsPlaceholder:
				case PatchPlaceholder:
					if !hasPatch {
						c.errorf(fieldIndex(fieldName(f, "args"), i), "{patch} but the case has no patch")
					}
				default:
					c.errorf(fieldIndex(fieldName(f, "args"), i), "unknown placeholder %s; the placeholders are {work}, {inputs}, {patch}", ph)
				}
			}
		}
	}
	if rs.Dir != nil {
		if *rs.Dir != DirWork && *rs.Dir != DirInputs {
			c.errorf(fieldName(f, "dir"), "%q is neither %q nor %q", *rs.Dir, DirWork, DirInputs)
		}
		s.Dir = *rs.Dir
	}
	if rs.Stdin != nil {
		s.Stdin = c.content(fieldName(f, "stdin"), rs.Stdin, plain)
	}
	if rs.Inputs != nil {
		s.Inputs = c.tree(fieldName(f, "inputs"), rs.Inputs, plain)
		if _, ok := s.Inputs[PatchFile]; ok && hasPatch {
			c.errorf(fieldKey(fieldName(f, "inputs"), PatchFile), "the case's patch is written there; use another name")
		}
	}
	switch {
	case rs.Exit == nil:
		c.errorf(fieldName(f, "exit"), "required: 0 or 1")
	case *rs.Exit != 0 && *rs.Exit != 1:
		c.errorf(fieldName(f, "exit"), "%d; blockpatch exits 0 on success and 1 on any error", *rs.Exit)
	default:
		s.Exit = *rs.Exit
	}
	if rs.JSON != nil {
		s.JSON = c.stepJSON(fieldName(f, "json"), rs.JSON, rs.Exit)
	}
	if rs.Stdout != nil {
		s.Stdout = c.content(fieldName(f, "stdout"), rs.Stdout, plain)
		if rs.JSON != nil && s.Exit == 0 {
			c.errorf(fieldName(f, "stdout"), "json already describes stdout, where a successful command prints its JSON")
		}
	}
	if rs.StderrContains != nil {
		if *rs.StderrContains == "" {
			c.errorf(fieldName(f, "stderr_contains"), "empty")
		}
		if rs.JSON != nil && s.Exit == 1 {
			c.errorf(fieldName(f, "stderr_contains"), "json already describes stderr, where a failing command prints its JSON")
		}
		s.StderrContains = *rs.StderrContains
	}
	if rs.StdoutMatches != nil {
		re, err := regexp.Compile(*rs.StdoutMatches)
		switch {
		case err != nil:
			c.add(fieldName(f, "stdout_matches"), err)
		case rs.Stdout != nil:
			c.errorf(fieldName(f, "stdout_matches"), "stdout already gives the exact output")
		default:
			s.StdoutMatches = re
		}
	}
	if rs.Race != nil {
		s.Race = c.race(fieldName(f, "race"), rs.Race, plain)
	}
	switch {
	case rs.Files != nil && rs.Unchanged != nil:
		c.errorf(fieldName(f, "unchanged"), "files already gives the tree after the step")
	case rs.Files != nil:
		s.Files = c.tree(fieldName(f, "files"), rs.Files, plain)
	case rs.Unchanged != nil:
		if !*rs.Unchanged {
			c.errorf(fieldName(f, "unchanged"), "false; give files, the tree after the step, instead")
		}
		s.Unchanged = true
	default:
		c.errorf(f, "needs files (the tree after the step) or unchanged: true")
	}
	return s
}

// stepJSON checks a step's expected JSON against its exit status.
func (c *checker) stepJSON(field string, raw json.RawMessage, exit *int) map[string]any {
	var m map[string]any
	if firstByte(raw) != '{' || json.Unmarshal(raw, &m) != nil {
		c.errorf(field, "want an object: blockpatch prints JSON objects")
		return nil
	}
	ok, hasOK := m["ok"].(bool)
	if _, present := m["ok"]; present && !hasOK && m["ok"] != nil {
		c.errorf(fieldName(field, "ok"), "want true or false")
	}
	if exit != nil {
		switch {
		case *exit == 0 && hasOK && !ok:
			c.errorf(fieldName(field, "ok"), "false, but exit 0 means success")
		case *exit == 1 && hasOK && ok:
			c.errorf(fieldName(field, "ok"), "true, but exit 1 means failure")
		case *exit == 0 && m["error"] != nil:
			c.errorf(fieldName(field, "error"), "an error object, but exit 0 means success")
		}
	}
	if e, isObj := m["error"].(map[string]any); isObj {
		if code, present := e["code"]; present {
			s, isStr := code.(string)
			if !isStr || !c.knownCode(s) {
				c.errorf(fieldName(fieldName(field, "error"), "code"), "unknown error code %v", code)
			}
		}
	}
	return m
}

// rawRace is a step's concurrent writer as written.
type rawRace struct {
	Path    *string         `json:"path"`
	Content json.RawMessage `json:"content"`
}

func (c *checker) race(f string, r *rawRace, plain *bool) *Race {
	out := &Race{}
	switch {
	case r.Path == nil:
		c.errorf(fieldName(f, "path"), "required: the work-tree file the racer writes")
	default:
		if err := checkPath(*r.Path); err != nil {
			c.add(fieldName(f, "path"), err)
		}
		out.Path = *r.Path
	}
	if r.Content == nil {
		c.errorf(fieldName(f, "content"), "required: the bytes the racer writes")
	} else {
		out.Data = c.content(fieldName(f, "content"), r.Content, plain)
	}
	return out
}
