package readiness

import "sync"

// lazyObs returns the observation named key, computing it with f the first
// time any check asks for it; concurrent callers wait for the one
// computation and share its result. It keeps the observations of the Act,
// Connect and Trust checks and of the optional conventions beside the
// engine's own, one per scan.
func lazyObs[T any](s *scan, key string, f func() T) T {
	v, _ := s.lazy.LoadOrStore(key, sync.OnceValue(func() any { return f() }))
	return v.(func() any)().(T)
}
