//go:build !linux

package renames

import "errors"

// Watch records renames where inotify exists; elsewhere Start fails.
type Watch struct{}

// Start fails: watching renames needs inotify.
func Start([]string) (*Watch, error) {
	return nil, errors.New("watching renames needs inotify (Linux)")
}

// Stop returns nothing.
func (*Watch) Stop() ([]string, error) { return nil, nil }
