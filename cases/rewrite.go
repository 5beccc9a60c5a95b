package cases

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// This file rewrites case files on disk: each is decoded, changed by edits,
// encoded in the corpus layout and checked to load before anything is
// written, so a field's meaning can be migrated across a corpus in one
// command (cmd/rewrite).

// Edit changes one decoded case file; name is the case's name.
type Edit func(name string, doc *Object) error

// Rewrite decodes every case.json under dir, applies edits in order,
// encodes the result and, unless dryRun, writes the files whose bytes
// changed. Every rewritten file must still load under opts; if any edit
// fails or any result does not load, Rewrite writes nothing. It returns the
// names of the changed cases.
func Rewrite(dir string, opts Options, dryRun bool, edits ...Edit) ([]string, error) {
	type change struct {
		file string
		data []byte
	}
	var changes []change
	var names []string
	var errs []error
	err := fs.WalkDir(os.DirFS(dir), ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.Name() != CaseFile || d.IsDir() {
			return err
		}
		name := filepath.ToSlash(filepath.Dir(p))
		file := filepath.Join(dir, filepath.FromSlash(p))
		old, err := os.ReadFile(file)
		if err != nil {
			return err
		}
		doc, err := DecodeObject(old)
		if err != nil {
			errs = append(errs, &CaseError{Case: name, Err: err})
			return nil
		}
		for _, edit := range edits {
			if err := edit(name, &doc); err != nil {
				errs = append(errs, &CaseError{Case: name, Err: err})
				return nil
			}
		}
		data, err := Encode(doc)
		if err != nil {
			errs = append(errs, &CaseError{Case: name, Err: err})
			return nil
		}
		if bytes.Equal(data, old) {
			return nil
		}
		if _, err := opts.Parse(name, data); err != nil {
			errs = append(errs, fmt.Errorf("after the rewrite: %w", err))
			return nil
		}
		changes = append(changes, change{file, data})
		names = append(names, name)
		return nil
	})
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if !dryRun {
		for _, c := range changes {
			if err := os.WriteFile(c.file, c.data, 0o644); err != nil {
				return nil, err
			}
		}
	}
	return names, nil
}

// A field path addresses members by their names joined with dots, from the
// top of the case file; "*" stands for every item of a list or every
// member of an object: "result.moves.*.target_range",
// "steps.*.json.error.phase".

// each replaces every object that path's parent reaches by fn's result;
// key is the last name of path.
func each(doc *Object, path string, fn func(parent Object, key string) (Object, error)) error {
	segs := strings.Split(path, ".")
	if slices.Contains(segs, "") {
		return fmt.Errorf("malformed field path %q", path)
	}
	var walk func(v any, segs []string) (any, error)
	walk = func(v any, segs []string) (any, error) {
		if len(segs) == 1 {
			if o, ok := v.(Object); ok {
				return fn(o, segs[0])
			}
			return v, nil
		}
		switch x := v.(type) {
		case Object:
			for i := range x {
				if segs[0] == "*" || x[i].Key == segs[0] {
					nv, err := walk(x[i].Value, segs[1:])
					if err != nil {
						return nil, err
					}
					x[i].Value = nv
				}
			}
		case []any:
			if segs[0] == "*" {
				for i := range x {
					nv, err := walk(x[i], segs[1:])
					if err != nil {
						return nil, err
					}
					x[i] = nv
				}
			}
		}
		return v, nil
	}
	v, err := walk(*doc, segs)
	if err != nil {
		return err
	}
	*doc = v.(Object)
	return nil
}

// RenameField renames the member at path to newName, in its place, wherever
// it occurs.
func RenameField(path, newName string) Edit {
	return func(_ string, doc *Object) error {
		return each(doc, path, func(parent Object, key string) (Object, error) {
			_, err := parent.Rename(key, newName)
			return parent, err
		})
	}
}

// DropField removes the member at path wherever it occurs.
func DropField(path string) Edit {
	return func(_ string, doc *Object) error {
		return each(doc, path, func(parent Object, key string) (Object, error) {
			parent.Delete(key)
			return parent, nil
		})
	}
}

// SetField gives the member at path the JSON value raw in every object the
// path's parent reaches, in place or as a new member; a new top-level
// member takes its place in the order of CaseFields.
func SetField(path string, raw json.RawMessage) Edit {
	return func(_ string, doc *Object) error {
		if !json.Valid(raw) {
			return fmt.Errorf("%s: not a JSON value: %s", path, raw)
		}
		var order []string
		if !strings.Contains(path, ".") {
			order = FieldNames(CaseFields)
		}
		return each(doc, path, func(parent Object, key string) (Object, error) {
			parent.Set(key, raw, order...)
			return parent, nil
		})
	}
}
