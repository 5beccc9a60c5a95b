package cases

import (
	"encoding/json"
	"reflect"
	"slices"
	"strings"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// This file describes the members of a case file. The one description is
// the raw structs the loader decodes into (rawCase, rawStep, rawOutcome,
// rawResult, rawMove, rawWarning, rawRace, rawEntry): each member is one
// struct field, its name from the json tag, its kind from the Go type, and,
// at the top level, the case tag saying which protocols take it and
// whether it is one of upstream's fields. The tables below are read from
// them, and the loader's checks, README.md's test and the encoder's member
// order all use the tables. Error details come from spec.ErrorDetailFields.
//
// The case tag is a space-separated list: "upstream" for upstream's
// fields, and "protocols=standard,planned" for members only those
// protocols take (without it, every protocol takes the member).

// Field describes one member of a case-file object.
type Field struct {
	Name string
	// Kind is the JSON kind of the value: "string", "boolean", "integer",
	// "list of strings", "object" or "list", or, for the members that
	// hold bytes or trees, "content" or "tree".
	Kind string
	// Upstream is true for the members of upstream's case format.
	Upstream bool
	// Protocols lists the protocols that take the member; nil means all.
	Protocols []Protocol

	index int // the struct field
}

// Takes reports whether a case of protocol p may hold the member.
func (f Field) Takes(p Protocol) bool { return f.Protocols == nil || slices.Contains(f.Protocols, p) }

// The members of each object of a case file, in the order a case file
// writes them.
var (
	CaseFields    = fieldsOf[rawCase]()
	OutcomeFields = fieldsOf[rawOutcome]()
	StepFields    = fieldsOf[rawStep]()
	RaceFields    = fieldsOf[rawRace]()
	EntryFields   = fieldsOf[rawEntry]()
	ResultFields  = fieldsOf[rawResult]()
	MoveFields    = fieldsOf[rawMove]()
	WarningFields = fieldsOf[rawWarning]()
	// ErrorFields are the members of an expected error object: code, in
	// a step's json, then the details of spec.ErrorDetailFields.
	ErrorFields = errorFields()
)

// FieldNames returns the names of fields, in order.
func FieldNames(fields []Field) []string {
	out := make([]string, len(fields))
	for i, f := range fields {
		out[i] = f.Name
	}
	return out
}

func fieldsOf[T any]() []Field {
	typ := reflect.TypeFor[T]()
	var out []Field
	for i := range typ.NumField() {
		sf := typ.Field(i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		f := Field{Name: name, Kind: kindOf(sf), index: i}
		for attr := range strings.FieldsSeq(sf.Tag.Get("case")) {
			switch k, v, _ := strings.Cut(attr, "="); k {
			case "upstream":
				f.Upstream = true
			case "protocols":
				for p := range strings.SplitSeq(v, ",") {
					f.Protocols = append(f.Protocols, Protocol(p))
				}
			case "kind":
				f.Kind = v
			default:
				panic("cases: unknown case tag " + attr + " on " + typ.Name() + "." + sf.Name)
			}
		}
		out = append(out, f)
	}
	return out
}

func kindOf(sf reflect.StructField) string {
	t := sf.Type
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == reflect.TypeFor[json.RawMessage]():
		return "any"
	case t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.String:
		return "list of strings"
	case t.Kind() == reflect.Slice:
		return "list"
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Int:
		return "integer"
	}
	return "object"
}

func errorFields() []Field {
	out := []Field{{Name: "code", Kind: string(spec.String)}}
	for _, d := range spec.ErrorDetailFields {
		out = append(out, Field{Name: d.Name, Kind: string(d.Kind)})
	}
	return out
}

// present lists the members of r that are set, as Fields of CaseFields.
func (r *rawCase) present() []Field {
	v := reflect.ValueOf(r).Elem()
	var out []Field
	for _, f := range CaseFields {
		if !v.Field(f.index).IsNil() {
			out = append(out, f)
		}
	}
	return out
}

// hasExtension reports whether r uses a field upstream does not have.
func (r *rawCase) hasExtension() bool {
	return slices.ContainsFunc(r.present(), func(f Field) bool { return !f.Upstream })
}
