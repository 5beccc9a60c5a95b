package reference

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
)

// tempPrefix starts the name of every temp file: hidden, and with a fixed
// length whatever the target's name, so it fits NAME_MAX for any name the
// target can have.
const tempPrefix = ".blockpatch-"

// keptModeBits are the mode bits a replaced file keeps (WRITE-011): the
// permissions and the setuid, setgid and sticky bits.
const keptModeBits = fs.ModePerm | fs.ModeSetuid | fs.ModeSetgid | fs.ModeSticky

// stageChunk is how much staging writes between looks at its context, so
// an interrupted Commit stops soon even on a large file.
const stageChunk = 4 << 20

// tempName returns a fresh random temp-file name: tempPrefix and 16 hex
// digits.
func tempName() string {
	var b [8]byte
	rand.Read(b[:])
	return tempPrefix + hex.EncodeToString(b[:])
}

// stage writes the change's new content to a new temp file in its folder,
// in chunks of stageChunk bytes, looking at ctx between them. A replaced
// file's mode bits, and its owner and group where the process may set
// them, pass to the temp file; a created file gets 0644 whatever the umask
// (WRITE-010). write writes each chunk.
//
// Content of more than one chunk is pushed to disk chunk by chunk on
// another goroutine while the next ones are written (startWriteback): a
// rename over a file makes ext4 write the new file out at once, which
// otherwise costs as long again as staging it (issue 23).
func (s *staged) stage(ctx context.Context, snap snapshot, write segmentWriter) error {
	mode := fs.FileMode(0o644)
	var was fs.FileInfo
	if snap.info != nil {
		was = snap.info
		mode = was.Mode() & keptModeBits
	}
	var f *os.File
	for try := 0; ; try++ {
		name := tempName()
		var err error
		f, err = s.dir.handle.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
		if err == nil {
			s.temp = name // from now on Commit removes it
			break
		}
		if !errors.Is(err, fs.ErrExist) || try == 10 {
			return err
		}
	}
	err := writeChunks(ctx, f, s.change, write)
	if err == nil && was != nil {
		keepOwner(f, was) // before chmod: chown may clear setuid and setgid
	}
	if err == nil {
		err = f.Chmod(mode)
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	return err
}

// writeChunks writes c's content to f, as stage says.
func writeChunks(ctx context.Context, f *os.File, c Change, write segmentWriter) error {
	var wb *writeback
	if c.size() > stageChunk {
		wb = startWriteback(f)
		defer wb.stop() // before f closes
	}
	var written int64
	for _, d := range c.Data {
		for len(d) > 0 {
			if err := interrupted(ctx); err != nil {
				return err
			}
			n := min(len(d), stageChunk)
			if err := write(f, d[:n]); err != nil {
				return err
			}
			d, written = d[n:], written+int64(n)
			wb.upTo(written)
		}
	}
	return nil
}

// segmentWriter writes one slice of a new file's content to f.
type segmentWriter func(f *os.File, d []byte) error
