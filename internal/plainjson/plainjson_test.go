package plainjson

import "testing"

func TestMarshalKeepsMarkup(t *testing.T) {
	t.Parallel()
	got, err := Marshal(map[string]string{"a": "<b> & </b>"})
	if err != nil || string(got) != `{"a":"<b> & </b>"}` {
		t.Errorf("got %s, %v", got, err)
	}
}
