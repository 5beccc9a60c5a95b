package replay

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strings"
	"sync"
)

// The JSON-lines history file (REPLAY-021): one JSON object per line, each
// with exactly one member, named after the table the row belongs to, whose
// value is the row with its columns as members:
//
//	{"cloud_target_files":{"target_file_id":"t-1","current_content":"a\n","current_hash":"…","version":2}}
//	{"TargetSnapshots":{"snapshot_id":1,"target_file_id":"t-1","snapshot_reason":"initial_upload",…}}
//	{"append_only_pdcp_logs":{"pdcp_log_id":1,…}}
//	{"append_only_manifest_ledger":{"ledger_id":1,"pdcp_log_id":1,…}}
//
// Rows of a table keep their order in the file. Unknown tables or columns,
// a missing column and a line of two tables are errors.

// WriteJSONL writes h as a history file: the target, snapshots, log rows,
// then ledger rows.
func WriteJSONL(w io.Writer, h *History) error {
	bw := bufio.NewWriter(w)
	write := func(table string, row any) error {
		b, err := marshalLine(map[string]any{table: row})
		if err != nil {
			return err
		}
		bw.Write(b)
		return bw.WriteByte('\n')
	}
	for _, r := range h.Targets {
		if err := write(TableTargets, r); err != nil {
			return err
		}
	}
	for _, r := range h.Snapshots {
		if err := write(TableSnapshots, r); err != nil {
			return err
		}
	}
	for _, r := range h.Logs {
		if err := write(TableLogs, r); err != nil {
			return err
		}
	}
	for _, r := range h.Ledger {
		if err := write(TableLedger, r); err != nil {
			return err
		}
	}
	return bw.Flush()
}

func marshalLine(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// ReadJSONL reads a history file. Its error names the line.
func ReadJSONL(r io.Reader) (*History, error) {
	h := &History{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<30)
	n := 0
	for sc.Scan() {
		n++
		line := bytes.TrimSuffix(sc.Bytes(), []byte("\r"))
		if len(bytes.TrimSpace(line)) == 0 {
			continue
		}
		if err := h.AddLine(line); err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
	}
	return h, sc.Err()
}

// AddLine adds one history line's row to h.
func (h *History) AddLine(line []byte) error {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(line, &m); err != nil {
		return err
	}
	if len(m) != 1 {
		return errors.New("a line holds one member, named after its table")
	}
	for table, raw := range m {
		var err error
		switch table {
		case TableTargets:
			err = appendRow(&h.Targets, raw)
		case TableSnapshots:
			err = appendRow(&h.Snapshots, raw)
		case TableLogs:
			err = appendRow(&h.Logs, raw)
		case TableLedger:
			err = appendRow(&h.Ledger, raw)
		default:
			err = fmt.Errorf("unknown table %q", table)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", table, err)
		}
	}
	return nil
}

// appendRow decodes one row strictly: no unknown column, every column
// present (null where the column is nullable).
func appendRow[T any](rows *[]T, raw json.RawMessage) error {
	var cols map[string]json.RawMessage
	if err := json.Unmarshal(raw, &cols); err != nil {
		return err
	}
	var row T
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&row); err != nil {
		return err
	}
	for _, name := range columnsOf(reflect.TypeFor[T]()) {
		if _, ok := cols[name]; !ok {
			return fmt.Errorf("column %s missing", name)
		}
	}
	*rows = append(*rows, row)
	return nil
}

// columns caches columnsOf: a row type's columns are read from its json
// tags once, not by encoding every row again.
var columns sync.Map // reflect.Type → []string

// columnsOf returns the JSON member names of a row struct's fields.
func columnsOf(t reflect.Type) []string {
	if c, ok := columns.Load(t); ok {
		return c.([]string)
	}
	var names []string
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if !f.IsExported() || name == "-" {
			continue
		}
		if name == "" {
			name = f.Name
		}
		names = append(names, name)
	}
	columns.Store(t, names)
	return names
}

// MarshalJSONL returns h as a history file's bytes.
func (h *History) MarshalJSONL() []byte {
	var b bytes.Buffer
	WriteJSONL(&b, h)
	return b.Bytes()
}
