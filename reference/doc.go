// Package reference is the Go reference implementation of blockpatch 1.1.
//
// The core is pure and works on bytes: Parse turns a .blockpatch document
// into a Patch, Plan evaluates a Patch against the current bytes of the files
// it names (through the Files interface) and returns the resulting bytes and
// the spec's ApplyResult, and Format renders a Patch back to bytes. The
// filesystem layer, Workspace, reads operation paths inside a root directory
// and commits a plan with temp-file-and-rename writes.
//
// Every failure is an *Error whose Code is one of the spec's error codes;
// callers branch on the code, never on the message.
package reference
