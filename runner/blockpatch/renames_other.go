//go:build !linux

package blockpatch

import "errors"

type renameWatch struct{}

func watchRenames([]string) (*renameWatch, error) {
	return nil, errors.New("watching renames needs inotify (Linux)")
}

func (*renameWatch) stop() ([]string, error) { return nil, nil }
