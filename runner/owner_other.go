//go:build !unix

package runner

import "io/fs"

func Owner(info fs.FileInfo) string { return "" }
