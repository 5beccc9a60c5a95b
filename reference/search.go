package reference

import "bytes"

// index returns the offset of the first occurrence of needle in data, or
// -1 (0 for an empty needle). Whatever the input it runs in time linear in
// len(data)+len(needle).
//
// It skips with the vectorised byte search to the needle's rarest byte (by
// rareness in text, see byteRank) and compares there. Near misses cost at
// most a 64-byte comparison each, and full comparisons that fail are
// counted: when candidates come too often (every 16 bytes or closer on
// average) or failed full comparisons outweigh the bytes skipped, the rest
// of data is searched by slowIndex. The runtime's bytes.Index alone is not
// linear for long needles: near misses sparse enough to keep it from
// switching strategy each cost a comparison as long as the needle.
func index(data, needle []byte) int {
	n := len(needle)
	switch {
	case n == 0:
		return 0
	case n == 1:
		return bytes.IndexByte(data, needle[0])
	case n > len(data):
		return -1
	}
	k := rarest(needle)
	c, head := needle[k], min(n, 64)
	last := len(data) - n // the last possible start
	fails, work := 0, 0
	for at := 0; at <= last; at++ {
		j := bytes.IndexByte(data[at+k:last+k+1], c)
		if j < 0 {
			return -1
		}
		at += j
		if bytes.Equal(data[at:at+head], needle[:head]) {
			if bytes.Equal(data[at+head:at+n], needle[head:]) {
				return at
			}
			work += n
		}
		fails++
		if fails > 4+at>>4 || work > 2*at+4*n {
			if i := slowIndex(data[at+1:], needle); i >= 0 {
				return at + 1 + i
			}
			return -1
		}
	}
	return -1
}

// slowIndex is index for inputs where skipping does not pay. The runtime's
// search is linear for needles of up to 64 bytes (each comparison it
// gives up on costs at most the needle's length, and it gives up on at
// most one in 16 positions before changing strategy); longer needles use
// Knuth-Morris-Pratt.
func slowIndex(data, needle []byte) int {
	if len(needle) <= 64 {
		return bytes.Index(data, needle)
	}
	at := -1
	kmpScan(data, needle, 0, func(start int) bool {
		at = start
		return false
	})
	return at
}

// kmpScan reports the occurrences of needle starting at or after from, in
// order and overlapping, until yield returns false.
func kmpScan(data, needle []byte, from int, yield func(start int) bool) {
	if from+len(needle) > len(data) {
		return
	}
	fail := make([]int32, len(needle))
	for i, k := 1, int32(0); i < len(needle); i++ {
		for k > 0 && needle[i] != needle[k] {
			k = fail[k-1]
		}
		if needle[i] == needle[k] {
			k++
		}
		fail[i] = k
	}
	k := int32(0)
	for i := from; i < len(data); i++ {
		for k > 0 && data[i] != needle[k] {
			k = fail[k-1]
		}
		if data[i] == needle[k] {
			k++
		}
		if int(k) == len(needle) {
			if !yield(i + 1 - len(needle)) {
				return
			}
			k = fail[k-1]
		}
	}
}

// rarest returns the position of the needle's rarest byte, the first one
// on a tie.
func rarest(needle []byte) int {
	best := 0
	for i, c := range needle {
		if byteRank[c] > byteRank[needle[best]] {
			best = i
		}
	}
	return best
}

// byteRank orders bytes by how rare they are in source code and prose:
// the higher, the rarer. commonBytes lists the common ones, most common
// first; every byte it does not list (controls, most punctuation, bytes
// of multi-byte UTF-8) ranks above all of them.
var byteRank = func() (rank [256]uint8) {
	const commonBytes = " e\nt\taoinsrlhdcumfpg.,_()=yb;w\"0v1k:-/E{}T*SAIRNCO'LxDP2M>F<#[]Bj3U4H5G8z96q7W+VK&!|%XYJQZ$@\\?`^~\r"
	for i := range rank {
		rank[i] = 255
	}
	for i := 0; i < len(commonBytes); i++ {
		rank[commonBytes[i]] = uint8(i)
	}
	return rank
}()
