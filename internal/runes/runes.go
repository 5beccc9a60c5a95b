// Package runes holds what more than one package needs to know of UTF-8
// text cut into pieces: where a piece ends inside a rune.
package runes

import "unicode/utf8"

// Cut returns where p ends in the start of a rune that more bytes could
// complete, or len(p): p[:Cut(p)] ends between runes, or in bytes that
// no rune's continuation makes valid.
func Cut(p []byte) int {
	for i := len(p) - 1; i >= max(0, len(p)-(utf8.UTFMax-1)); i-- {
		if utf8.RuneStart(p[i]) {
			if !utf8.FullRune(p[i:]) {
				return i
			}
			break
		}
	}
	return len(p)
}
