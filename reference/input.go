package reference

import (
	"io"
	"os"
	"strconv"
)

// DefaultInputLimit is the largest patch, move request or tree file, in
// bytes, the reference reads unless told otherwise: 1 GiB. Everything it
// reads is held in memory, so the limit bounds its memory.
const DefaultInputLimit int64 = 1 << 30

// ReadLimited reads r to its end, failing with io_error (phase io, OUT-023) once
// more than limit bytes came; what names the input in the message. Memory
// stays proportional to what was read; a regular file above the limit is
// refused before it is read.
func ReadLimited(r io.Reader, limit int64, what string) ([]byte, error) {
	if f, ok := r.(*os.File); ok {
		if info, err := f.Stat(); err == nil && info.Mode().IsRegular() && info.Size() > limit {
			e := tooLarge(what, limit)
			e.Path = ""
			return nil, e
		}
	}
	data, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, &Error{Code: IOError, Phase: "io", Message: "reading " + what + ": " + err.Error(), Err: err}
	}
	if int64(len(data)) > limit {
		e := tooLarge(what, limit)
		e.Path = ""
		return nil, e
	}
	return data, nil
}

// tooLarge is the io_error of an input above the limit.
func tooLarge(what string, limit int64) *Error {
	return &Error{Code: IOError, Phase: "io", Path: what,
		Message: what + " is larger than the input limit of " + strconv.FormatInt(limit, 10) + " bytes"}
}
