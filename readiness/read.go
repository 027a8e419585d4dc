package readiness

import "sync"

// resource names a read a check needs, so the engine can start it early.
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

// warm computes a read ahead of the checks that need it.
func (s *scan) warm(r resource) {
	switch r {
	case resPage:
		s.pageRead()
	case resMarkdown:
		s.markdownRead()
	case resRobots:
		s.robotsRead()
	case resSitemap, resPages:
		// The default sitemap location is fetched alongside robots.txt
		// rather than after it: most robots.txt files name it, and the
		// scan's critical path is one request shorter.
		s.bg.Go(func() { s.get(s.resolve("/sitemap.xml"), "") })
		s.bg.Go(func() { s.robotsRead() })
		if r == resSitemap {
			s.sitemapRead()
		} else {
			s.extraPages()
		}
	case resLLMs:
		s.llmsRead()
	case resCards:
		s.cardsRead()
	case resMDForm:
		s.mdFormRead()
	}
}

// readOnce returns the read named key, computing it with read the first
// time anyone asks. Concurrent callers wait for that one computation and
// share its result.
//
// It is the scan's one memo for reads: a map of once-functions by name.
// Each read declares its accessor beside its code, so a new read touches no
// central list, and the engine warms a read by calling its accessor. Only
// that accessor uses the read's key, so a key never holds two types.
func readOnce[T any](s *scan, key string, read func() T) T {
	v, ok := s.reads.Load(key)
	if !ok {
		v, _ = s.reads.LoadOrStore(key, sync.OnceValue(func() any { return read() }))
	}
	return v.(func() any)().(T)
}
