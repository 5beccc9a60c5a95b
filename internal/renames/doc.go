// Package renames watches folders for files renamed into them, in order:
// how the runner checks a case's write_order (WRITE-003, WRITE-005) and how
// a differential campaign compares the order in which two implementations
// replace files.
package renames
