//go:build !linux

package reference

import (
	"io/fs"
	"os"
)

// mapFile maps nothing on this system: every file is copied.
func mapFile(*os.File, int64) ([]byte, error) { return nil, nil }

func unmap([]byte) error { return nil }

func sameChangeTime(fs.FileInfo, fs.FileInfo) bool { return true }

func mappedWhole([]byte) bool { return false }
