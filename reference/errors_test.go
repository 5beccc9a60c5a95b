package reference

import (
	"errors"
	"io/fs"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// TestCodesMatchSpec keeps the Go constants in step with the spec's list.
func TestCodesMatchSpec(t *testing.T) {
	t.Parallel()
	var got []string
	for _, c := range Codes {
		got = append(got, string(c))
	}
	if diff := cmp.Diff(spec.ErrorCodes(), got); diff != "" {
		t.Errorf("error codes (-spec +reference):\n%s", diff)
	}
}

func TestErrorIsComparesCodes(t *testing.T) {
	t.Parallel()
	err := error(&Error{Code: SourceAmbiguous, Message: "m", Err: fs.ErrNotExist})
	if !errors.Is(err, &Error{Code: SourceAmbiguous}) || errors.Is(err, &Error{Code: TargetAmbiguous}) {
		t.Error("Is must compare codes only")
	}
	if !errors.Is(err, fs.ErrNotExist) {
		t.Error("Unwrap must expose the cause")
	}
	if CodeOf(errors.New("plain")) != UnexpectedError || CodeOf(err) != SourceAmbiguous {
		t.Error("CodeOf")
	}
}
