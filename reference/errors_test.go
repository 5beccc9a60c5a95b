package reference

import (
	"errors"
	"go/ast"
	goparser "go/parser"
	"go/token"
	"io/fs"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/blockpatch-conformance/blockpatch-conformance/spec"
)

// TestCodesMatchSpec keeps the Code constants declared in errors.go in
// step with the spec's list: one constant per code, in the spec's order.
func TestCodesMatchSpec(t *testing.T) {
	t.Parallel()
	f, err := goparser.ParseFile(token.NewFileSet(), "errors.go", nil, 0)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, d := range f.Decls {
		g, ok := d.(*ast.GenDecl)
		if !ok || g.Tok != token.CONST {
			continue
		}
		for _, spec := range g.Specs {
			v := spec.(*ast.ValueSpec)
			if id, ok := v.Type.(*ast.Ident); ok && id.Name == "Code" {
				lit := v.Values[0].(*ast.BasicLit)
				got = append(got, strings.Trim(lit.Value, `"`))
			}
		}
	}
	if diff := cmp.Diff(spec.ErrorCodes(), got); diff != "" {
		t.Errorf("Code constants (-spec +errors.go):\n%s", diff)
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
