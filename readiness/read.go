package readiness

import (
	"sync"
)

// resource names an observation a check reads, so the engine can start it
// early.
type resource int

const (
	resPage resource = iota + 1
	resMarkdown
	resRobots
	resSitemap
	resLLMs
	resCards
	resMDForm
	resPages
)

// warm computes an observation ahead of the checks that read it.
func (s *scan) warm(r resource) {
	switch r {
	case resPage:
		s.pageObs()
	case resMarkdown:
		s.markdownObs()
	case resRobots:
		s.robotsObs()
	case resSitemap, resPages:
		// The default sitemap location is fetched alongside robots.txt
		// rather than after it: most robots.txt files name it, and the
		// scan's critical path is one request shorter.
		s.bg.Go(func() { s.get(s.resolve("/sitemap.xml"), "") })
		s.bg.Go(func() { s.robotsObs() })
		if r == resSitemap {
			s.sitemapObs()
		} else {
			s.extraPages()
		}
	case resLLMs:
		s.llmsObs()
	case resCards:
		s.cardsObs()
	case resMDForm:
		s.mdFormObs()
	}
}

// lazyObs returns the observation named key, computing it with f the first
// time any check asks for it; concurrent callers wait for the one
// computation and share its result. It keeps the observations of the Act,
// Connect and Trust checks and of the optional conventions beside the
// engine's own, one per scan.
func lazyObs[T any](s *scan, key string, f func() T) T {
	v, _ := s.lazy.LoadOrStore(key, sync.OnceValue(func() any { return f() }))
	return v.(func() any)().(T)
}
