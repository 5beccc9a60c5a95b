// Package caseerr is the error both case formats (blockpatch's cases and
// PatchDIFF's cases/patchdiff) report a bad case with, so that tools
// handle a problem in either the same way.
package caseerr

import "fmt"

// Error is a problem with one case: the case's name, the field at fault
// (empty for the file as a whole) and the reason.
type Error struct {
	Case  string
	Field string
	Err   error
}

func (e *Error) Error() string {
	if e.Field == "" {
		return fmt.Sprintf("case %s: %v", e.Case, e.Err)
	}
	return fmt.Sprintf("case %s: %s: %v", e.Case, e.Field, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// All returns every *Error in err, which may be a single one or an
// errors.Join of several.
func All(err error) []*Error {
	var out []*Error
	var walk func(error)
	walk = func(err error) {
		if ce, ok := err.(*Error); ok {
			out = append(out, ce)
			return
		}
		if j, ok := err.(interface{ Unwrap() []error }); ok {
			for _, e := range j.Unwrap() {
				walk(e)
			}
		}
	}
	walk(err)
	return out
}
