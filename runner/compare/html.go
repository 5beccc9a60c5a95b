package compare

import (
	_ "embed"
	"encoding/json"
	"html/template"
	"io"
)

//go:embed page.html
var pageText string

var page = template.Must(template.New("page").Parse(pageText))

// WriteHTML prints the matrix as one static HTML page with its data, style
// and script inline: it opens from a file, with no server and no network.
func (m *Matrix) WriteHTML(w io.Writer) error {
	// json.Marshal escapes <, > and & (and U+2028, U+2029), so the data
	// cannot end the script element it sits in.
	data, err := json.Marshal(m)
	if err != nil {
		return err
	}
	return page.Execute(w, struct {
		Title string
		Data  template.JS
	}{m.Suite + " comparison", template.JS(data)})
}
