package model

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// Sentinel errors. Returned errors wrap them with context; test with
// errors.Is.
var (
	// ErrArchMismatch: weights, a checkpoint or an optimiser state belong
	// to a different architecture than the object they are loaded into.
	ErrArchMismatch = errors.New("architecture mismatch")
	// ErrBadMagic: the file is not an AliceZero checkpoint.
	ErrBadMagic = errors.New("not an AliceZero checkpoint (bad magic bytes)")
	// ErrTruncated: the file ends before its header says it should.
	ErrTruncated = errors.New("checkpoint truncated")
	// ErrChecksum: the file's contents do not match its checksum.
	ErrChecksum = errors.New("checkpoint checksum mismatch (file corrupted)")
	// ErrVersion: the file's format version is not one this build reads.
	ErrVersion = errors.New("unsupported checkpoint format version")
	// ErrEncoding: the checkpoint's network was built for another input
	// encoding or policy layout than this build's.
	ErrEncoding = errors.New("checkpoint's network uses another input encoding or policy layout")
	// ErrCorrupt: the file is internally inconsistent although its checksum
	// matches (a bug in the writer, or a hand-edited file).
	ErrCorrupt = errors.New("checkpoint malformed")
	// ErrClosed: the evaluator or trainer was closed.
	ErrClosed = errors.New("model: closed")
)

// catch turns a panic (a bug: the evaluator's kernels check their extents
// by panicking) into an error so that none crosses the package boundary.
// Use as: defer catch(&err, "what we were doing").
func catch(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("model: %s: panic: %v\n%s", what, r, debug.Stack())
	}
}
