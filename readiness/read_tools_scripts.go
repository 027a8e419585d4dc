package readiness

import (
	"fmt"
	"net/http"
	"sync"

	"github.com/agentweb/agentweb/safefetch"
)

// Bounds on the external scripts a scan reads (the check catalogue, Act).
// Every external script of the pages read, of any origin, is fetched through
// the scan's client and charged to its budget. A script past these bounds is
// named in the receipt as not read.
const (
	// MaxScripts is the number of external scripts, of any origin, a scan
	// reads from the pages it reads.
	MaxScripts = 24
	// MaxScriptBytes bounds the bytes of all the external scripts a scan
	// reads; each one is also bounded by the scan's MaxBodyBytes.
	MaxScriptBytes = 4 << 20

	// scriptFetchesAtOnce is how many script fetches are in flight at
	// once. The budget's concurrency bounds them too.
	scriptFetchesAtOnce = 4
)

// readScripts fetches the given scripts, at most scriptFetchesAtOnce at a time,
// within [MaxScriptBytes] in all. Each fetch reserves its cap before it starts:
// the scan's MaxBodyBytes, or what is left. It gives back what it did not read.
// A script that cannot be given any byte is not requested; it is returned as
// too large.
func (s *scan) readScripts(urls []string) []*fetched {
	out := make([]*fetched, len(urls))
	var mu sync.Mutex
	cond := sync.NewCond(&mu)
	left, inflight := int64(MaxScriptBytes), 0
	var wg sync.WaitGroup
	for i, u := range urls {
		mu.Lock()
		for inflight > 0 && (inflight >= scriptFetchesAtOnce || left < s.maxBody) {
			cond.Wait()
		}
		if left <= 0 {
			mu.Unlock()
			out[i] = &fetched{method: http.MethodGet, url: u, err: fmt.Errorf("readiness: not fetched: %w", safefetch.ErrTooLarge)}
			continue
		}
		limit := min(s.maxBody, left)
		left -= limit
		inflight++
		mu.Unlock()
		wg.Go(func() {
			f := s.getCapped(u, "", 0, limit)
			mu.Lock()
			left += limit - int64(len(f.body()))
			inflight--
			cond.Broadcast()
			mu.Unlock()
			out[i] = f
		})
	}
	wg.Wait()
	return out
}
