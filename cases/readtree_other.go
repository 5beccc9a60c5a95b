//go:build !unix

package cases

import "io/fs"

func allocated(info fs.FileInfo) (int64, bool) { return 0, false }
