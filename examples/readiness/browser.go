package main

import (
	"context"
	"fmt"

	"github.com/agentweb/agentweb/readiness"
	"github.com/agentweb/agentweb/readiness/browser"
)

// startRenderer starts Chromium when -browser was given. The returned
// function closes it; it is never nil.
func startRenderer(ctx context.Context, c *config) (readiness.Renderer, func(), error) {
	if !c.browser {
		return nil, func() {}, nil
	}
	b, err := browser.New(ctx, nil)
	if err != nil {
		// browser.ErrNotFound says how to install Chromium.
		return nil, nil, fmt.Errorf("-browser: %w", err)
	}
	return b, func() { _ = b.Close() }, nil
}
