package main

import (
	"context"
	"errors"
)

// interrupted returns, for a front end that ends quietly when ctx does
// (uci, xboard, play, serve), ctx's error if ctx ended it, so that run
// exits 130 as for any interrupted command; an orderly end (quit, the end
// of the input) keeps its nil and exits 0.
func interrupted(ctx context.Context, err error) error {
	if err == nil && ctx.Err() != nil {
		return ctx.Err()
	}
	return err
}

// quietCancel turns an interruption into the error main reports as exit
// 130 without a message.
func quietCancel(ctx context.Context, err error) error {
	if ctx.Err() != nil && errors.Is(err, context.Canceled) {
		return ctx.Err()
	}
	return err
}
