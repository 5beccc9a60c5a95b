package patchdiff

import (
	"strings"
	"unicode/utf8"
)

// kmpAfter is the number of occurrences after which forEachOccurrence
// leaves strings.Index for Knuth-Morris-Pratt: a long needle that overlaps
// itself (64 KiB of "a" in 1 MiB of "a") would otherwise cost its length
// at every one of up to a million positions.
const kmpAfter = 256

// forEachOccurrence calls visit for every occurrence of needle in b, the
// overlapping ones included, left to right (FIND-003), until visit returns
// false. A byte match of valid UTF-8 in valid UTF-8 starts on a code-point
// boundary, so searching bytes and advancing one code point after each hit
// enumerates exactly the code-point occurrences.
func forEachOccurrence(b buffer, needle string, visit func(occurrence) bool) {
	if needle == "" {
		return
	}
	s := b.s
	from, lastB, cp, hits := 0, 0, 0, 0
	var (
		kmp      []int
		kmpState int // bytes of needle matched before s[from], in KMP mode
	)
	for from <= len(s)-len(needle)+kmpState {
		var at int
		if hits < kmpAfter || len(needle) < 64 {
			i := strings.Index(s[from:], needle)
			if i < 0 {
				return
			}
			at = from + i
		} else {
			if kmp == nil {
				kmp = kmpTable(needle)
			}
			if at, kmpState = kmpIndex(s, from, kmpState, needle, kmp); at < 0 {
				return
			}
		}
		hits++
		if b.ascii {
			cp = at
		} else {
			cp += utf8.RuneCountInString(s[lastB:at])
			lastB = at
		}
		if !visit(occurrence{b: at, cp: cp}) {
			return
		}
		if kmp != nil {
			// Carry on from the end of the match with the state the
			// failure function gives, so the search stays linear.
			from, kmpState = at+len(needle), kmp[len(needle)-1]
			continue
		}
		_, size := utf8.DecodeRuneInString(s[at:])
		from = at + size
	}
}

// kmpTable is the failure function of needle.
func kmpTable(needle string) []int {
	t := make([]int, len(needle))
	for i, k := 1, 0; i < len(needle); i++ {
		for k > 0 && needle[i] != needle[k] {
			k = t[k-1]
		}
		if needle[i] == needle[k] {
			k++
		}
		t[i] = k
	}
	return t
}

// kmpIndex returns the first occurrence of needle in s ending at or after
// from+len(needle)-k, given that the k bytes before from match the start of
// needle, and the state to resume from after it.
func kmpIndex(s string, from, k int, needle string, t []int) (int, int) {
	for i := from; i < len(s); i++ {
		for k > 0 && s[i] != needle[k] {
			k = t[k-1]
		}
		if s[i] == needle[k] {
			k++
		}
		if k == len(needle) {
			return i - len(needle) + 1, k
		}
	}
	return -1, 0
}
