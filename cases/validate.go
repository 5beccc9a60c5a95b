package cases

import (
	"bytes"
	"encoding/json"
	"slices"
	"strconv"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file turns a decoded case.json into a Case and enforces the rules of
// README.md. Each rule adds a *CaseError naming the field at fault and goes
// on, so an author sees every problem of a case at once.

// rawCase is case.json as written, its members in the order a case file
// writes them; it is the description CaseFields reads (fields.go).
// Pointers and raw messages tell absent fields from empty ones; scanJSON has
// already refused null in all of them.
type rawCase struct {
	Description    *string         `json:"description"`
	Requirements   *[]string       `json:"requirements"`
	Since          *string         `json:"since"`
	Levels         *[]string       `json:"levels"`
	Unprivileged   *bool           `json:"unprivileged"`
	Expect         *string         `json:"expect" case:"upstream protocols=standard,planned"`
	ErrorCode      *string         `json:"error_code" case:"upstream protocols=standard,planned"`
	Error          json.RawMessage `json:"error" case:"kind=object protocols=standard,planned"`
	Args           *[]string       `json:"args" case:"protocols=standard,planned"`
	Strip          *int            `json:"strip" case:"protocols=standard"`
	Request        json.RawMessage `json:"request" case:"kind=object protocols=planned"`
	Patch          json.RawMessage `json:"patch" case:"upstream kind=content protocols=standard,steps"`
	Files          json.RawMessage `json:"files" case:"upstream kind=tree"`
	ExpectedFiles  json.RawMessage `json:"expected_files" case:"upstream kind=tree protocols=standard,planned"`
	ExpectedAbsent *[]string       `json:"expected_absent" case:"upstream protocols=standard,planned"`
	ExpectedPatch  json.RawMessage `json:"expected_patch" case:"kind=content protocols=planned"`
	Result         json.RawMessage `json:"result" case:"kind=object protocols=standard,planned"`
	WriteOrder     *[]string       `json:"write_order" case:"protocols=standard"`
	Retry          json.RawMessage `json:"retry" case:"kind=object protocols=standard"`
	Reverse        json.RawMessage `json:"reverse" case:"kind=object protocols=standard"`
	Steps          json.RawMessage `json:"steps" case:"kind=list protocols=steps"`
}

func (c *checker) build(r *rawCase) *Case {
	k := &Case{Name: c.name, Files: Tree{}}
	plain := true // every content is a plain string, as upstream writes it

	c.metadata(r, k)

	switch {
	case r.Steps != nil && r.Request != nil:
		c.errorf("request", "a case has steps or a request, not both; give the request to a step as stdin or an input")
		return k
	case r.Steps != nil:
		k.Protocol = Steps
	case r.Request != nil:
		k.Protocol = Planned
	default:
		k.Protocol = Standard
	}
	present := r.present()
	slices.SortFunc(present, func(a, b Field) int { return strings.Compare(a.Name, b.Name) })
	for _, f := range present {
		if !f.Takes(k.Protocol) {
			c.errorf(f.Name, "not used by the %s protocol (%s)", k.Protocol, protocolHint[k.Protocol])
		}
	}
	if r.Unprivileged != nil {
		if !*r.Unprivileged {
			c.errorf("unprivileged", "false is the default; leave it out")
		}
		k.Unprivileged = *r.Unprivileged
	}

	if r.Files != nil {
		k.Files = c.tree("files", r.Files, &plain)
	}
	if r.Patch != nil {
		k.Patch = c.content("patch", r.Patch, &plain)
	}

	switch k.Protocol {
	case Standard, Planned:
		c.expectation(r, k, &plain)
	case Steps:
		k.Steps = c.steps(r.Steps, r.Patch != nil, &plain)
	}
	c.levels(r, k)
	k.Upstream = plain && !r.hasExtension()
	return k
}

var protocolHint = map[Protocol]string{
	Standard: "a case without steps or request runs check and apply on its patch",
	Planned:  "a case with a request runs plan and move; plan writes the patch",
	Steps:    "a case with steps states its expectations per step",
}

func (c *checker) metadata(r *rawCase, k *Case) {
	switch {
	case r.Description != nil:
		if strings.TrimSpace(*r.Description) == "" {
			c.errorf("description", "empty")
		}
		k.Description = *r.Description
	case c.opts.RequireMetadata:
		c.errorf("description", "required: say what the case checks and why it expects what it does")
	}

	switch {
	case r.Requirements != nil:
		if len(*r.Requirements) == 0 {
			c.errorf("requirements", "empty list; name the requirements the case checks")
		}
		seen := map[string]bool{}
		for i, id := range *r.Requirements {
			f := fieldIndex("requirements", i)
			switch {
			case !IsRequirementID(id):
				c.errorf(f, "%q is not a requirement ID (like MATCH-003)", id)
			case seen[id]:
				c.errorf(f, "%s listed twice", id)
			case !c.knownRequirement(id):
				c.errorf(f, "unknown requirement %s", id)
			}
			seen[id] = true
		}
		k.Requirements = *r.Requirements
	case c.opts.RequireMetadata:
		c.errorf("requirements", "required: name the spec requirements the case checks")
	}

	k.Since = DefaultSince
	switch {
	case r.Since != nil:
		if !slices.Contains(spec.Profiles, *r.Since) {
			c.errorf("since", "%q is not one of %s", *r.Since, strings.Join(spec.Profiles, ", "))
		}
		k.Since = *r.Since
	case c.opts.RequireMetadata:
		c.errorf("since", "required: the oldest blockpatch version the case holds for")
	}
}

// levels sets the levels the case needs: those of its command lines, and
// those it states for what its commands do not show (such as a step case
// about where the error JSON goes, which only a full command line keeps).
func (c *checker) levels(r *rawCase, k *Case) {
	if k.Protocol == Steps {
		k.Levels = k.stepLevels()
	} else {
		k.Levels = k.protocolLevels()
	}
	if r.Levels == nil {
		return
	}
	if len(*r.Levels) == 0 {
		c.errorf("levels", "empty list; leave it out when the commands say it all")
	}
	derived := slices.Clone(k.Levels)
	for i, name := range *r.Levels {
		f, l := fieldIndex("levels", i), Level(name)
		switch {
		case !slices.Contains(Levels, l):
			c.errorf(f, "%q is not one of core, planner, cli", name)
		case slices.Contains(derived, l):
			c.errorf(f, "%s already follows from the case's command lines; name only the levels they do not show", l)
		case slices.Contains(k.Levels, l):
			c.errorf(f, "%s listed twice", l)
		default:
			k.Levels = sortLevels(append(k.Levels, l))
		}
	}
}

// expectation reads the fields of the Standard and Planned protocols.
func (c *checker) expectation(r *rawCase, k *Case, plain *bool) {
	if k.Protocol == Standard && r.Patch == nil {
		c.errorf("patch", "required: the patch that check and apply run")
	}
	if r.Args != nil {
		k.Args = *r.Args
		c.args("args", k.Args, r.Strip != nil)
	}
	if r.Strip != nil {
		if *r.Strip < 0 {
			c.errorf("strip", "negative")
		}
		k.Strip = r.Strip
	}
	if r.Request != nil {
		if firstByte(r.Request) != '{' {
			c.errorf("request", "a move request is a JSON object; send other input through a step's stdin")
		} else {
			var buf bytes.Buffer
			if err := json.Compact(&buf, r.Request); err != nil {
				c.add("request", err)
			}
			k.Request = json.RawMessage(buf.Bytes())
		}
	}

	o := c.outcome("", r.Expect, r.ErrorCode, r.Error, r.Result, k.Strip)
	k.Expect, k.ErrorCode, k.Error, k.Result = o.Expect, o.ErrorCode, o.Error, o.Result

	if r.ExpectedFiles != nil {
		k.ExpectedFiles = c.tree("expected_files", r.ExpectedFiles, plain)
	}
	if r.ExpectedPatch != nil {
		k.ExpectedPatch = c.content("expected_patch", r.ExpectedPatch, plain)
	}
	if r.ExpectedAbsent != nil {
		k.ExpectedAbsent = *r.ExpectedAbsent
	}

	switch k.Expect {
	case Pass:
		if r.ExpectedFiles == nil {
			c.errorf("expected_files", "required when expect is pass: the whole tree afterwards")
		}
		c.absent(k.ExpectedAbsent, k.ExpectedFiles, "expected_files")
	case Fail:
		for _, f := range []struct {
			name    string
			present bool
		}{{"expected_files", r.ExpectedFiles != nil}, {"expected_patch", r.ExpectedPatch != nil}, {"retry", r.Retry != nil}, {"reverse", r.Reverse != nil}} {
			if f.present {
				c.errorf(f.name, "not allowed when expect is fail: a failing case changes nothing and runs nothing after the failure")
			}
		}
		c.absent(k.ExpectedAbsent, k.Files, "files")
	}

	if k.Protocol == Standard && k.Expect == Pass {
		c.retryAndReverse(r, k, plain)
	}
	if r.WriteOrder != nil {
		c.writeOrder(*r.WriteOrder, k)
	}
}

// outcome reads an expectation: expect with error_code and error, or result.
// prefix is "" at the top level and "retry" or "reverse" inside those.
func (c *checker) outcome(prefix string, expect, code *string, errRaw, resRaw json.RawMessage, strip *int) *Outcome {
	o := &Outcome{}
	switch {
	case expect == nil:
		c.errorf(fieldName(prefix, "expect"), `required: "pass" or "fail"`)
	case *expect == string(Pass) || *expect == string(Fail):
		o.Expect = Expect(*expect)
	default:
		c.errorf(fieldName(prefix, "expect"), `%q is neither "pass" nor "fail"`, *expect)
	}
	if code != nil {
		if !c.knownCode(*code) {
			c.errorf(fieldName(prefix, "error_code"), "unknown error code %q", *code)
		}
		o.ErrorCode = *code
	}
	if errRaw != nil {
		o.Error = c.errorDetails(fieldName(prefix, "error"), errRaw)
	}
	if resRaw != nil {
		o.Result = c.result(fieldName(prefix, "result"), resRaw, strip)
	}
	switch o.Expect {
	case Pass:
		if code != nil {
			c.errorf(fieldName(prefix, "error_code"), "not allowed when expect is pass")
		}
		if errRaw != nil {
			c.errorf(fieldName(prefix, "error"), "error details on a passing expectation")
		}
	case Fail:
		if code == nil {
			c.errorf(fieldName(prefix, "error_code"), "required when expect is fail")
		}
		if resRaw != nil {
			c.errorf(fieldName(prefix, "result"), "a success result on a failing expectation")
		}
	}
	return o
}

// rawOutcome is retry or reverse as written.
type rawOutcome struct {
	Expect        *string         `json:"expect"`
	ErrorCode     *string         `json:"error_code"`
	Error         json.RawMessage `json:"error"`
	Result        json.RawMessage `json:"result"`
	ExpectedFiles json.RawMessage `json:"expected_files"`
}

// retryAndReverse reads retry and reverse of a passing Standard case and
// fills in the defaults of README.md.
func (c *checker) retryAndReverse(r *rawCase, k *Case, plain *bool) {
	status := "already_applied"
	if s, _ := k.Result["status"].(string); s == "noop" {
		status = "noop"
	}
	k.Retry = &Outcome{
		Expect:        Pass,
		Result:        map[string]any{"status": status, "changed": []any{}, "noop": true, "written": false},
		ExpectedFiles: k.ExpectedFiles,
	}
	if r.Retry != nil {
		k.Retry = c.rawOutcome("retry", r.Retry, k.ExpectedFiles, k.Strip, plain)
	}
	k.Reverse = &Outcome{Expect: Pass, ExpectedFiles: k.Files}
	if r.Reverse != nil {
		k.Reverse = c.rawOutcome("reverse", r.Reverse, k.Retry.ExpectedFiles, k.Strip, plain)
		if k.Reverse.Expect == Pass && k.Reverse.ExpectedFiles == nil {
			k.Reverse.ExpectedFiles = k.Files
		}
	}
}

// rawOutcome decodes retry or reverse; before is the tree the command starts
// from, which a failing command leaves as it is.
func (c *checker) rawOutcome(field string, raw json.RawMessage, before Tree, strip *int, plain *bool) *Outcome {
	var ro rawOutcome
	if err := strictUnmarshal(raw, &ro); err != nil {
		c.add(decodeError(field, err))
		return &Outcome{Expect: Pass, ExpectedFiles: before}
	}
	o := c.outcome(field, ro.Expect, ro.ErrorCode, ro.Error, ro.Result, strip)
	if ro.ExpectedFiles != nil {
		if o.Expect == Fail {
			c.errorf(fieldName(field, "expected_files"), "a failing command leaves the tree as it was")
		}
		o.ExpectedFiles = c.tree(fieldName(field, "expected_files"), ro.ExpectedFiles, plain)
	}
	if o.Expect == Fail || (field == "retry" && o.ExpectedFiles == nil) {
		o.ExpectedFiles = before
	}
	return o
}

// absent checks expected_absent against the tree that exists afterwards.
func (c *checker) absent(paths []string, after Tree, treeName string) {
	seen := map[string]bool{}
	for i, p := range paths {
		f := fieldIndex("expected_absent", i)
		if err := checkPath(p); err != nil {
			c.add(f, err)
			continue
		}
		if seen[p] {
			c.errorf(f, "%q listed twice", p)
		}
		seen[p] = true
		if _, ok := after[p]; ok {
			c.errorf(f, "%q is also in %s", p, treeName)
			continue
		}
		for _, q := range after.Paths() {
			if strings.HasPrefix(q, p+"/") {
				c.errorf(f, "%q holds %q of %s, so it exists as a folder", p, q, treeName)
				break
			}
		}
	}
}

// cwdFlags are the flags the runner sets itself.
var cwdFlags = []string{"--cwd", "-d", "--directory", "-i", "--input"}

func (c *checker) args(field string, args []string, strip bool) {
	for i, a := range args {
		f := fieldIndex(field, i)
		name, _, _ := strings.Cut(a, "=")
		switch {
		case slices.Contains(cwdFlags, name):
			c.errorf(f, "%s is set by the runner; use a steps case to test it", name)
		case strip && (name == "--strip" || name == "-p" || isPFlag(a)):
			c.errorf(f, "%s and strip both set the strip count", a)
		}
	}
}

func isPFlag(a string) bool {
	n, ok := strings.CutPrefix(a, "-p")
	if !ok || n == "" {
		return false
	}
	_, err := strconv.Atoi(n)
	return err == nil
}

// writeOrder checks write_order: files of the pass case's starting and
// expected trees, each named once.
func (c *checker) writeOrder(order []string, k *Case) {
	if k.Expect != Pass {
		c.errorf("write_order", "only for pass cases: it describes how apply writes")
		return
	}
	if len(order) < 2 {
		c.errorf("write_order", "name at least two files: it is an order")
	}
	seen := map[string]bool{}
	for i, p := range order {
		f := fieldIndex("write_order", i)
		switch {
		case seen[p]:
			c.errorf(f, "%q is listed twice", p)
		case k.Files[p].Kind() != "file" || !hasPath(k.Files, p) || k.ExpectedFiles[p].Kind() != "file" || !hasPath(k.ExpectedFiles, p):
			c.errorf(f, "%q must be a file in both files and expected_files: write_order lists replaced files", p)
		}
		seen[p] = true
	}
	k.WriteOrder = order
}
