package service

import "time"

// SetBodyTimeout sets the body deadline for a test and returns what
// restores it.
func SetBodyTimeout(d time.Duration) func() {
	old := bodyTimeout
	bodyTimeout = d
	return func() { bodyTimeout = old }
}
