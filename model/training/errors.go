package training

import (
	"errors"
	"fmt"
	"runtime/debug"
)

// ErrNonFinite: a loss or a parameter became NaN or infinite. Trainers
// also return model's ErrClosed and ErrArchMismatch.
var ErrNonFinite = errors.New("training: non-finite value")

// catch turns a panic (gorgonia panics in places, e.g. on shape errors deep
// inside an op) into an error so that none crosses the package boundary.
// Use as: defer catch(&err, "what we were doing").
func catch(err *error, what string) {
	if r := recover(); r != nil {
		*err = fmt.Errorf("training: %s: panic: %v\n%s", what, r, debug.Stack())
	}
}
